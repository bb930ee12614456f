// The shape-based CopyComments and SyncOrder against the direct walks they replaced (kept below as the
// oracle): the output resource edited in place after its shape was taken must come out as the direct
// walks leave an edited copy when given the untouched input.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Document,
  isDocument,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  Pair,
  Scalar,
  YAMLMap,
  YAMLSeq,
} from "yaml";
import { cloneDocument } from "../../src/krm/clone.js";
import { copyComments } from "../../src/krm/comments.js";
import { syncFieldOrder } from "../../src/krm/field-order.js";
import { documentShape } from "../../src/krm/resource-shape.js";

// ---- oracle: the direct walks over the input document (before shapes) ----
function referenceCopyComments(from: Document, to: Document): void {
  const hasLeading = leadingComment(to.contents) !== undefined || Boolean(to.commentBefore);
  if (!hasLeading && from.commentBefore) to.commentBefore = from.commentBefore;
  if (!to.comment && from.comment) to.comment = from.comment;
  copyNode(from.contents, to.contents, hasLeading);
}
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
  }
  return undefined;
}
function refKeyOf(pair: Pair): string | undefined {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  if (typeof key === "string" || typeof key === "number" || typeof key === "boolean") return String(key);
  return undefined;
}
function refSyncNode(from: unknown, to: unknown): void {
  if (isMap(from) && isMap(to)) {
    const target = new Map<string, Pair>();
    for (const pair of to.items) {
      const key = isPair(pair) ? refKeyOf(pair) : undefined;
      if (key !== undefined && !target.has(key)) target.set(key, pair);
    }
    const ordered: Pair[] = [];
    const placed = new Set<Pair>();
    for (const pair of from.items) {
      const key = refKeyOf(pair);
      const match = key === undefined ? undefined : target.get(key);
      if (!match || placed.has(match)) continue;
      ordered.push(match);
      placed.add(match);
      refSyncNode(pair.value, match.value);
    }
    if (placed.size === 0) return;
    for (const pair of to.items) if (!placed.has(pair)) ordered.push(pair);
    if (ordered.some((pair, i) => pair !== to.items[i])) to.items = ordered;
    return;
  }
  if (isSeq(from) && isSeq(to)) {
    const n = Math.min(from.items.length, to.items.length);
    for (let i = 0; i < n; i++) refSyncNode(from.items[i], to.items[i]);
  }
}
function referenceSyncFieldOrder(from: Document, to: Document): void {
  const a = isDocument(from) ? from.contents : from;
  const b = isDocument(to) ? to.contents : to;
  if (isNode(a) && isNode(b)) refSyncNode(a, b);
}

// ---- generated resources and edits ----
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const KEYS = ["name", "a", "b", "c", "spec", "items", "1", "true", "d"];
const VALUES: unknown[] = ["x", "y", "name-1", 1, 2, true, null, "1"];

function build(random: () => number, depth: number): unknown {
  const r = random();
  if (depth > 3 || r < 0.35) {
    const value = VALUES[Math.floor(random() * VALUES.length)];
    return random() < 0.1 ? value : withComments(new Scalar(value), random);
  }
  if (r < 0.7) {
    const map = withComments(new YAMLMap(), random);
    const n = Math.floor(random() * 5);
    for (let i = 0; i < n; i++) {
      const k = KEYS[Math.floor(random() * KEYS.length)];
      const key = random() < 0.1 ? k : random() < 0.05 ? Number(i) : withComments(new Scalar(k), random);
      map.items.push(new Pair(key, build(random, depth + 1)));
    }
    return map;
  }
  const seq = withComments(new YAMLSeq(), random);
  const n = Math.floor(random() * 4);
  for (let i = 0; i < n; i++) seq.items.push(build(random, depth + 1));
  return seq;
}

function withComments<T extends Node>(node: T, random: () => number): T {
  if (random() < 0.3) node.commentBefore = ` before ${Math.floor(random() * 3)}`;
  if (random() < 0.3) node.comment = ` after ${Math.floor(random() * 3)}`;
  return node;
}

/** Edits a node tree in place, deterministically for a seed. */
function edit(node: unknown, random: () => number, depth = 0): void {
  if (!isNode(node)) return;
  if (random() < 0.15) node.comment = undefined;
  if (random() < 0.15) node.commentBefore = undefined;
  if (isScalar(node) && random() < 0.2) node.value = VALUES[Math.floor(random() * VALUES.length)];
  if (isMap(node)) {
    if (random() < 0.3) node.items.reverse();
    if (random() < 0.2 && node.items.length > 0)
      node.items.splice(Math.floor(random() * node.items.length), 1);
    if (random() < 0.2)
      node.items.push(new Pair(new Scalar(KEYS[Math.floor(random() * KEYS.length)]), "new"));
    for (const pair of node.items) {
      const r = random();
      if (r < 0.1) pair.value = build(random, depth + 2);
      else if (r < 0.2 && isScalar(pair.key)) pair.key = new Scalar(pair.key.value);
      else edit(pair.value, random, depth + 1);
      if (isNode(pair.key)) edit(pair.key, random, depth + 1);
    }
    if (random() < 0.1) {
      const fresh = new YAMLMap();
      fresh.items = node.items;
      node.items = [new Pair(new Scalar("wrapped"), fresh)];
    }
  }
  if (isSeq(node)) {
    if (random() < 0.3) node.items.reverse();
    if (random() < 0.2 && node.items.length > 0) node.items.pop();
    for (let i = 0; i < node.items.length; i++) {
      if (random() < 0.1) node.items[i] = build(random, depth + 2);
      else edit(node.items[i], random, depth + 1);
    }
  }
}

function comments(doc: Document): string {
  const out: string[] = [String(doc.commentBefore), String(doc.comment)];
  const walk = (n: unknown): void => {
    if (isPair(n)) {
      walk(n.key);
      walk(n.value);
    } else if (isNode(n)) {
      out.push(`${n.commentBefore}|${n.comment}`);
      if (isMap(n) || isSeq(n)) for (const item of n.items as unknown[]) walk(item);
    }
  };
  walk(doc.contents);
  return out.join("\n");
}

describe("CopyComments and SyncOrder from a shape taken before an in-place edit", () => {
  it("leave the edited resource as the direct walks leave an edited copy", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.integer({ min: 1 }), (docSeed, editSeed) => {
        const original = new Document() as Document;
        original.contents = build(rng(docSeed), 0) as Node;
        if (docSeed % 3 === 0) original.commentBefore = " head";
        if (docSeed % 5 === 0) original.comment = " foot";
        // Oracle: an edited copy, given the untouched input.
        const copy = cloneDocument(original);
        edit(copy.contents, rng(editSeed));
        referenceCopyComments(original, copy);
        referenceSyncFieldOrder(original, copy);
        // Under test: the shape first, then the input itself edited.
        const shape = documentShape(original);
        edit(original.contents, rng(editSeed));
        copyComments(shape, original);
        syncFieldOrder(shape, original);
        expect(original.toString()).toBe(copy.toString());
        expect(comments(original)).toBe(comments(copy));
      }),
      { numRuns: 3000 },
    );
  });
});
