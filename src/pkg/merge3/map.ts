/**
 * kyaml's map walker (`walk/map.go`) of the 3-way merge: fields are merged one by one (the keys as
 * scalars, for their comments; the values by the walk), new fields appended in key order, and each
 * field set as kyaml's `FieldSetter` sets it.
 */
import { isMap, isScalar, isSeq, Pair, Scalar, YAMLMap } from "yaml";
import { resolvesAsNonString } from "../../yaml/go-style.js";
import {
  childWalk,
  DEST,
  hasFieldMeta,
  isMissingOrNull,
  isTaggedNull,
  plainScalar,
  type Sources,
  type Src,
  scalarText,
  valueNode,
  type Walk,
  type YNode,
} from "./nodes.js";
import { visitScalar } from "./scalar.js";
import { OPAQUE_SCHEMA } from "./schema.js";

/** Merges a map field by field (the map itself by kyaml's map visitor). */
export function walkMap(w: Walk): Src {
  const dest = visitMap(w.sources);
  if (!dest) return undefined;
  w.sources[DEST] = dest;
  for (const s of w.sources) if (isMap(s)) wrapRaw(s);
  for (const key of fieldNames(w.sources)) {
    const pairs = w.sources.map((s) => (isMap(s) ? findPair(s, key) : undefined)) as [
      Pair<Scalar, unknown> | undefined,
      Pair<Scalar, unknown> | undefined,
      Pair<Scalar, unknown> | undefined,
    ];
    const keys = pairs.map((p) => (p && isScalar(p.key) ? p.key : undefined)) as Sources;
    const res = visitScalar(keys, undefined);

    let schema = w.schema?.field(key);
    const values = pairs.map((p) => valueNode(p?.value)) as Sources;
    const commentSchema = pairs.some((p) => p && (hasFieldMeta(valueOrEmpty(p.value)) || keyMeta(p)));
    if (commentSchema) schema = OPAQUE_SCHEMA;
    const val = w.visit(childWalk(w, values, schema, key));

    const destPair = pairs[DEST];
    if (!isMissingOrNull(res) && destPair && isScalar(destPair.key)) {
      copyComments(res as Scalar, destPair.key);
    }
    setField(dest, key, destPair, val, res as Scalar | undefined, keyStyleFor(val, pairs, values));
  }
  return dest;
}

/** Keys and values set as plain JS data (e.g. by `YAMLMap.set`) become nodes the merge can compare. */
function wrapRaw(map: YAMLMap): void {
  for (const pair of map.items) {
    if (!isScalar(pair.key) && (typeof pair.key === "string" || typeof pair.key === "number")) {
      pair.key = new Scalar(pair.key);
    }
    const v = pair.value;
    if (v !== null && v !== undefined && typeof v !== "object") pair.value = new Scalar(v);
  }
}

function valueOrEmpty(value: unknown): { comment?: string | null; commentBefore?: string | null } {
  return isScalar(value) || isMap(value) || isSeq(value) ? value : {};
}

function keyMeta(pair: Pair<Scalar, unknown>): boolean {
  return isScalar(pair.key) && hasFieldMeta(pair.key);
}

/** kyaml's map visitor: cleared when null on either side or gone from both, created when new. */
function visitMap(sources: Sources): YAMLMap | undefined {
  const [dest, , updated] = sources;
  if (isTaggedNull(updated) || isTaggedNull(dest)) return undefined;
  if (dest === undefined && updated === undefined) return undefined;
  if (dest === undefined || isTaggedNull(dest)) return new YAMLMap();
  return isMap(dest) ? dest : new YAMLMap();
}

function fieldNames(sources: Sources): string[] {
  const names = new Set<string>();
  for (const s of sources) {
    if (!isMap(s)) continue;
    for (const pair of s.items) {
      const k = isScalar(pair.key) ? scalarText(pair.key) : undefined;
      if (k !== undefined) names.add(k);
    }
  }
  return [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

function findPair(map: YAMLMap, key: string): Pair<Scalar, unknown> | undefined {
  return map.items.find((p) => isScalar(p.key) && scalarText(p.key) === key) as
    | Pair<Scalar, unknown>
    | undefined;
}

function keyStyleFor(
  val: Src,
  pairs: Array<Pair<Scalar, unknown> | undefined>,
  values: Sources,
): Scalar.Type | undefined {
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== undefined && values[i] === val) {
      const key = pairs[i]?.key;
      return isScalar(key) ? key.type : undefined;
    }
  }
  return undefined;
}

function copyComments(from: Scalar, to: Scalar): void {
  to.commentBefore = from.commentBefore;
  to.comment = from.comment;
}

/**
 * kyaml's `FieldSetter`: removes the field when the value is missing or null; replaces an existing
 * value (keeping the existing value's style); appends a new field with the chosen key's comments.
 */
function setField(
  dest: YAMLMap,
  key: string,
  destPair: Pair<Scalar, unknown> | undefined,
  val: Src,
  keyRes: Scalar | undefined,
  keyStyle: Scalar.Type | undefined,
): void {
  if (val === undefined || isTaggedNull(val)) {
    if (destPair) dest.items.splice(dest.items.indexOf(destPair), 1);
    return;
  }
  // kyaml quotes a plain string that YAML 1.1 would read as another type whenever it sets a field.
  if (
    isScalar(val) &&
    typeof val.value === "string" &&
    (val.type === undefined || val.type === Scalar.PLAIN)
  ) {
    if (!val.tag && yaml11NonString(val.value)) val.type = Scalar.QUOTE_DOUBLE;
  }
  if (destPair) {
    if (destPair.value !== val) {
      const node = val;
      takeStyle(node, destPair.value);
      destPair.value = node;
    }
    return;
  }
  const k = plainScalar(key);
  if (keyStyle) k.type = keyStyle;
  if (keyRes && !isMissingOrNull(keyRes)) copyComments(keyRes, k);
  dest.items.push(new Pair(k, val));
}

/**
 * kyaml's `IsValueNonString`: text a YAML 1.1 parser (yaml.v2) reads as a bool, number or null.
 * Timestamps and base-60 numbers stay strings there.
 */
function yaml11NonString(text: string): boolean {
  if (text === "" || text.includes("\n")) return false;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(text)) return false;
  if (/^\d{4}-\d\d?-\d\d?([Tt ]|$)/.test(text)) return false;
  return resolvesAsNonString(text);
}

/** A value written over an existing one takes the existing node's style (yaml.v3 `Style`). */
function takeStyle(node: YNode, existing: unknown): void {
  if (isScalar(node)) {
    node.type = isScalar(existing) ? (existing.type ?? Scalar.PLAIN) : Scalar.PLAIN;
    // yaml.v3 writes a number or bool in the quoted style it inherits as a quoted string.
    const quoted = node.type === Scalar.QUOTE_SINGLE || node.type === Scalar.QUOTE_DOUBLE;
    if (quoted && node.value !== null && typeof node.value !== "string") node.value = scalarText(node) ?? "";
  } else {
    // yaml.v3 writes an empty collection in flow style whatever its style.
    node.flow = node.items.length === 0 || ((isMap(existing) || isSeq(existing)) && Boolean(existing.flow));
  }
}
