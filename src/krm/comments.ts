/**
 * kyaml's `comments.CopyComments`, which kpt's function runner applies to every resource a function
 * returns: comments of the input resource are copied onto the output wherever the output has none,
 * so a function that drops comments (or an exec function that cannot keep them) does not lose them.
 * Nodes are matched by field path: map fields by key (a field's comments whatever its new value, as
 * kyaml's walker does), list items of maps by their `name` or else by position, scalar list items
 * by position when the value is unchanged. A comment is never copied where the output already has
 * one, so copying twice changes nothing.
 */
import { type Document, isMap, isNode, isScalar, isSeq, type Node } from "yaml";

/** Copies comments from `from` onto `to` where `to` has none (fields matched by key, items by name or position). */
export function copyComments(from: Document, to: Document): void {
  const hasLeading = leadingComment(to.contents) !== undefined || Boolean(to.commentBefore);
  if (!hasLeading && from.commentBefore) to.commentBefore = from.commentBefore;
  if (!to.comment && from.comment) to.comment = from.comment;
  copyNode(from.contents, to.contents, hasLeading);
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

function copyNode(from: unknown, to: unknown, skipLeading = false): void {
  if (!isNode(from) || !isNode(to)) return;
  if (!skipLeading && leadingComment(to) === undefined) copyOwn(from, to);
  else if (!to.comment && from.comment && !isScalar(to)) to.comment = from.comment;
  if (isMap(from) && isMap(to)) {
    to.items.forEach((toPair, i) => {
      const key = keyText(toPair.key);
      if (key === undefined) return;
      const fromPair = from.items.find((p) => keyText(p.key) === key);
      if (!fromPair) return;
      if (isNode(fromPair.key) && isNode(toPair.key) && !(skipLeading && i === 0))
        copyOwn(fromPair.key, toPair.key);
      copyNode(fromPair.value, toPair.value);
    });
  } else if (isSeq(from) && isSeq(to)) {
    to.items.forEach((toItem, i) => {
      const name = itemName(toItem);
      const fromItem =
        name !== undefined ? from.items.find((f) => itemName(f) === name) : (from.items[i] ?? undefined);
      // A scalar item keeps its comments only where its value is unchanged (kyaml's VisitList).
      if (isScalar(toItem) && !(isScalar(fromItem) && String(fromItem.value) === String(toItem.value)))
        return;
      copyNode(fromItem, toItem);
    });
  }
}

function copyOwn(from: Node, to: Node): void {
  if (!to.commentBefore && from.commentBefore) to.commentBefore = from.commentBefore;
  if (!to.comment && from.comment) to.comment = from.comment;
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
