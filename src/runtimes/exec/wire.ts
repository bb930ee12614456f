/**
 * The KRM function wire format (kpt function spec): a `config.kubernetes.io/v1` `ResourceList` as one
 * YAML document on stdin/stdout. Items keep their comments on the way in and out.
 */
import {
  type Alias,
  Document,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  type Node,
  Pair,
  parseDocument,
  Scalar,
  type Schema,
  type SchemaOptions,
  visit,
  YAMLMap,
  YAMLSeq,
} from "yaml";
import { getAnnotation, LEGACY_RESOURCE_ID, RESOURCE_ID } from "../../krm/annotations.js";
import { copyComments } from "../../krm/comments.js";
import { syncFieldOrder } from "../../krm/field-order.js";
import type { FunctionResult, KrmResource, ResourceList, ResultSeverity } from "../../krm/resource-list.js";
import { keepScalarText, restoreKeyLineComments, restoreOuterComments } from "../../krm/yaml-io.js";

/** Explicitly tagged !!binary / !!timestamp values (Buffer, Date) need their tags to be written. */
const WITH_TAGS: SchemaOptions = { customTags: ["binary", "timestamp"] };

/**
 * An item's content for the wire, its leading comments on its first key: a comment written above an
 * item's `- ` would be read back as the previous item's (after a trailing null value, `data:`), so it
 * travels inside the item, where it is read back as the item's own.
 */
function contentsWithComments(doc: KrmResource): Node | null {
  const clone = doc.clone();
  const contents = clone.contents as Node | null;
  const leading = [clone.commentBefore, contents?.commentBefore]
    .map((c) => c?.replace(/\n+$/, ""))
    .filter((c): c is string => !!c);
  if (!contents || leading.length === 0) return contents;
  const first = isMap(contents) ? contents.items[0] : undefined;
  if (first && isNode(first.key)) {
    if (first.key.commentBefore) leading.push(first.key.commentBefore);
    first.key.commentBefore = leading.join("\n");
    contents.commentBefore = null;
  } else {
    contents.commentBefore = leading.join("\n");
  }
  return contents;
}

/** Serialises a ResourceList for a function's stdin (YAML, block style, scalars as written). */
export function serializeResourceList(list: ResourceList): string {
  const out = new Document({ apiVersion: "config.kubernetes.io/v1", kind: "ResourceList" }, WITH_TAGS);
  const items = new YAMLSeq();
  for (const doc of list.items) items.items.push(contentsWithComments(doc));
  out.set("items", items);
  if (list.functionConfig) out.set("functionConfig", contentsWithComments(list.functionConfig));
  // Numbers go out as they were written (kpt hands a function its nodes' text, never a re-printed double).
  keepScalarText(out);
  return out.toString({ lineWidth: 0 });
}

const SEVERITIES: readonly string[] = ["error", "warning", "warn", "info"];

function toResult(value: unknown): FunctionResult | undefined {
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

/**
 * A copy of a node that shares its children (what `clone` does without the deep copy, and much faster
 * than copying property descriptors).
 */
function shallowCopy(node: Scalar | YAMLMap | YAMLSeq): Scalar | YAMLMap | YAMLSeq {
  const schema = (node as { schema?: Schema }).schema;
  const out = isScalar(node)
    ? new Scalar(node.value)
    : isMap(node)
      ? new YAMLMap(schema)
      : new YAMLSeq(schema);
  return Object.assign(out, node);
}

/**
 * Replaces every alias of a ResourceList by a copy of its anchored node and drops the anchors: the
 * list is one YAML document (PyYAML writes `&id001` / `*id001` whenever a script reuses a dict), while
 * its items become separate documents, where an alias to another item's anchor means nothing.
 * @throws Error when an alias has no anchor, sits inside the node it refers to, or the copies would
 * exceed `MAX_ALIAS_EXPANSION` nodes.
 */
function resolveAliases(doc: Document): void {
  // An alias refers to the closest anchor of its name before it (an anchor may be redefined).
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (!target) throw new Error(`invalid YAML: unknown anchor for alias *${node.source}`);
        targets.set(node, target);
      } else if (node.anchor) anchors.set(node.anchor, node);
    },
  });
  if (anchors.size === 0) return;
  let copied = 0;
  const inProgress = new Set<Node>();
  const copy = (node: unknown): unknown => {
    if (!isNode(node)) return node;
    if (++copied > MAX_ALIAS_EXPANSION) {
      throw new Error(`invalid YAML: its aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes`);
    }
    if (isAlias(node)) {
      const target = targets.get(node);
      if (!target) throw new Error(`invalid YAML: unknown anchor for alias *${node.source}`);
      if (inProgress.has(target)) throw new Error(`invalid YAML: alias *${node.source} is inside its anchor`);
      inProgress.add(target);
      const out = copy(target);
      inProgress.delete(target);
      return out;
    }
    const out = shallowCopy(node);
    out.anchor = undefined;
    if (isMap(node)) {
      (out as YAMLMap).items = node.items.map((pair) =>
        Object.assign(new Pair(null), pair, { key: copy(pair.key), value: copy(pair.value) }),
      );
    } else if (isSeq(node)) {
      (out as YAMLSeq).items = node.items.map(copy);
    }
    return out;
  };
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) return copy(node) as Node;
      node.anchor = undefined;
    },
  });
}

