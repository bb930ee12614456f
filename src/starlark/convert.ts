/**
 * Conversion between host (JS/YAML-shaped) data and Starlark values, both ways.
 */

import { Struct } from "./struct.js";
import { fromBytes, toBytes } from "./utf8.js";
import {
  Bytes,
  Dict,
  Float,
  List,
  Module,
  None,
  normBig,
  SetValue,
  StarlarkError,
  SValue,
  Tuple,
  typeName,
  type Value,
} from "./values.js";

/**
 * Converts host data to a Starlark value: null/undefined → None, boolean → bool, integral number or
 * bigint → int, other number → float, string → string, Uint8Array → bytes, array → list,
 * Map or plain object → dict (insertion order), Set → set, Starlark values unchanged.
 * Throws TypeError for anything else (functions, class instances, cycles).
 */
export function toStarlark(x: unknown): Value {
  return conv(x, []);
}

function conv(x: unknown, path: object[]): Value {
  switch (typeof x) {
    case "undefined":
      return None;
    case "boolean":
      return x;
    case "number":
      if (Number.isInteger(x)) return Number.isSafeInteger(x) ? x : normBig(BigInt(x));
      return new Float(x);
    case "bigint":
      return normBig(x);
    case "string":
      return toBytes(x);
    case "object": {
      if (x === null) return None;
      if (x instanceof SValue) return x;
      if (path.includes(x)) throw new TypeError("cannot convert a cyclic structure to Starlark");
      if (x instanceof Uint8Array)
        return new Bytes(Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString("latin1"));
      path.push(x);
      try {
        if (Array.isArray(x)) return new List(x.map((e) => conv(e, path)));
        if (x instanceof Map) {
          const d = new Dict();
          for (const [k, v] of x) d.setKey(conv(k, path), conv(v, path));
          return d;
        }
        if (x instanceof Set) {
          const s = new SetValue();
          for (const v of x) s.insert(conv(v, path));
          return s;
        }
        const proto = Object.getPrototypeOf(x);
        if (proto === Object.prototype || proto === null) {
          const d = new Dict();
          for (const [k, v] of Object.entries(x)) d.setKey(toBytes(k), conv(v, path));
          return d;
        }
      } finally {
        path.pop();
      }
      throw new TypeError(`cannot convert ${proto(x)} to Starlark`);
    }
    default:
      throw new TypeError(`cannot convert ${typeof x} to Starlark`);
  }
}

function proto(x: object): string {
  return x.constructor?.name ?? "object";
}

/** Options of {@link fromStarlark}. */
export interface FromStarlarkOptions {
  /** convert dicts with only string keys to plain objects (default true); otherwise to Maps */
  plainObjects?: boolean;
}

/**
 * Converts a Starlark value to host data: None → null, bool → boolean, int → number (bigint when
 * not a safe integer), float → number, string → string, bytes → Uint8Array, list/tuple/set → array,
 * dict → plain object (string keys) or Map, struct/module → plain object. Throws
 * {@link StarlarkError} for values with no data form (functions, ...) or cycles.
 */
export function fromStarlark(v: Value, opts: FromStarlarkOptions = {}): unknown {
  return back(v, opts.plainObjects ?? true, []);
}

function back(v: Value, plain: boolean, path: SValue[]): unknown {
  switch (typeof v) {
    case "number":
    case "bigint":
    case "boolean":
      return v;
    case "string":
      return fromBytes(v);
  }
  if (v === None) return null;
  if (v instanceof Float) return v.v;
  if (v instanceof Bytes) return Uint8Array.from(Buffer.from(v.s, "latin1"));
  if (path.includes(v)) throw new StarlarkError(`cannot convert a cyclic ${typeName(v)} to data`);
  path.push(v);
  try {
    if (v instanceof List || v instanceof Tuple) return v.elems.map((e) => back(e, plain, path));
    if (v instanceof SetValue) return v.elems().map((e) => back(e, plain, path));
    if (v instanceof Dict) {
      const items = v.items();
      if (plain && items.every(([k]) => typeof k === "string")) {
        const o: Record<string, unknown> = {};
        for (const [k, val] of items) o[fromBytes(k as string)] = back(val, plain, path);
        return o;
      }
      return new Map(items.map(([k, val]) => [back(k, plain, path), back(val, plain, path)]));
    }
    if (v instanceof Struct || v instanceof Module) {
      const o: Record<string, unknown> = {};
      for (const name of v.attrNames()) o[fromBytes(name)] = back(v.attr(name)!, plain, path);
      return o;
    }
  } finally {
    path.pop();
  }
  throw new StarlarkError(`cannot convert ${typeName(v)} to data`);
}
