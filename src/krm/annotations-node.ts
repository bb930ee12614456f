/**
 * kpt's path/index annotations (see `./annotations.ts`) on our YAML layer's document nodes, the
 * engine's working form: the same reads, writes and removals as the Document versions, with the same
 * results once written (where a map is created, key order, quoting, empty-map removal, comments).
 * Lookups touch `metadata.annotations` only, never the rest of the tree. An edit whose comments the
 * `yaml` Document would move (a removed key holding or following a comment) goes through the
 * Document once, so the result is the Document version's exactly.
 */
import type { Document } from "yaml";
import { stringScalar } from "../yaml/from-document-scalar.js";
import { Kind, Style, YNode } from "../yaml/node.js";
import { documentScalarValue, nodeToDocument } from "../yaml/to-document.js";
import {
  INTERNAL_INDEX,
  INTERNAL_PATH,
  LEGACY_INDEX,
  LEGACY_PATH,
  PIPELINE_ANNOTATIONS,
  pickChanged,
  type ResourceLocation,
  stripPipelineAnnotations,
} from "./annotations.js";
import { documentNode } from "./document-node.js";

/** The index of the first pair of a mapping node whose key is `key` (the `yaml` map's `get`), or -1. */
export function pairIndex(map: YNode, key: string): number {
  const c = map.content;
  for (let i = 0; i + 1 < c.length; i += 2) if (c[i].kind === Kind.Scalar && c[i].value === key) return i;
  return -1;
}

/** The value of the first pair whose key is `key` in a mapping node, or undefined. */
export function firstValue(map: YNode | undefined, key: string): YNode | undefined {
  if (!map || map.kind !== Kind.Mapping) return undefined;
  const i = pairIndex(map, key);
  return i < 0 ? undefined : map.content[i + 1];
}

/** A document node's root mapping, or undefined when its content is not a mapping. */
export function rootMap(doc: YNode): YNode | undefined {
  const root = doc.content[0];
  return root?.kind === Kind.Mapping ? root : undefined;
}

/** The `metadata` mapping of a resource document node, or undefined. */
export function metadataNode(doc: YNode): YNode | undefined {
  const meta = firstValue(rootMap(doc), "metadata");
  return meta?.kind === Kind.Mapping ? meta : undefined;
}

/** The `metadata.annotations` mapping of a resource document node, or undefined. */
export function annotationsNode(doc: YNode): YNode | undefined {
  const ann = firstValue(metadataNode(doc), "annotations");
  return ann?.kind === Kind.Mapping ? ann : undefined;
}

/**
 * A scalar field's value as the Document's `getIn` reads it (`yaml` core schema: `null`, booleans and
 * numbers resolved), from the root mapping down `path`; undefined when a step is missing or not a
 * mapping; a collection comes back as the node itself.
 */
export function fieldValue(doc: YNode, path: readonly string[]): unknown {
  let node: YNode | undefined = doc.content[0];
  for (const key of path) {
    node = firstValue(node, key);
    if (!node) return undefined;
  }
  if (!node) return undefined;
  return node.kind === Kind.Scalar ? documentScalarValue(node) : node;
}

const TEXT_STYLES = Style.DoubleQuoted | Style.SingleQuoted | Style.Literal | Style.Folded;

/** One annotation as a string (the Document version's `String(value)`), or undefined. */
function annotationValue(ann: YNode | undefined, key: string): string | undefined {
  return scalarString(firstValue(ann, key));
}

/** A scalar value node as the Document version's `String(value)` (null and collections: undefined). */
function scalarString(node: YNode | undefined): string | undefined {
  if (!node || node.kind !== Kind.Scalar) return undefined;
  // An untagged quoted or block scalar (what the engine writes) is its text.
  if ((node.style & Style.Tagged) === 0 && (node.style & TEXT_STYLES) !== 0) return node.value;
  const value = documentScalarValue(node);
  if (value === null || value === undefined || typeof value === "object") return undefined;
  return String(value);
}

/** One annotation value of a document node as a string, or undefined (`getAnnotation`). */
export function getNodeAnnotation(doc: YNode, key: string): string | undefined {
  return annotationValue(annotationsNode(doc), key);
}

/** Where a resource was read from, relative to its package (`pathOf` on a node). */
export function nodePathOf(doc: YNode): string | undefined {
  const ann = annotationsNode(doc);
  return annotationValue(ann, INTERNAL_PATH) ?? annotationValue(ann, LEGACY_PATH);
}

