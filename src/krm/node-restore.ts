/**
 * kyaml's `comments.CopyComments` and `order.SyncOrder` (what kpt's FunctionFilter applies to every
 * resource a function returns) on our YAML layer's document nodes: the comments of the input
 * resource are copied where the output has none, the input's field order is put back. The result is
 * exactly the one of the Document forms (./comments.ts, ./field-order.ts) on `nodeToDocument` of the
 * same nodes, written back: the same bytes. The input is read through its shape — the very
 * `DocumentShape` that `documentShape(nodeToDocument(input))` gives (./resource-shape.ts), taken from
 * the nodes without making the Document — so a function may edit the input nodes themselves.
 */
import { documentToNode } from "../yaml/from-document.js";
import { goComment, joinComments } from "../yaml/from-document-scalar.js";
import { Kind, Style, type YNode } from "../yaml/node.js";
import { nodeToDocument, scalarValue } from "../yaml/to-document.js";
import { copyComments } from "./comments.js";
import { syncFieldOrder } from "./field-order.js";
import { BARE, type DocumentShape, documentShape, type Shape, ShapeKind } from "./resource-shape.js";

/** A value below a map or list that is not a collection: nothing to keep of it. */
const LEAF = -1;

/**
 * A comment-free input's key order, flat: a map is its pair count then, per pair, the key's text
 * (null for a key that is not a scalar) and the tape position of the value's entry (LEAF for a
 * scalar); a list is `-1 - items` then each item's position.
 */
type Tape = (string | number | null)[];

/**
 * What must be remembered of an input document before a function may edit it in place (opaque).
 * A comment-free document (the common case) keeps its key order only, on a tape; a document with
 * comments keeps the `DocumentShape` (./resource-shape.ts) of `nodeToDocument(doc)`: comments where
 * the `yaml` package holds them, keys as kyaml's SyncOrder reads them, list items' names and texts
 * as its CopyComments matches them.
 */
export class NodeShape {
  /** @param tape the key order (see `Tape`), @param document the Document shape, one of them. */
  constructor(
    readonly tape: Tape | undefined,
    readonly document: DocumentShape | undefined,
  ) {}
}

/** A scalar's text as `String(value)` of its Document scalar (a plain `0x1F` is "31"). */
function scalarText(n: YNode): string {
  if (n.style === 0) {
    const v = n.value;
    const c = v.charCodeAt(0);
    // to-document.ts's coreValue: only these first characters (or none) start a non-string; a
    // letter only null, true or false in one of three spellings.
    if (c === 110 || c === 78) {
      if (v.length !== 4 || !(v === "null" || v === "Null" || v === "NULL")) return v;
    } else if (c === 116 || c === 84) {
      if (v.length !== 4 || !(v === "true" || v === "True" || v === "TRUE")) return v;
    } else if (c === 102 || c === 70) {
      if (v.length !== 5 || !(v === "false" || v === "False" || v === "FALSE")) return v;
    } else if (!(c === 126 || c === 43 || c === 45 || c === 46 || (c >= 48 && c <= 57) || v.length === 0)) {
      return v;
    }
  }
  return String(scalarValue(n));
}

/** The text of a key as SyncOrder and CopyComments read it (`String` of a scalar's value), else null. */
function keyText(k: YNode): string | null {
  return k.kind === Kind.Scalar ? scalarText(k) : null;
}

/** Set when `record` meets a comment or a key that is not a scalar (then the Document shape is taken). */
let unusual = false;

/** Appends `n`'s entry to the tape; its position, or LEAF for a scalar or an alias. */
function record(n: YNode, tape: Tape): number {
  const kind = n.kind;
  if (kind === Kind.Mapping) {
    const c = n.content;
    const at = tape.length;
    tape.push(c.length >> 1);
    for (let i = 0; i < c.length; i += 2) {
      const k = c[i];
      if (k.kind !== Kind.Scalar || k.headComment !== "" || k.lineComment !== "" || k.footComment !== "")
        unusual = true;
      tape.push(keyText(k), LEAF);
    }
    if (n.headComment !== "" || n.lineComment !== "" || n.footComment !== "") unusual = true;
    for (let i = 1, slot = at + 2; i < c.length; i += 2, slot += 2) {
      const v = c[i];
      if (v.kind === Kind.Mapping || v.kind === Kind.Sequence) tape[slot] = record(v, tape);
      else if (v.headComment !== "" || v.lineComment !== "" || v.footComment !== "") unusual = true;
    }
    return at;
  }
  if (kind === Kind.Sequence) {
    const c = n.content;
    const at = tape.length;
    tape.push(-1 - c.length);
    for (let i = 0; i < c.length; i++) tape.push(LEAF);
    if (n.headComment !== "" || n.lineComment !== "" || n.footComment !== "") unusual = true;
    for (let i = 0; i < c.length; i++) {
      const v = c[i];
      if (v.kind === Kind.Mapping || v.kind === Kind.Sequence) tape[at + 1 + i] = record(v, tape);
      else if (v.headComment !== "" || v.lineComment !== "" || v.footComment !== "") unusual = true;
    }
    return at;
  }
  if (n.headComment !== "" || n.lineComment !== "" || n.footComment !== "") unusual = true;
  return LEAF;
}

