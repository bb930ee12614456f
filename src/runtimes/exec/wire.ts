/**
 * The KRM function wire format (kpt function spec): a `config.kubernetes.io/v1` `ResourceList` as one
 * YAML document on stdin/stdout, written and read with our YAML layer (src/yaml) as kyaml does.
 * Items keep their comments on the way in and out. Each item is converted to our nodes once on the
 * way out; an item the function handed back unchanged (same nodes, comments and styles) is the input
 * document itself, decided on the nodes without printing either side.
 */
import { getAnnotation, LEGACY_RESOURCE_ID, RESOURCE_ID } from "../../krm/annotations.js";
import { copyComments } from "../../krm/comments.js";
import { syncFieldOrder } from "../../krm/field-order.js";
import type { FunctionResult, KrmResource, ResourceList, ResultSeverity } from "../../krm/resource-list.js";
import { expandAliases, plainValue, sameNode } from "../../yaml/compare.js";
import { fastReadDocument } from "../../yaml/fast/index.js";
import { documentToNode } from "../../yaml/from-document.js";
import {
  emitDocument,
  Kind,
  mapGet,
  parseStream,
  Style,
  scalar,
  YamlError,
  YNode,
} from "../../yaml/index.js";
import { nodeToDocument } from "../../yaml/to-document.js";

/** A ResourceList as sent to a function: its text and each item's nodes (to tell what came back unchanged). */
export interface WireRequest {
  text: string;
  input: ResourceList;
  /** Each input item's nodes as written (index as in `input.items`). */
  sent: YNode[];
}

/** Two comments' text as one (either may be empty). */
export function joinComment(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `${a}\n${b}`;
}

/**
 * An item's content for the wire, its leading comments on its first key: a comment written above an
 * item's `- ` would be read back as the previous item's (after a trailing null value, `data:`), so it
 * travels inside the item, where it is read back as the item's own.
 */
export function wireNode(doc: KrmResource): YNode {
  const d = documentToNode(doc);
  const root = d.content[0];
  if (d.headComment !== "") {
    const first = root.kind === Kind.Mapping && (root.style & Style.Flow) === 0 ? root.content[0] : undefined;
    if (first) first.headComment = joinComment(d.headComment, first.headComment);
    else root.headComment = joinComment(d.headComment, root.headComment);
  }
  return root;
}

/** A ResourceList document node around the wire forms of its items and functionConfig. */
export function resourceList(items: YNode[], functionConfig: YNode | undefined): YNode {
  const root = new YNode(Kind.Mapping, "!!map");
  root.content.push(scalar("apiVersion"), scalar("config.kubernetes.io/v1"));
  root.content.push(scalar("kind"), scalar("ResourceList"));
  root.content.push(scalar("items"), new YNode(Kind.Sequence, "!!seq", "", items));
  if (functionConfig) root.content.push(scalar("functionConfig"), functionConfig);
  const doc = new YNode(Kind.Document);
  doc.content.push(root);
  return doc;
}

/** Writes a ResourceList for a function's stdin (block style, scalars as written, compact sequences). */
export function encodeResourceList(list: ResourceList): WireRequest {
  const sent = list.items.map(wireNode);
  const fc = list.functionConfig ? wireNode(list.functionConfig) : undefined;
  const text = emitDocument(resourceList(sent, fc), { compactSeq: true, indent: 2 });
  return { text, input: list, sent };
}

/** Serialises a ResourceList for a function's stdin (see `encodeResourceList`). */
export function serializeResourceList(list: ResourceList): string {
  return encodeResourceList(list).text;
}

const SEVERITIES: readonly string[] = ["error", "warning", "warn", "info"];

/** A result as a function wrote it, or undefined when it is not a mapping. */
export function toResult(value: unknown): FunctionResult | undefined {
  if (!value || typeof value !== "object") return undefined;
  const v = value as Record<string, unknown>;
  const result: FunctionResult = {
    message: typeof v.message === "string" ? v.message : String(v.message ?? ""),
  };
  if (typeof v.severity === "string" && SEVERITIES.includes(v.severity)) {
    result.severity = v.severity as ResultSeverity;
  }
  if (v.resourceRef && typeof v.resourceRef === "object") {
    result.resourceRef = v.resourceRef as FunctionResult["resourceRef"];
  }
  if (v.field && typeof v.field === "object") result.field = v.field as FunctionResult["field"];
  if (v.file && typeof v.file === "object") result.file = v.file as FunctionResult["file"];
  if (v.tags && typeof v.tags === "object") result.tags = v.tags as Record<string, string>;
  return result;
}

