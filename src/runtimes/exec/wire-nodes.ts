/**
 * The KRM function wire (./wire.ts) on node items: the ResourceList text is written straight from
 * the items' document nodes (the functionConfig Document is converted once), the function's stdout
 * is read by the fast reader first, and items come back as document nodes. An output item whose
 * text is byte for byte what was written for an input item is that input node itself, decided by
 * comparing the two texts — each item is printed once, on the way out, and never again.
 */

import { LEGACY_RESOURCE_ID, RESOURCE_ID } from "../../krm/annotations.js";
import { copyComments } from "../../krm/comments.js";
import { syncFieldOrder } from "../../krm/field-order.js";
import type { FunctionResult, NodeResourceList, ResourceList } from "../../krm/resource-list.js";
import { plainValue, sameNode } from "../../yaml/compare.js";
import { documentToNode } from "../../yaml/from-document.js";
import { emitDocument, Kind, mapGet, Style, YNode } from "../../yaml/index.js";
import { nodeToDocument } from "../../yaml/to-document.js";
import {
  decodeResourceList,
  encodeResourceList,
  itemDocument,
  joinComment,
  nodeAnnotation,
  readRoot,
  resourceList,
  toResult,
  wireNode,
} from "./wire.js";

/**
 * A node ResourceList as sent to a function: its text, each item's wire node (the root mapping,
 * the document's head comment on its first key) and where each item's text lies in `text`.
 */
export interface NodeWireRequest {
  text: string;
  input: NodeResourceList;
  /** Each input item's node as written (index as in `input.items`); shares the items' nodes. */
  sent: YNode[];
  /**
   * Item `i`'s text is `text.slice(spans[i], spans[i + 1])`: from its `- ` line to the next item's
   * (or the end of the list). Undefined when the text could not be split so (then nodes decide).
   */
  spans?: number[];
}

/** A shallow copy of a node (children shared). */
function shallow(n: YNode): YNode {
  return Object.assign(new YNode(n.kind), n);
}

/**
 * An item's content for the wire (./wire.ts `wireNode` on the item's Document form), without
 * touching the item: the document's head comment goes on the first key of a block mapping (else on
 * the root), on copies of the root and that key; with no head comment the root itself.
 */
function wireRoot(doc: YNode): YNode {
  const root = doc.content[0] ?? new YNode(Kind.Scalar, "!!null", "");
  if (doc.headComment === "") return root;
  const copy = shallow(root);
  const first = root.kind === Kind.Mapping && (root.style & Style.Flow) === 0 ? root.content[0] : undefined;
  if (first) {
    const key = shallow(first);
    // The blank line that split the two comments on reading stays (as the Document form keeps it).
    key.headComment =
      first.headComment === "" ? doc.headComment : `${doc.headComment}\n\n${first.headComment}`;
    copy.content = [key, ...root.content.slice(1)];
  } else copy.headComment = joinComment(doc.headComment, root.headComment);
  return copy;
}

/** Whether `text` has a `-` entry indicator at `at` (a line start): `- `, or `-` ending the line or text. */
function entryAt(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 45) return false;
  const next = text.charCodeAt(at + 1);
  return Number.isNaN(next) || next === 32 || next === 10;
}

/**
 * The start of each item's text in what we wrote, and the end of the last: the lines that begin
 * with `- ` between `items:` and `functionConfig:` (our writer indents everything inside an item and
 * writes only comments at column 0). Undefined when the count does not match.
 */
function writtenSpans(text: string, count: number, hasConfig: boolean): number[] | undefined {
  const head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n";
  if (count === 0 || !text.startsWith(head)) return undefined;
  const end = hasConfig ? text.lastIndexOf("\nfunctionConfig:") + 1 : text.length;
  if (end <= 0) return undefined;
  const spans: number[] = [];
  for (let at = head.length; at < end; ) {
    if (entryAt(text, at)) spans.push(at);
    const nl = text.indexOf("\n", at);
    if (nl < 0) break;
    at = nl + 1;
  }
  if (spans.length !== count) return undefined;
  spans.push(end);
  return spans;
}

/** Writes a node ResourceList for a function's stdin (the bytes `encodeResourceList` writes). */
export function encodeNodeResourceList(list: NodeResourceList): NodeWireRequest {
  const sent = list.items.map(wireRoot);
  const fc = list.functionConfig ? wireNode(list.functionConfig) : undefined;
  const text = emitDocument(resourceList(sent, fc), { compactSeq: true, indent: 2 });
  const spans = writtenSpans(text, sent.length, fc !== undefined);
  return spans ? { text, input: list, sent, spans } : { text, input: list, sent };
}

