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
import type { FunctionResult, NodeResourceList } from "../../krm/resource-list.js";
import { plainValue, sameNode } from "../../yaml/compare.js";
import { documentToNode } from "../../yaml/from-document.js";
import { emitDocument, Kind, mapGet, Style, YNode } from "../../yaml/index.js";
import { nodeToDocument } from "../../yaml/to-document.js";
import {
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
  const out = new YNode(n.kind, n.tag, n.value, n.content);
  out.style = n.style;
  out.anchor = n.anchor;
  out.alias = n.alias;
  out.headComment = n.headComment;
  out.lineComment = n.lineComment;
  out.footComment = n.footComment;
  out.line = n.line;
  out.column = n.column;
  return out;
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

/**
 * Reads a function's stdout into a node ResourceList (the contract of `decodeResourceList`): with
 * the request it answers, an output item with an input item's id that the function handed back
 * unchanged is that input node itself; every other item is a document node of its own (comments and
 * field order are the engine's to restore). Aliases are resolved. @throws Error describing what is
 * wrong when stdout is not a ResourceList.
 */
export function decodeNodeResourceList(text: string, request?: NodeWireRequest): NodeResourceList {
  if (request && text === request.text) {
    return { items: [...request.input.items], functionConfig: request.input.functionConfig, results: [] };
  }
  const root = readRoot(text);
  const byId = new Map<string, number>();
  request?.input.items.forEach((item, i) => {
    const at = item.content[0];
    const id = at && (nodeAnnotation(at, RESOURCE_ID) ?? nodeAnnotation(at, LEGACY_RESOURCE_ID));
    if (id !== undefined) byId.set(id, i);
  });
  const items: YNode[] = [];
  const itemsNode = mapGet(root, "items");
  if (itemsNode && itemsNode.kind === Kind.Sequence) {
    const written = request?.spans;
    const spans = written ? outputSpans(text, root, itemsNode) : undefined;
    itemsNode.content.forEach((node, j) => {
      if (node.kind !== Kind.Mapping) return;
      const id = nodeAnnotation(node, RESOURCE_ID) ?? nodeAnnotation(node, LEGACY_RESOURCE_ID);
      const at = id === undefined ? undefined : byId.get(id);
      if (request === undefined || at === undefined) {
        items.push(documentOf(node));
        return;
      }
      let sameText = false;
      if (written && spans) {
        const start = spans[j];
        const length = spans[j + 1] - start;
        const from = written[at];
        sameText =
          written[at + 1] - from === length &&
          text.startsWith(request.text.slice(from, from + length), start) &&
          !endsInComment(text, start, start + length);
      }
      items.push(answerItem(node, at, request, sameText));
    });
  }
  const list: NodeResourceList = { items, results: resultsOf(root) };
  const fc = mapGet(root, "functionConfig");
  if (fc && fc.kind === Kind.Mapping) list.functionConfig = itemDocument(fc);
  return list;
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