/** Most nodes the aliases of one ResourceList may expand to (a "billion laughs" output is refused). */
const MAX_ALIAS_EXPANSION = 200_000;

/** The root mapping of a function's stdout. @throws Error describing what is wrong. */
export function readRoot(text: string): YNode {
  let docs: YNode[];
  try {
    // One document as functions write it: the fast reader, or the full parser where it is unsure.
    docs = fastReadDocument(text) ?? parseStream(text);
    const first = docs[0]?.content[0];
    if (first) expandAliases(first, MAX_ALIAS_EXPANSION);
  } catch (err) {
    if (err instanceof YamlError) throw new Error(`invalid YAML: ${err.problem}`);
    throw err;
  }
  const root = docs[0]?.content[0];
  if (!root || root.kind !== Kind.Mapping)
    throw new Error("output is not a ResourceList (expected a YAML mapping)");
  const kind = mapGet(root, "kind");
  const value = kind && kind.kind === Kind.Scalar ? kind.value : "";
  if (value !== "ResourceList")
    throw new Error(`output has kind ${JSON.stringify(value)}, expected ResourceList`);
  return root;
}

/** An item's node as a document of its own (what a function's item becomes in the package). */
export function itemDocument(node: YNode): KrmResource {
  const d = new YNode(Kind.Document);
  d.content.push(node);
  return nodeToDocument(d);
}

/** The value of one annotation on an item's nodes, or undefined. */
export function nodeAnnotation(item: YNode, key: string): string | undefined {
  const meta = mapGet(item, "metadata");
  const annotations = meta && meta.kind === Kind.Mapping ? mapGet(meta, "annotations") : undefined;
  const v = annotations && annotations.kind === Kind.Mapping ? mapGet(annotations, key) : undefined;
  return v && v.kind === Kind.Scalar ? v.value : undefined;
}

function idOf(doc: KrmResource): string | undefined {
  return getAnnotation(doc, RESOURCE_ID) ?? getAnnotation(doc, LEGACY_RESOURCE_ID);
}

/**
 * Reads a function's stdout into a ResourceList. With the request it answers, each output item that
 * carries the id of an input item is that input document when its nodes are the ones sent; otherwise
 * it gets the input's comments where it has none and its field order (kyaml's `CopyComments` and
 * `SyncOrder`), and is still the input document when that makes it equal to what was sent — so its
 * `---` marker, blank lines and scalar text survive and `exec: cat` leaves every file as it was.
 * Aliases are resolved (items become separate documents). @throws Error describing what is wrong
 * when stdout is not a ResourceList.
 */
export function decodeResourceList(text: string, request?: WireRequest): ResourceList {
  if (request && text === request.text) {
    return { items: [...request.input.items], functionConfig: request.input.functionConfig, results: [] };
  }
  const root = readRoot(text);
  const byId = new Map<string, number>();
  if (request) {
    request.input.items.forEach((item, i) => {
      const id = idOf(item);
      if (id !== undefined) byId.set(id, i);
    });
  }
  const items: KrmResource[] = [];
  const itemsNode = mapGet(root, "items");
  if (itemsNode && itemsNode.kind === Kind.Sequence) {
    for (const node of itemsNode.content) {
      if (node.kind !== Kind.Mapping) continue;
      const id = nodeAnnotation(node, RESOURCE_ID) ?? nodeAnnotation(node, LEGACY_RESOURCE_ID);
      const at = id === undefined ? undefined : byId.get(id);
      if (request === undefined || at === undefined) {
        items.push(itemDocument(node));
        continue;
      }
      const source = request.input.items[at];
      const sent = request.sent[at];
      if (sameNode(node, sent)) {
        items.push(source);
        continue;
      }
      const item = itemDocument(node);
      copyComments(source, item);
      syncFieldOrder(source, item);
      items.push(sameNode(wireNode(item), sent) ? source : item);
    }
  }
  const list: ResourceList = { items, results: [] };
  const fc = mapGet(root, "functionConfig");
  if (fc && fc.kind === Kind.Mapping) list.functionConfig = itemDocument(fc);
  const results = mapGet(root, "results");
  if (results && results.kind === Kind.Sequence) {
    for (const r of results.content) {
      const parsed = toResult(plainValue(r));
      if (parsed) list.results.push(parsed);
    }
  }
  return list;
}

/** Parses a function's stdout into a ResourceList on its own (see `decodeResourceList`). */
export function parseResourceList(text: string): ResourceList {
  return decodeResourceList(text);
}