/** A resource's location as kyaml reads it (`readLocation` on a node). */
export function readNodeLocation(doc: YNode, original?: ResourceLocation): ResourceLocation {
  return locationIn(annotationsNode(doc), original);
}

/** {@link readNodeLocation} from the resource's annotations map (`annotationsNode`'s value). */
export function locationIn(ann: YNode | undefined, original?: ResourceLocation): ResourceLocation {
  // One pass over the annotations for the four keys (the first pair of each, as `firstValue`).
  let internalPath: YNode | undefined;
  let legacyPath: YNode | undefined;
  let internalIndex: YNode | undefined;
  let legacyIndex: YNode | undefined;
  if (ann) {
    const c = ann.content;
    for (let i = 0; i + 1 < c.length; i += 2) {
      const k = c[i];
      if (k.kind !== Kind.Scalar) continue;
      const key = k.value;
      if (key === INTERNAL_PATH) internalPath ??= c[i + 1];
      else if (key === LEGACY_PATH) legacyPath ??= c[i + 1];
      else if (key === INTERNAL_INDEX) internalIndex ??= c[i + 1];
      else if (key === LEGACY_INDEX) legacyIndex ??= c[i + 1];
    }
  }
  // The original location only decides between two forms that differ.
  const ip = scalarString(internalPath);
  const lp = scalarString(legacyPath);
  const path =
    ip !== undefined && lp !== undefined && ip !== lp ? pickChanged(ip, lp, original?.path) : (ip ?? lp);
  const ii = scalarString(internalIndex);
  const li = scalarString(legacyIndex);
  const indexText =
    ii !== undefined && li !== undefined && ii !== li
      ? pickChanged(ii, li, original?.index === undefined ? undefined : String(original.index))
      : (ii ?? li);
  const index = indexText === undefined ? undefined : Number.parseInt(indexText, 10);
  return { path, index: Number.isNaN(index) ? undefined : index };
}

const keyStyles = new Map<string, YNode>();

/** A new key node as the Document adapter writes a key a map was given (Go's quoting). */
function keyNode(key: string): YNode {
  let template = keyStyles.get(key);
  if (!template) {
    template = stringScalar(key);
    keyStyles.set(key, template);
  }
  const n = new YNode(Kind.Scalar, template.tag, key);
  n.style = template.style;
  return n;
}

/** A single-quoted string value, as the Document version's `Scalar.QUOTE_SINGLE` comes out. */
function quotedValue(value: string): YNode {
  const n = new YNode(Kind.Scalar, "!!str", value);
  n.style = Style.SingleQuoted;
  return n;
}

function isBlock(n: YNode): boolean {
  return (n.kind === Kind.Mapping || n.kind === Kind.Sequence) && (n.style & Style.Flow) === 0;
}

/**
 * The `yaml` map's `set`: the first pair's value replaced (a comment on the key's line of a value
 * that is no block collection was that value's and goes with it), else a pair appended (below it
 * what the Document holds as the map's trailing comment).
 */
function setValue(map: YNode, key: string, value: YNode): void {
  const i = pairIndex(map, key);
  if (i < 0) {
    const k = keyNode(key);
    // The last key's foot comment is the map's trailing comment in the Document: it stays below.
    const last = map.content[map.content.length - 2];
    if (last && last.footComment !== "") {
      k.footComment = last.footComment;
      last.footComment = "";
    }
    map.content.push(k, value);
    return;
  }
  if (!isBlock(map.content[i + 1])) map.content[i].lineComment = "";
  map.content[i + 1] = value;
}

/**
 * Sets annotations (single-quoted), creating `metadata` and `metadata.annotations` at the end of their
 * parents when missing (`setAnnotations` on a node). Returns whether the annotations map was created.
 */
export function setNodeAnnotations(doc: YNode, values: ReadonlyArray<[string, string]>): boolean {
  const root = rootMap(doc);
  if (!root) return false;
  let meta = firstValue(root, "metadata");
  if (meta?.kind !== Kind.Mapping) {
    meta = new YNode(Kind.Mapping, "!!map");
    setValue(root, "metadata", meta);
  }
  let ann = firstValue(meta, "annotations");
  let created = false;
  if (ann?.kind !== Kind.Mapping) {
    ann = new YNode(Kind.Mapping, "!!map");
    setValue(meta, "annotations", ann);
    created = true;
  }
  for (const [key, value] of values) setValue(ann, key, quotedValue(value));
  return created;
}

/**
 * Whether the pair at `i` of `map` can go without moving a comment the Document would keep: its key
 * holds no head or foot comment and the key before it no foot comment (the Document holds that as the
 * removed key's own).
 */
