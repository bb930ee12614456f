/**
 * Conversion between host (JS/YAML-shaped) data and Starlark values, both ways.
 */

import { fromBytes, toBytes } from "../internal/utf8.js";
import { Struct } from "./struct.js";
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
    case "string":
      return toBytes(x);
    case "number":
      if (Number.isInteger(x)) return Number.isSafeInteger(x) ? x : normBig(BigInt(x));
      return new Float(x);
    case "boolean":
      return x;
    case "undefined":
      return None;
    case "bigint":
      return normBig(x);
    case "object": {
      if (x === null) return None;
      if (x instanceof SValue) return x;
      const proto = Object.getPrototypeOf(x);
      if (proto === Object.prototype || proto === null) return convObject(x as Record<string, unknown>, path);
      if (Array.isArray(x)) {
        enter(x, path);
        const out = new Array<Value>(x.length);
        for (let i = 0; i < x.length; i++) out[i] = conv(x[i], path);
        path.pop();
        return new List(out);
      }
      if (x instanceof Uint8Array) {
        return new Bytes(Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString("latin1"));
      }
      if (x instanceof Map) {
        enter(x, path);
        const d = new Dict();
        for (const [k, v] of x) d.setKey(conv(k, path), conv(v, path));
        path.pop();
        return d;
      }
      if (x instanceof Set) {
        enter(x, path);
        const s = new SetValue();
        for (const v of x) s.insert(conv(v, path));
        path.pop();
        return s;
      }
      throw new TypeError(`cannot convert ${typeNameOf(x)} to Starlark`);
    }
    default:
      throw new TypeError(`cannot convert ${typeof x} to Starlark`);
  }
}

function enter(x: object, path: object[]): void {
  for (let i = 0; i < path.length; i++) {
    if (path[i] === x) throw new TypeError("cannot convert a cyclic structure to Starlark");
  }
  path.push(x);
}

function convObject(x: Record<string, unknown>, path: object[]): Dict {
  enter(x, path);
  const d = new Dict();
  const m = d.map;
  for (const k in x) {
    const key = toBytes(k);
    // keys of a plain object are distinct strings: insert without the generic checks
    m.set(key, { k: key, v: conv(x[k], path) });
  }
  path.pop();
  return d;
}

function typeNameOf(x: object): string {
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
    case "string":
      return fromBytes(v);
    case "number":
    case "bigint":
    case "boolean":
      return v;
  }
  if (v === None) return null;
  if (v instanceof Float) return v.v;
  if (v instanceof Bytes) return Uint8Array.from(Buffer.from(v.s, "latin1"));
  for (let i = 0; i < path.length; i++) {
    if (path[i] === v) throw new StarlarkError(`cannot convert a cyclic ${typeName(v)} to data`);
  }
  path.push(v);
  let out: unknown;
  if (v instanceof Dict) {
    let allStrings = plain;
    if (plain) {
      for (const e of v.map.values()) {
        if (typeof e.k !== "string") {
          allStrings = false;
          break;
        }
      }
    }
    if (allStrings) {
      const o: Record<string, unknown> = {};
      for (const e of v.map.values()) o[fromBytes(e.k as string)] = back(e.v, plain, path);
      out = o;
    } else {
      const m = new Map<unknown, unknown>();
      for (const e of v.map.values()) m.set(back(e.k, plain, path), back(e.v, plain, path));
      out = m;
    }
  } else if (v instanceof List || v instanceof Tuple) {
    const elems = v.elems;
    const a = new Array<unknown>(elems.length);
    for (let i = 0; i < elems.length; i++) a[i] = back(elems[i]!, plain, path);
    out = a;
  } else if (v instanceof SetValue) {
    out = v.elems().map((e) => back(e, plain, path));
  } else if (v instanceof Struct || v instanceof Module) {
    const o: Record<string, unknown> = {};
    for (const name of v.attrNames()) o[fromBytes(name)] = back(v.attr(name)!, plain, path);
    out = o;
  } else {
    throw new StarlarkError(`cannot convert ${typeName(v)} to data`);
  }
  path.pop();
  return out;
}