/**
 * The output items' texts: for each entry of the `items` sequence, its start in `text` (the line of
 * its `- `), and the end of the last (the line of the key after `items`, or the end). Undefined
 * unless `items` is a block sequence at column 0 whose every entry starts on its own `- ` line.
 */
function outputSpans(text: string, root: YNode, items: YNode): number[] | undefined {
  if (items.kind !== Kind.Sequence || (items.style & Style.Flow) !== 0 || items.column !== 1)
    return undefined;
  const entries = items.content;
  if (entries.length === 0) return undefined;
  let endLine = Number.POSITIVE_INFINITY;
  const keys = root.content;
  for (let i = 1; i < keys.length; i += 2) {
    if (keys[i] === items) {
      if (i + 1 < keys.length) endLine = keys[i + 1].line;
      break;
    }
  }
  const spans: number[] = [];
  const lines: number[] = [];
  let end = text.length;
  for (let at = 0, line = 1; at < text.length; line++) {
    if (line >= endLine) {
      end = at;
      break;
    }
    if (line >= items.line && entryAt(text, at)) {
      spans.push(at);
      lines.push(line);
    }
    const nl = text.indexOf("\n", at);
    if (nl < 0) break;
    at = nl + 1;
  }
  if (spans.length !== entries.length) return undefined;
  for (let i = 0; i < entries.length; i++) {
    const line = entries[i].line;
    if (line < lines[i] || (i + 1 < lines.length && line >= lines[i + 1])) return undefined;
  }
  spans.push(end);
  return spans;
}

/**
 * Whether the text from `start` to `end` ends with a comment line (blank lines aside): a comment
 * there may be read as the next entry's or the list's, so equal texts need not mean equal items.
 */
function endsInComment(text: string, start: number, end: number): boolean {
  let at = end;
  while (at > start && (text.charCodeAt(at - 1) === 10 || text.charCodeAt(at - 1) === 32)) at--;
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  let i = Math.max(lineStart, start);
  while (i < at && text.charCodeAt(i) === 32) i++;
  return text.charCodeAt(i) === 35;
}

/**
 * Whether restoring comments and field order (kyaml's CopyComments, SyncOrder: they add comments and
 * reorder mapping fields, nothing else) could make `out` equal `sent`: the same kinds, scalar values,
 * list lengths and mapping keys. False means the output item is changed whatever is restored.
 */
function restorable(out: YNode, sent: YNode): boolean {
  if (out.kind !== sent.kind || out.value !== sent.value) return false;
  const x = out.content;
  const y = sent.content;
  if (x.length !== y.length) return false;
  if (out.kind !== Kind.Mapping) {
    for (let i = 0; i < x.length; i++) if (!restorable(x[i], y[i])) return false;
    return true;
  }
  for (let i = 0; i < x.length; i += 2) {
    const key = x[i];
    const same = (k: YNode) => k.kind === key.kind && k.value === key.value;
    let j = same(y[i]) ? i : 0;
    while (j < y.length && !same(y[j])) j += 2;
    if (j >= y.length || !restorable(x[i + 1], y[j + 1])) return false;
  }
  return true;
}

function documentOf(root: YNode): YNode {
  const doc = new YNode(Kind.Document);
  doc.content.push(root);
  return doc;
}

/**
 * One output item carrying input item `at`'s id: that input node when the function handed it back
 * unchanged — its text is the text written for it, or its nodes are the ones sent, or it differs
 * only by what restoring the input's comments and field order puts back (as `decodeResourceList`
 * decides) — else the output item as a document node of its own.
 */
function answerItem(node: YNode, at: number, request: NodeWireRequest, sameText: boolean): YNode {
  const source = request.input.items[at];
  const sent = request.sent[at];
  if ((sameText && node.headComment === sent.headComment) || sameNode(node, sent)) return source;
  if (!restorable(node, sent)) return documentOf(node);
  const item = itemDocument(node);
  const input = nodeToDocument(source);
  copyComments(input, item);
  syncFieldOrder(input, item);
  return sameNode(wireNode(item), sent) ? source : documentToNode(item);
}

/** The ids of the input items: each id's item, and each item's id when that id names it. */
interface InputIds {
  byId: Map<string, number>;
  /** Item `k`'s id when `byId` maps it back to `k` (the item an output with that id answers). */
  own: (string | undefined)[];
}

function inputIds(request: NodeWireRequest | undefined): InputIds {
  const byId = new Map<string, number>();
  const ids: (string | undefined)[] = [];
  request?.input.items.forEach((item, i) => {
    const at = item.content[0];
    const id = at && (nodeAnnotation(at, RESOURCE_ID) ?? nodeAnnotation(at, LEGACY_RESOURCE_ID));
    ids.push(id);
    if (id !== undefined) byId.set(id, i);
  });
  return { byId, own: ids.map((id, i) => (id !== undefined && byId.get(id) === i ? id : undefined)) };
}

