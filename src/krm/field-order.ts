/**
 * kyaml's `order.SyncOrder`, which kpt's function runner applies to every resource a function
 * returns: the fields of each mapping are put back in the order they had in the function's input
 * (matched by key, at the same place in the tree; list items by position), fields the input did not
 * have follow in the order the function wrote them. A function that reorders fields (a program that
 * decodes into a struct or a hash map) thus changes no more lines than the values it set. The input
 * is read through its shape (./resource-shape.ts), which may be taken before a function edits the
 * resource itself.
 */
import { type Document, isDocument, isMap, isNode, isPair, isScalar, isSeq, type Pair } from "yaml";
import {
  type DocumentShape,
  isDocumentShape,
  isMapShape,
  isSeqShape,
  type MapShape,
  type Shape,
  shapeOf,
} from "./resource-shape.js";

function keyOf(pair: Pair): string | undefined {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  if (typeof key === "string" || typeof key === "number" || typeof key === "boolean") return String(key);
  return undefined;
}

/**
 * Whether `to`'s pairs have `from`'s keys in the same order, all defined and distinct: then syncing
 * keeps the order and pairs every field with its own.
 */
function sameOrder(from: MapShape, items: readonly unknown[]): boolean {
  const keys = from.keys;
  const n = keys.length;
  if (items.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const pair = items[i];
    const key = keys[i];
    if (key === undefined || !isPair(pair) || keyOf(pair) !== key) return false;
  }
  if (n <= 16) {
    for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (keys[i] === keys[j]) return false;
    return true;
  }
  return new Set(keys).size === n;
}

function syncNode(from: Shape, to: unknown): void {
  if (isMapShape(from) && isMap(to)) {
    const items = to.items;
    if (sameOrder(from, items)) {
      for (let i = 0; i < items.length; i++) syncNode(from.values[i], items[i].value);
      return;
    }
    const target = new Map<string, Pair>();
    for (const pair of items) {
      const key = isPair(pair) ? keyOf(pair) : undefined;
      if (key !== undefined && !target.has(key)) target.set(key, pair);
    }
    const ordered: Pair[] = [];
    const placed = new Set<Pair>();
    for (let i = 0; i < from.keys.length; i++) {
      const key = from.keys[i];
      const match = key === undefined ? undefined : target.get(key);
      if (!match || placed.has(match)) continue;
      ordered.push(match);
      placed.add(match);
      syncNode(from.values[i], match.value);
    }
    if (placed.size === 0) return;
    for (const pair of items) if (!placed.has(pair)) ordered.push(pair);
    if (ordered.some((pair, i) => pair !== items[i])) to.items = ordered;
    return;
  }
  if (isSeqShape(from) && isSeq(to)) {
    const n = Math.min(from.items.length, to.items.length);
    for (let i = 0; i < n; i++) syncNode(from.items[i], to.items[i]);
  }
}

/**
 * Reorders the fields of `to` (in place) to follow `from` (a document or node, or the shape of a
 * document taken earlier), recursively. `from` is not modified. Anything else is ignored.
 */
export function syncFieldOrder(from: Document | DocumentShape | unknown, to: Document | unknown): void {
  const source = isDocumentShape(from)
    ? from.contents
    : shapeOf(isDocument(from) ? from.contents : from, false);
  const b = isDocument(to) ? to.contents : to;
  if (isNode(b)) syncNode(source, b);
}