/**
 * Parses a function's stdout into a ResourceList. Each item becomes its own Document (comments
 * kept); aliases are resolved first. @throws Error describing what is wrong when stdout is not a
 * ResourceList.
 */
export function parseResourceList(text: string): ResourceList {
  const doc = parseDocument(text, { keepSourceTokens: false });
  if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0].message}`);
  resolveAliases(doc);
  // Comments on `key:` lines of collections sit on the key, as when the package was read.
  restoreKeyLineComments(doc, text);
  if (text.includes("#")) restoreOuterComments(doc.contents, text);
  const root = doc.contents;
  if (!isMap(root)) throw new Error("output is not a ResourceList (expected a YAML mapping)");
  const kindNode = root.get("kind", true);
  const kind: unknown = isScalar(kindNode) ? kindNode.value : undefined;
  if (kind !== "ResourceList")
    throw new Error(`output has kind ${JSON.stringify(kind ?? "")}, expected ResourceList`);
  const itemsNode = root.get("items", true);
  const items: KrmResource[] = [];
  if (isSeq(itemsNode)) {
    for (const node of itemsNode.items) {
      if (!isMap(node)) continue;
      const item = new Document(undefined, WITH_TAGS);
      item.contents = node;
      items.push(item);
    }
  }
  const list: ResourceList = { items, results: [] };
  const fc = root.get("functionConfig", true);
  if (isMap(fc)) {
    const fcDoc = new Document(undefined, WITH_TAGS);
    fcDoc.contents = fc;
    list.functionConfig = fcDoc;
  }
  const results = root.get("results", true);
  if (isSeq(results)) {
    for (const r of results.toJSON() as unknown[]) {
      const parsed = toResult(r);
      if (parsed) list.results.push(parsed);
    }
  }
  return list;
}

/**
 * A document's content and comments, without what the wire format cannot carry: the `---` marker,
 * blank lines, and where the \`yaml\` package attaches a comment that heads the document.
 */
function canonicalText(doc: Document): string {
  const copy = doc.clone();
  if (copy.directives) copy.directives.docStart = null;
  const contents = copy.contents;
  if (copy.commentBefore && isNode(contents)) {
    contents.commentBefore = contents.commentBefore
      ? `${copy.commentBefore}\n${contents.commentBefore}`
      : copy.commentBefore;
    copy.commentBefore = null;
  }
  const squeeze = (comment: string) =>
    comment
      .split("\n")
      .filter((line) => line.trim() !== "")
      .join("\n");
  visit(copy, {
    Node(_key, node) {
      node.spaceBefore = false;
      if (node.commentBefore) node.commentBefore = squeeze(node.commentBefore);
    },
    Pair(_key, pair) {
      if (isNode(pair.key)) {
        pair.key.spaceBefore = false;
        if (pair.key.commentBefore) pair.key.commentBefore = squeeze(pair.key.commentBefore);
      }
    },
  });
  return copy.toString({ lineWidth: 0 });
}

function idOf(doc: KrmResource): string | undefined {
  return getAnnotation(doc, RESOURCE_ID) ?? getAnnotation(doc, LEGACY_RESOURCE_ID);
}

/**
 * Undoes what the trip through a process's stdin and stdout does to resources: each output item
 * that carries the id of an input item gets that item's comments where it has none and its field
 * order (kyaml's `CopyComments` and `SyncOrder`); an item that then equals its input in content
 * and comments is replaced by the input document itself, so its `---` marker, blank lines and
 * scalar text survive and `exec: cat` leaves every file as it was. Mutates `output.items`.
 */
export function restoreInputFormatting(input: ResourceList, output: ResourceList): void {
  const byId = new Map<string, KrmResource>();
  for (const item of input.items) {
    const id = idOf(item);
    if (id !== undefined) byId.set(id, item);
  }
  output.items = output.items.map((item) => {
    const id = idOf(item);
    const source = id === undefined ? undefined : byId.get(id);
    if (!source) return item;
    copyComments(source, item);
    syncFieldOrder(source, item);
    return canonicalText(item) === canonicalText(source) ? source : item;
  });
}
