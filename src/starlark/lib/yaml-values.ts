/**
 * Conversions between YAML nodes (the `yaml` package's AST) and Starlark values, with the semantics of
 * the Go code kpt's `starlark` function runs: YAML decoded as Go's yaml.v3 decodes into `interface{}`
 * (ints, floats, bools, null, strings; timestamps stay strings), Starlark values encoded as qri-io/starlib's
 * `util.Unmarshal` + Go's yaml `Marshal` write them (map keys sorted as yaml.v3 sorts them, floats in
 * Go's shortest `%g` form, strings quoted only where Go would).
 */
import { type Document, isAlias, isMap, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { formatFloat } from "../eval/floatfmt.js";
import {
  Dict,
  Float,
  List,
  None,
  normBig,
  SetValue,
  StarlarkError,
  Tuple,
  typeName,
  type Value,
} from "../eval/values.js";
import { fromBytes, toBytes } from "../internal/utf8.js";

const FLOAT_SOURCE = /[.eE]|inf|Inf|INF|nan|NaN|NAN/;
const HEX_SOURCE = /^[-+]?0x/;

/**
 * A YAML scalar as a Starlark value: null → None, bool, int (exact for big ones: parsed from the source
 * text), float (a source with a point, an exponent, `.inf` or `.nan`), string.
 */
export function scalarToStarlark(node: Scalar): Value {
  const v = node.value;
  switch (typeof v) {
    case "string":
      return toBytes(v);
    case "boolean":
      return v;
    case "bigint":
      return normBig(v);
    case "number": {
      const source = typeof node.source === "string" ? node.source : String(v);
      const isFloat = !Number.isInteger(v) || (FLOAT_SOURCE.test(source) && !HEX_SOURCE.test(source));
      if (isFloat) return new Float(v);
      if (Number.isSafeInteger(v)) return v;
      try {
        return normBig(BigInt(source.replace(/_/g, "").replace(/^\+/, "")));
      } catch {
        return normBig(BigInt(v));
      }
    }
    default:
      if (v === null || v === undefined) return None;
      return toBytes(String(v));
  }
}

/**
 * A YAML node as a Starlark value: mappings become dicts (in document order), sequences lists, scalars
 * as {@link scalarToStarlark}; aliases are resolved against `doc`.
 */
export function nodeToStarlark(node: unknown, doc?: Document): Value {
  if (isAlias(node)) return doc ? nodeToStarlark(node.resolve(doc), doc) : None;
  if (isScalar(node)) return scalarToStarlark(node);
  if (isMap(node)) {
    const dict = new Dict();
    for (const pair of node.items) {
      if (isScalar(pair.key) && pair.key.value === "<<") {
        // A merge key (`<<: *base`) contributes the entries the mapping does not set itself.
        mergeInto(dict, pair.value, doc);
        continue;
      }
      dict.setKey(nodeToStarlark(pair.key, doc), nodeToStarlark(pair.value, doc));
    }
    return dict;
  }
  if (isSeq(node)) return new List(node.items.map((item) => nodeToStarlark(item, doc)));
  if (node === null || node === undefined) return None;
  // A raw JS value a function stored without wrapping it in a node.
  return scalarToStarlark(new Scalar(node));
}

function mergeInto(dict: Dict, source: unknown, doc: Document | undefined): void {
  const resolved = isAlias(source) && doc ? source.resolve(doc) : source;
  const sources = isSeq(resolved) ? resolved.items : [resolved];
  for (const s of sources) {
    const value = nodeToStarlark(s, doc);
    if (!(value instanceof Dict)) continue;
    for (const [k, v] of value.items()) if (dict.get(k) === undefined) dict.setKey(k, v);
  }
}

// ---- Starlark → YAML ----

/** Go's reflect.Kind order of the key types yaml.v3 sorts (bool < int < float < string). */
function kindRank(k: Value): number {
  if (typeof k === "boolean") return 1;
  if (typeof k === "number" || typeof k === "bigint") return 2;
  if (k instanceof Float) return 14;
  if (typeof k === "string") return 24;
  return 25;
}

function keyNumber(k: Value): number | undefined {
  if (typeof k === "boolean") return k ? 1 : 0;
  if (typeof k === "number") return k;
  if (typeof k === "bigint") return Number(k);
  if (k instanceof Float) return k.v;
  return undefined;
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/**
 * yaml.v3's map key order (`keyList.Less`): numbers and bools by value, then by kind; strings in a
 * "natural" order where runs of digits compare as numbers and letters sort before other characters.
 */
export function goKeyLess(a: Value, b: Value): boolean {
  const af = keyNumber(a);
  const bf = keyNumber(b);
  if (af !== undefined && bf !== undefined) {
    if (af !== bf) return af < bf;
    return kindRank(a) < kindRank(b);
  }
  if (typeof a !== "string" || typeof b !== "string") return kindRank(a) < kindRank(b);
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b)) return asciiKeyLess(a, b);
  const ar = [...fromBytes(a)];
  const br = [...fromBytes(b)];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = LETTER.test(ar[i]!);
    const bl = LETTER.test(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === "0" || br[i] === "0") {
      for (let j = i - 1; j >= 0 && DIGIT.test(ar[j]!); j--) {
        if (ar[j] !== "0") {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && DIGIT.test(ar[ai]!); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && DIGIT.test(br[bi]!); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

const NON_ASCII = /[\u0080-\uffff]/;

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** {@link goKeyLess} for two ASCII strings, on char codes (no decoding). */
function asciiKeyLess(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ac = a.charCodeAt(i);
    const bc = b.charCodeAt(i);
    if (ac === bc) continue;
    const al = isAsciiLetter(ac);
    const bl = isAsciiLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ac === 0x30 || bc === 0x30) {
      for (let j = i - 1; j >= 0 && isAsciiDigit(a.charCodeAt(j)); j--) {
        if (a.charCodeAt(j) !== 0x30) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < a.length && isAsciiDigit(a.charCodeAt(ai)); ai++) an = an * 10 + (a.charCodeAt(ai) - 0x30);
    let bi = i;
    for (; bi < b.length && isAsciiDigit(b.charCodeAt(bi)); bi++) bn = bn * 10 + (b.charCodeAt(bi) - 0x30);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return a.length < b.length;
}

/** Sorts keys (Starlark values) as yaml.v3 does; stable. */
export function sortGoKeys<T>(entries: T[], key: (e: T) => Value): T[] {
  return entries.sort((x, y) => (goKeyLess(key(x), key(y)) ? -1 : goKeyLess(key(y), key(x)) ? 1 : 0));
}

/** Go's yaml encoding of a float64: shortest `%g`, `.inf`, `-.inf`, `.nan`. */
export function goFloatText(f: number): string {
  if (Number.isNaN(f)) return ".nan";
  if (!Number.isFinite(f)) return f > 0 ? ".inf" : "-.inf";
  return formatFloat(f, "g", -1);
}

/** A float scalar that prints as Go writes it (the engine prints a plain scalar's `source` when it still matches). */
export function floatScalar(f: number): Scalar {
  const node = new Scalar(f);
  node.source = goFloatText(f);
  node.type = Scalar.PLAIN;
  if (Number.isInteger(f) && Number.isFinite(f)) {
    // `3` must read back as the same number: print it as Go does, without a fraction.
    node.minFractionDigits = 0;
  }
  return node;
}

/** A string scalar for a Starlark byte string; its style is left to the writer (Go's rules). */
export function stringScalar(s: string): Scalar {
  return new Scalar(fromBytes(s));
}

/**
 * The error util.Unmarshal gives for a value it cannot encode; `dicts` is how many dicts enclose the
 * value (each wraps the message in "unmarshaling starlark value: ").
 */
function unencodable(v: Value, dicts: number): StarlarkError {
  const base =
    v instanceof SetValue ? "sets aren't yet supported" : `unrecognized starlark type: ${typeName(v)}`;
  return new StarlarkError(`${"unmarshaling starlark value: ".repeat(dicts)}${base}`);
}

/** A scalar node for a Starlark scalar value, or undefined when `v` is not a scalar. */
export function scalarNode(v: Value): Scalar | undefined {
  if (v === None) return new Scalar(null);
  switch (typeof v) {
    case "boolean":
      return new Scalar(v);
    case "number":
      return new Scalar(v);
    case "bigint":
      return new Scalar(v);
    case "string":
      return stringScalar(v);
  }
  if (v instanceof Float) return floatScalar(v.v);
  return undefined;
}

/**
 * A new YAML node for a Starlark value, as Go writes `util.Unmarshal(v)` with yaml `Marshal`: dict keys
 * sorted (yaml.v3 order), tuples as lists. `dicts` counts enclosing dicts for error messages.
 * @throws StarlarkError (util.Unmarshal's message) for sets and values that are not data.
 */
export function starlarkToNode(v: Value, dicts = 0): Scalar | YAMLMap | YAMLSeq {
  const scalar = scalarNode(v);
  if (scalar) return scalar;
  if (v instanceof Dict) {
    const map = new YAMLMap();
    const entries = sortGoKeys([...v.items()], (e) => e[0]);
    for (const [k, val] of entries) {
      const key = scalarNode(k);
      if (!key) throw unencodable(k, dicts + 1);
      map.items.push(new Pair(key, starlarkToNode(val, dicts + 1)));
    }
    return map;
  }
  if (v instanceof List || v instanceof Tuple) {
    const seq = new YAMLSeq();
    for (const item of v.elems) seq.items.push(starlarkToNode(item, dicts));
    return seq;
  }
  throw unencodable(v, dicts);
}
