/**
 * kyaml's `order.SyncOrder`, which kpt's function runner applies to every resource a function
 * returns: the fields of each mapping are put back in the order they had in the function's input
 * (matched by key, at the same place in the tree; list items by position), fields the input did not
 * have follow in the order the function wrote them. A function that reorders fields (a program that
 * decodes into a struct or a hash map) thus changes no more lines than the values it set.
 */
import { type Document, isDocument, isMap, isNode, isPair, isScalar, isSeq, type Pair } from "yaml";

function keyOf(pair: Pair): string | undefined {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  if (typeof key === "string" || typeof key === "number" || typeof key === "boolean") return String(key);
  return undefined;
}

function syncNode(from: unknown, to: unknown): void {
  if (isMap(from) && isMap(to)) {
    const target = new Map<string, Pair>();
    for (const pair of to.items) {
      const key = isPair(pair) ? keyOf(pair) : undefined;
      if (key !== undefined && !target.has(key)) target.set(key, pair);
    }
    const ordered: Pair[] = [];
    const placed = new Set<Pair>();
    for (const pair of from.items) {
      const key = keyOf(pair);
      const match = key === undefined ? undefined : target.get(key);
      if (!match || placed.has(match)) continue;
      ordered.push(match);
      placed.add(match);
      syncNode(pair.value, match.value);
    }
    if (placed.size === 0) return;
    for (const pair of to.items) if (!placed.has(pair)) ordered.push(pair);
    if (ordered.some((pair, i) => pair !== to.items[i])) to.items = ordered;
    return;
  }
  if (isSeq(from) && isSeq(to)) {
    const n = Math.min(from.items.length, to.items.length);
    for (let i = 0; i < n; i++) syncNode(from.items[i], to.items[i]);
  }
}

/**
 * Reorders the fields of `to` (in place) to follow `from`, recursively. `from` is not modified.
 * Accepts documents or nodes; anything else is ignored.
 */
export function syncFieldOrder(from: Document | unknown, to: Document | unknown): void {
  const a = isDocument(from) ? from.contents : from;
  const b = isDocument(to) ? to.contents : to;
  if (isNode(a) && isNode(b)) syncNode(a, b);
}