function plainRemoval(map: YNode, i: number): boolean {
  const key = map.content[i];
  return (
    key.headComment === "" && key.footComment === "" && (i === 0 || map.content[i - 2].footComment === "")
  );
}

/**
 * Removes the first pair with one of `keys` from a mapping node (`YAMLMap.delete` each). Returns false,
 * changing nothing, when a removal would move a comment (see {@link plainRemoval}).
 */
function deleteKeys(map: YNode, keys: readonly string[]): boolean {
  // One pass: the first pair of each key, in the map's order.
  const found: number[] = [];
  let taken: string[] | undefined;
  const c = map.content;
  for (let i = 0; i + 1 < c.length; i += 2) {
    const k = c[i];
    if (k.kind !== Kind.Scalar || !keys.includes(k.value)) continue;
    if (taken?.includes(k.value)) continue;
    if (!taken) taken = [];
    taken.push(k.value);
    found.push(i);
  }
  if (found.length === 0) return true;
  for (const i of found) if (!plainRemoval(map, i)) return false;
  // The pairs kept move up in place (found is ascending).
  let w = found[0];
  let next = 0;
  for (let r = found[0]; r + 1 < c.length; r += 2) {
    if (r === found[next]) {
      next++;
      continue;
    }
    c[w] = c[r];
    c[w + 1] = c[r + 1];
    w += 2;
  }
  c.length = w;
  return true;
}

/** Removes pairs from a mapping node (see {@link deleteKeys}); false when the Document must do it. */
export function deleteNodeKeys(map: YNode, keys: readonly string[]): boolean {
  return deleteKeys(map, keys);
}

/** Whether a scalar node reads as null (the Document's `value === null`). */
function isNullScalar(n: YNode | undefined): boolean {
  return n?.kind === Kind.Scalar && documentScalarValue(n) === null;
}

/**
 * Removes the pipeline annotations (`stripPipelineAnnotations` on a node): with `dropEmpty`, an
 * annotations map that ends up empty (or was empty or null) goes too, then an empty `metadata`.
 */
export function stripNodePipelineAnnotations(doc: YNode, dropEmpty: boolean): void {
  if (!stripNative(doc, dropEmpty)) viaDocument(doc, (d) => stripPipelineAnnotations(d, dropEmpty));
}

function stripNative(doc: YNode, dropEmpty: boolean): boolean {
  const root = rootMap(doc);
  const mi = root ? pairIndex(root, "metadata") : -1;
  const meta = root && mi >= 0 ? root.content[mi + 1] : undefined;
  if (!root || meta?.kind !== Kind.Mapping) return true;
  const ai = pairIndex(meta, "annotations");
  const value = ai >= 0 ? meta.content[ai + 1] : undefined;
  const ann = value?.kind === Kind.Mapping ? value : undefined;
  if (ann && !deleteKeys(ann, PIPELINE_ANNOTATIONS)) return false;
  if (!dropEmpty) return true;
  if ((ann && ann.content.length === 0) || isNullScalar(value)) {
    // A comment on or in what goes is the Document's to place.
    if (value && (hasComment(value) || meta.content[ai].lineComment !== "")) return false;
    if (!plainRemoval(meta, ai)) return false;
    meta.content.splice(ai, 2);
  }
  if (meta.content.length === 0) {
    const metaKey = root.content[mi];
    if (meta.footComment !== "" || meta.lineComment !== "" || metaKey.lineComment !== "") return false;
    if (!plainRemoval(root, mi)) return false;
    root.content.splice(mi, 2);
  }
  return true;
}

function hasComment(n: YNode): boolean {
  return n.headComment !== "" || n.lineComment !== "" || n.footComment !== "";
}

/**
 * Runs a Document edit on a document node: the node converted once, edited, and its content replaced
 * by the result's (the node object itself stays the same). Returns what the edit returned.
 */
export function viaDocument<T>(doc: YNode, edit: (d: Document) => T): T {
  const d = nodeToDocument(doc);
  const result = edit(d);
  adoptNode(doc, documentNode(d));
  return result;
}

/** Makes `target` hold what `source` holds (the node object kept, so references to it stay valid). */
export function adoptNode(target: YNode, source: YNode): void {
  target.kind = source.kind;
  target.style = source.style;
  target.tag = source.tag;
  target.value = source.value;
  target.anchor = source.anchor;
  target.alias = source.alias;
  target.content = source.content;
  target.headComment = source.headComment;
  target.lineComment = source.lineComment;
  target.footComment = source.footComment;
}
