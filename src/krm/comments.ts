/**
 * kyaml's `comments.CopyComments`, which kpt's function runner applies to every resource a function
 * returns: comments of the input resource are copied onto the output wherever the output has none,
 * so a function that drops comments (or an exec function that cannot keep them) does not lose them.
 */
import { type Document, isMap, isNode, isPair, isScalar, isSeq, type Node } from "yaml";

/** Copies comments from `from` onto `to` where `to` has none (fields matched by key, items by name or position). */
export function copyComments(from: Document, to: Document): void {
  if (!to.commentBefore && from.commentBefore) to.commentBefore = from.commentBefore;
  if (!to.comment && from.comment) to.comment = from.comment;
  copyNode(from.contents, to.contents);
}

function copyNode(from: unknown, to: unknown): void {
  if (!isNode(from) || !isNode(to)) return;
  copyOwn(from, to);
  if (isMap(from) && isMap(to)) {
    for (const toPair of to.items) {
      const key = keyText(toPair.key);
      if (key === undefined) continue;
      const fromPair = from.items.find((p) => keyText(p.key) === key);
      if (!fromPair) continue;
      if (isNode(fromPair.key) && isNode(toPair.key)) copyOwn(fromPair.key, toPair.key);
      copyNode(fromPair.value, toPair.value);
    }
  } else if (isSeq(from) && isSeq(to)) {
    to.items.forEach((toItem, i) => {
      const name = itemName(toItem);
      const fromItem =
        name !== undefined ? from.items.find((f) => itemName(f) === name) : (from.items[i] ?? undefined);
      copyNode(fromItem, toItem);
    });
  }
}

function copyOwn(from: Node, to: Node): void {
  if (!to.commentBefore && from.commentBefore) to.commentBefore = from.commentBefore;
  if (!to.comment && from.comment) {
    // A line comment only belongs to a scalar with the same value (kyaml compares values).
    if (!isScalar(from) || !isScalar(to) || String(from.value) === String(to.value))
      to.comment = from.comment;
  }
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
  if (isScalar(item)) return `scalar:${String(item.value)}`;
  if (isPair(item)) return undefined;
  return undefined;
}