/** An anchor or alias as our writer writes one: `&` or `*` opening a token. */
const ANCHOR_OR_ALIAS = /(?:^|[\s,[{])[&*][^\s,[\]{}]/;

/**
 * Whether the text written for input item `k` can stand for it where an output item has the same
 * text: it holds no anchor or alias (the output's are expanded, so run reads such an item as new)
 * and does not end in a comment line.
 */
function plainWritten(request: NodeWireRequest, spans: number[], k: number): boolean {
  const from = spans[k];
  const to = spans[k + 1];
  return !ANCHOR_OR_ALIAS.test(request.text.slice(from, to)) && !endsInComment(request.text, from, to);
}

/** One output item read from its nodes (`answerItem` when it carries an input item's id). */
function readItem(node: YNode, request: NodeWireRequest | undefined, ids: InputIds, sameText: boolean) {
  const id = nodeAnnotation(node, RESOURCE_ID) ?? nodeAnnotation(node, LEGACY_RESOURCE_ID);
  const at = id === undefined ? undefined : ids.byId.get(id);
  if (request === undefined || at === undefined) return documentOf(node);
  return answerItem(node, at, request, sameText);
}

/** What stands for an unchanged item in the text read (one line, a mapping no function writes). */
const PLACEHOLDER = "- _: _\n";

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

function isPlaceholder(n: YNode): boolean {
  const [k, v] = n.content;
  return (
    n.kind === Kind.Mapping &&
    n.content.length === 2 &&
    k.value === "_" &&
    v.value === "_" &&
    n.headComment + n.lineComment + n.footComment + k.headComment + k.lineComment + v.lineComment === ""
  );
}

/**
 * The output read with its unchanged items set aside: each entry of `items` (a `- ` line at column 0
 * after the `items:` line, to the next) whose text is the text written for an input item (of its
 * own id, no anchors, no comment line at its end or just before it) is replaced by a one-line
 * placeholder, the rest is read, and each placeholder becomes that input node. Undefined when no
 * entry is unchanged, or the text read does not have exactly those entries on those lines (then the
 * whole output is read).
 */
function withUnchangedAside(
  text: string,
  request: NodeWireRequest,
  ids: InputIds,
): NodeResourceList | undefined {
  const written = request.spans;
  if (!written) return undefined;
  const head = text.startsWith("items:\n") ? 0 : text.indexOf("\nitems:\n") + 1;
  if (head < 0 || (head === 0 && !text.startsWith("items:\n")) || text.includes("\nitems:", head + 1))
    return undefined;
  const starts: number[] = [];
  let end = text.length;
  for (let at = head + "items:\n".length; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (entryAt(text, at)) starts.push(at);
    else if (c !== 35 && c !== 32 && c !== 10) {
      end = at;
      break;
    }
    const nl = text.indexOf("\n", at);
    if (nl < 0) break;
    at = nl + 1;
  }
  if (starts.length === 0) return undefined;
  starts.push(end);
  const count = request.input.items.length;
  const source = request.text;
  let byText: Map<string, number> | undefined;
  const sameAs = (k: number, s: number, length: number) =>
    k >= 0 &&
    k < count &&
    written[k + 1] - written[k] === length &&
    text.startsWith(source.slice(written[k], written[k] + length), s);
  /** The input item whose written text is `text.slice(s, e)`: the same place, the next, or any. */
  const unchangedAs = (j: number, s: number, e: number, last: number): number | undefined => {
    let k: number | undefined = sameAs(j, s, e - s) ? j : sameAs(last + 1, s, e - s) ? last + 1 : undefined;
    if (k === undefined) {
      if (!byText) {
        byText = new Map();
        for (let i = count - 1; i >= 0; i--) byText.set(source.slice(written[i], written[i + 1]), i);
      }
      k = byText.get(text.slice(s, e));
    }
    if (k === undefined || ids.own[k] === undefined || request.sent[k].headComment !== "") return undefined;
    return plainWritten(request, written, k) ? k : undefined;
  };
  const parts = [text.slice(0, starts[0])];
  let line = 1 + countLines(parts[0]);
  const lines: number[] = [];
  const kept: (number | undefined)[] = [];
  let afterComment = endsInComment(text, head, starts[0]);
  let last = -1;
  for (let j = 0; j + 1 < starts.length; j++) {
    const s = starts[j];
    const e = starts[j + 1];
    const comment = endsInComment(text, s, e);
    const k = afterComment || comment ? undefined : unchangedAs(j, s, e, last);
    lines.push(line);
    kept.push(k);
    if (k !== undefined) {
      parts.push(PLACEHOLDER);
      line++;
      last = k;
    } else {
      const part = text.slice(s, e);
      parts.push(part);
      line += countLines(part);
    }
    afterComment = comment;
  }
  if (kept.every((k) => k === undefined)) return undefined;
  parts.push(text.slice(end));
  let root: YNode;
  try {
    root = readRoot(parts.join(""));
  } catch {
    return undefined;
  }
  const itemsNode = mapGet(root, "items");
  if (!itemsNode || itemsNode.kind !== Kind.Sequence || itemsNode.content.length !== kept.length)
    return undefined;
  const entries = itemsNode.content;
  for (let j = 0; j < entries.length; j++) {
    const at = entries[j].line;
    if (at < lines[j] || (j + 1 < lines.length && at >= lines[j + 1])) return undefined;
    if (kept[j] !== undefined && !isPlaceholder(entries[j])) return undefined;
  }
  const items: YNode[] = [];
  entries.forEach((node, j) => {
    const k = kept[j];
    if (k !== undefined) items.push(request.input.items[k]);
    else if (node.kind === Kind.Mapping) items.push(readItem(node, request, ids, false));
  });
  return finish(root, items);
}

function finish(root: YNode, items: YNode[]): NodeResourceList {
  const list: NodeResourceList = { items, results: resultsOf(root) };
  const fc = mapGet(root, "functionConfig");
  if (fc && fc.kind === Kind.Mapping) list.functionConfig = itemDocument(fc);
  return list;
}

/**
 * Reads a function's stdout into a node ResourceList (the contract of `decodeResourceList`): with
 * the request it answers, an output item with an input item's id that the function handed back
 * unchanged is that input node itself; every other item is a document node of its own (comments and
 * field order are the engine's to restore). Items whose text is the text written for them are not
 * read at all (`withUnchangedAside`). Aliases are resolved. @throws Error describing what is wrong
 * when stdout is not a ResourceList.
 */
export function decodeNodeResourceList(text: string, request?: NodeWireRequest): NodeResourceList {
  if (request && text === request.text) {
    return { items: [...request.input.items], functionConfig: request.input.functionConfig, results: [] };
  }
  const ids = inputIds(request);
  const aside = request ? withUnchangedAside(text, request, ids) : undefined;
  if (aside) return aside;
  const root = readRoot(text);
  const items: YNode[] = [];
  const itemsNode = mapGet(root, "items");
  if (itemsNode && itemsNode.kind === Kind.Sequence) {
    const written = request?.spans;
    const spans = written ? outputSpans(text, root, itemsNode) : undefined;
    itemsNode.content.forEach((node, j) => {
      if (node.kind !== Kind.Mapping) return;
      let sameText = false;
      const id = nodeAnnotation(node, RESOURCE_ID) ?? nodeAnnotation(node, LEGACY_RESOURCE_ID);
      const at = id === undefined ? undefined : ids.byId.get(id);
      if (request && written && spans && at !== undefined) {
        const start = spans[j];
        const length = spans[j + 1] - start;
        const from = written[at];
        sameText =
          written[at + 1] - from === length &&
          text.startsWith(request.text.slice(from, from + length), start) &&
          plainWritten(request, written, at);
      }
      items.push(readItem(node, request, ids, sameText));
    });
  }
  return finish(root, items);
}

function resultsOf(root: YNode): FunctionResult[] {
  const results: FunctionResult[] = [];
  const node = mapGet(root, "results");
  if (node && node.kind === Kind.Sequence) {
    for (const r of node.content) {
      const parsed = toResult(plainValue(r));
      if (parsed) results.push(parsed);
    }
  }
  return results;
}

/** A ResourceList's text for a function, and how to read the function's answer to it. */
export interface Wire<L> {
  text: string;
  /** @throws Error when the answer is not a ResourceList (as `decodeResourceList`). */
  decode: (stdout: string) => L;
}

/** The Document wire (`run`): `encodeResourceList`, answered through `decodeResourceList`. */
export function documentWire(list: ResourceList): Wire<ResourceList> {
  const wire = encodeResourceList(list);
  return { text: wire.text, decode: (stdout) => decodeResourceList(stdout, wire) };
}

/** The node wire (`runNodes`): `encodeNodeResourceList`, answered through `decodeNodeResourceList`. */
export function nodeWire(list: NodeResourceList): Wire<NodeResourceList> {
  const wire = encodeNodeResourceList(list);
  return { text: wire.text, decode: (stdout) => decodeNodeResourceList(stdout, wire) };
}