/**
 * Records a document's key order on `tape` (from position 0: its root's entry, or LEAF alone);
 * whether the document was comment-free with scalar keys only (else the tape is incomplete).
 */
function recordDocument(doc: YNode, tape: Tape): boolean {
  unusual = doc.headComment !== "" || doc.lineComment !== "" || doc.footComment !== "";
  const root = doc.content[0];
  if (root === undefined || record(root, tape) === LEAF) tape[0] = LEAF;
  return !unusual;
}

/**
 * The shape of an input document (kind Document) before a function runs (see `NodeShape`; for a
 * comment-free document one array for the whole tree, nothing made per node). `doc` is not
 * modified and the shape shares nothing mutable with it.
 */
export function takeNodeShape(doc: YNode): NodeShape {
  const tape: Tape = [];
  if (recordDocument(doc, tape)) return new NodeShape(tape, undefined);
  return new NodeShape(undefined, documentShape(nodeToDocument(doc)));
}

/** The Document shape of a tape's entry (what `documentShape` gives a comment-free document). */
function tapeShape(tape: Tape, at: number): Shape {
  if (at === LEAF) return BARE;
  const head = tape[at] as number;
  if (head >= 0) {
    const keys: (string | undefined)[] = new Array(head);
    const values: Shape[] = new Array(head);
    for (let i = 0; i < head; i++) {
      keys[i] = (tape[at + 1 + 2 * i] as string | null) ?? undefined;
      values[i] = tapeShape(tape, tape[at + 2 + 2 * i] as number);
    }
    return {
      kind: ShapeKind.Map,
      commentBefore: undefined,
      comment: undefined,
      keys,
      texts: keys,
      keyComments: undefined,
      values,
      // Names matter to CopyComments only, which has nothing to copy from a comment-free input.
      name: undefined,
      commented: false,
    };
  }
  const items: Shape[] = new Array(-1 - head);
  for (let i = 0; i < items.length; i++) items[i] = tapeShape(tape, tape[at + 1 + i] as number);
  return { kind: ShapeKind.Seq, commentBefore: undefined, comment: undefined, items, commented: false };
}

/** The Document shape of a comment-free document from its tape. */
function tapeDocumentShape(tape: Tape): DocumentShape {
  return { commentBefore: null, comment: null, contents: tapeShape(tape, tape[0] as number) };
}

/** Set when a reorder would move comments the way only the Document form does. */
let needsDocument = false;

/** Whether a map's pairs can be reordered on the nodes with the Document form's result. */
function plainReorder(map: YNode): boolean {
  if (map.footComment !== "") return false;
  const c = map.content;
  if (c.length > 0 && c[0].headComment !== "") return false;
  for (let i = 0; i < c.length; i += 2) {
    if (c[i].footComment !== "") return false;
    const v = c[i + 1];
    // A comment below a list of collections heads the next key once written back (from-document.ts).
    if (v.kind === Kind.Sequence && (v.style & Style.Flow) === 0) {
      const last = v.content[v.content.length - 1];
      if (v.footComment !== "") return false;
      if (last && (last.kind === Kind.Mapping || last.kind === Kind.Sequence) && last.footComment !== "")
        return false;
    }
  }
  return true;
}

/** Whether the tape's map entry at `at` (`n` pairs) has distinct keys, all of them scalars. */
function distinctKeys(tape: Tape, at: number, n: number): boolean {
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const key = tape[at + 1 + 2 * i];
      if (key === null) return false;
      for (let j = 0; j < i; j++) if (tape[at + 1 + 2 * j] === key) return false;
    }
    return n === 0 || tape[at + 1] !== null;
  }
  const seen = new Set<string | number | null>();
  for (let i = 0; i < n; i++) seen.add(tape[at + 1 + 2 * i]);
  return seen.size === n && !seen.has(null);
}

/**
 * field-order.ts's `syncNode` from the tape entry at `at` onto `to` (a pair is a key and its value,
 * two entries of `content`).
 */
function syncNode(tape: Tape, at: number, to: YNode): void {
  const head = tape[at] as number;
  const c = to.content;
  if (head < 0) {
    if (to.kind !== Kind.Sequence) return;
    const n = Math.min(-1 - head, c.length);
    for (let i = 0; i < n; i++) {
      const entry = tape[at + 1 + i] as number;
      if (entry !== LEAF) syncNode(tape, entry, c[i]);
    }
    return;
  }
  if (to.kind !== Kind.Mapping) return;
  if (c.length === head * 2) {
    let same = true;
    for (let i = 0; i < head; i++) {
      const key = tape[at + 1 + 2 * i];
      if (key === null || keyText(c[2 * i]) !== key) {
        same = false;
        break;
      }
    }
    if (same && distinctKeys(tape, at, head)) {
      for (let i = 0; i < head; i++) {
        const entry = tape[at + 2 + 2 * i] as number;
        if (entry !== LEAF) syncNode(tape, entry, c[2 * i + 1]);
      }
      return;
    }
  }
  reorder(tape, at, to);
}

