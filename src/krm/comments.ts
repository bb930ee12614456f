/**
 * kyaml's `comments.CopyComments`, which kpt's function runner applies to every resource a function
 * returns: comments of the input resource are copied onto the output wherever the output has none,
 * so a function that drops comments (or an exec function that cannot keep them) does not lose them.
 * Nodes are matched by field path: map fields by key (a field's comments whatever its new value, as
 * kyaml's walker does), list items of maps by their `name` or else by position, scalar list items
 * by position when the value is unchanged. A comment is never copied where the output already has
 * one, so copying twice changes nothing. The input is read through its shape (./resource-shape.ts),
 * which may be taken before a function edits the resource itself.
 */
import { type Document, isDocument, isMap, isNode, isScalar, isSeq, type Node } from "yaml";
import {
  commentBeforeOf,
  commentOf,
  type DocumentShape,
  documentShape,
  isCommented,
  isMapShape,
  isScalarShape,
  isSeqShape,
  keyPosition,
  type Shape,
  scalarText,
} from "./resource-shape.js";

/**
 * Copies comments from `from` (a document, or the shape of one taken earlier) onto `to` where `to`
 * has none (fields matched by key, items by name or position).
 */
export function copyComments(from: Document | DocumentShape, to: Document): void {
  const source = isDocument(from) ? documentShape(from) : from;
  const hasLeading = leadingComment(to.contents) !== undefined || Boolean(to.commentBefore);
  if (!hasLeading && source.commentBefore) to.commentBefore = source.commentBefore;
  if (!to.comment && source.comment) to.comment = source.comment;
  copyNode(source.contents, to.contents, hasLeading);
}

/** The comment before a node or, for a collection, before its first item (where parsers may put it). */
function leadingComment(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.commentBefore) return node.commentBefore;
  if (isMap(node)) {
    const first = node.items[0];
    if (first && isNode(first.key) && first.key.commentBefore) return first.key.commentBefore;
  }
  if (isSeq(node)) return leadingComment(node.items[0]);
  return undefined;
}

function copyNode(from: Shape | undefined, to: unknown, skipLeading = false): void {
  // Only comments are copied: a part of the input without any has nothing to give.
  if (!isCommented(from) || !isNode(to)) return;
  const comment = commentOf(from);
  if (!skipLeading && leadingComment(to) === undefined) copyOwn(commentBeforeOf(from), comment, to);
  else if (!to.comment && comment && !isScalar(to)) to.comment = comment;
  if (isMapShape(from) && isMap(to)) {
    to.items.forEach((toPair, i) => {
      const key = keyText(toPair.key);
      if (key === undefined) return;
      const at = keyPosition(from, key);
      if (at < 0) return;
      const keyComments = from.keyComments?.[at];
      if (keyComments && isNode(toPair.key) && !(skipLeading && i === 0))
        copyOwn(keyComments.commentBefore, keyComments.comment, toPair.key);
      copyNode(from.values[at], toPair.value);
    });
  } else if (isSeqShape(from) && isSeq(to)) {
    const items = from.items;
    to.items.forEach((toItem, i) => {
      const name = itemName(toItem);
      const fromItem = name !== undefined ? items.find((f) => isMapShape(f) && f.name === name) : items[i];
      // A scalar item keeps its comments only where its value is unchanged (kyaml's VisitList).
      if (isScalar(toItem) && !(isScalarShape(fromItem) && scalarText(fromItem) === String(toItem.value)))
        return;
      copyNode(fromItem, toItem);
    });
  }
}

function copyOwn(
  commentBefore: string | null | undefined,
  comment: string | null | undefined,
  to: Node,
): void {
  if (!to.commentBefore && commentBefore) to.commentBefore = commentBefore;
  if (!to.comment && comment) to.comment = comment;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  if (typeof key === "string") return key;
  return undefined;
}

function itemName(item: unknown): string | undefined {
  if (isMap(item)) {
    const name = item.get("name", true);
    if (isScalar(name)) return String(name.value);
    return undefined;
  }
  return undefined;
}