/** The pairs of `to` in the order of the tape's map entry at `at`, new ones last (SyncOrder). */
function reorder(tape: Tape, at: number, to: YNode): void {
  const c = to.content;
  // The first pair of each key (its key's position in `content`).
  const target = new Map<string, number>();
  for (let i = 0; i < c.length; i += 2) {
    const key = keyText(c[i]);
    if (key !== null && !target.has(key)) target.set(key, i);
  }
  const n = tape[at] as number;
  const ordered: number[] = [];
  const placed = new Set<number>();
  for (let i = 0; i < n; i++) {
    const key = tape[at + 1 + 2 * i] as string | null;
    const pos = key === null ? undefined : target.get(key);
    if (pos === undefined || placed.has(pos)) continue;
    ordered.push(pos);
    placed.add(pos);
    const entry = tape[at + 2 + 2 * i] as number;
    if (entry !== LEAF) syncNode(tape, entry, c[pos + 1]);
  }
  if (placed.size === 0) return;
  for (let i = 0; i < c.length; i += 2) if (!placed.has(i)) ordered.push(i);
  if (ordered.every((pos, i) => pos === i * 2)) return;
  if (!plainReorder(to)) {
    needsDocument = true;
    return;
  }
  const next: YNode[] = new Array(c.length);
  for (let i = 0; i < ordered.length; i++) {
    next[i * 2] = c[ordered[i]];
    next[i * 2 + 1] = c[ordered[i] + 1];
  }
  to.content = next;
}

/**
 * The Document forms on `nodeToDocument(out)`, written back into `out`: its content and comments
 * become `documentToNode`'s, with the document's trailing comment as `writeDocument` writes it.
 */
function restoreThroughDocument(shape: DocumentShape, out: YNode): void {
  const doc = nodeToDocument(out);
  copyComments(shape, doc);
  syncFieldOrder(shape, doc);
  const node = documentToNode(doc);
  out.content = node.content;
  out.headComment = node.headComment;
  out.lineComment = node.lineComment;
  out.footComment = "";
  const foot = doc.comment;
  if (!foot) return;
  // writeDocument: a blank line above the trailing comment only where it starts with one (what the
  // writer does with a document's foot comment), else right below the content.
  if (foot.startsWith("\n")) {
    out.footComment = goComment(foot);
    return;
  }
  const root = node.content[0];
  const c = root.content;
  const last =
    (root.style & Style.Flow) !== 0 || c.length === 0
      ? root
      : root.kind === Kind.Mapping
        ? c[c.length - 2]
        : c[c.length - 1];
  last.footComment = joinComments(last.footComment, goComment(foot));
}

/**
 * kyaml's CopyComments then SyncOrder from an input's shape (`takeNodeShape`, taken before the
 * function ran) onto the function's output document node `out` (kind Document), in place: the
 * result is written exactly as `writeDocument` writes `copyComments(s, d)` then
 * `syncFieldOrder(s, d)` on `d = nodeToDocument(out)`, `s` the input's `documentShape`. Nodes keep
 * their identity where the input had no comments and no comment of `out` moves as only the Document
 * form moves it; otherwise `out`'s content is rebuilt through the Document forms.
 */
export function restoreNodeShape(shape: NodeShape, out: YNode): void {
  if (shape.tape === undefined) {
    restoreThroughDocument(shape.document!, out);
    return;
  }
  syncTape(shape.tape, out);
}

/** SyncOrder from a comment-free input's tape (CopyComments has nothing to copy). */
function syncTape(tape: Tape, out: YNode): void {
  const root = out.content[0];
  if (root === undefined || tape[0] === LEAF) return;
  needsDocument = false;
  syncNode(tape, 0, root);
  if (needsDocument) restoreThroughDocument(tapeDocumentShape(tape), out);
}

/** A tape used again by every `restoreFromNode` (its input's order is not kept after the call). */
const scratch: Tape = [];

/**
 * `restoreNodeShape(takeNodeShape(input), out)`, for a runtime that kept its input untouched (an
 * exec function's input is written to the process, not edited): the input node is its own shape,
 * and nothing is kept of it after the call. `input` is not modified.
 */
export function restoreFromNode(input: YNode, out: YNode): void {
  scratch.length = 0;
  if (recordDocument(input, scratch)) syncTape(scratch, out);
  else restoreThroughDocument(documentShape(nodeToDocument(input)), out);
}
