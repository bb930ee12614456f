/**
 * The universal built-in functions (go.starlark.net's Universe in library.go): None, True, False,
 * abs, any, all, bool, bytes, chr, dict, dir, enumerate, fail, float, getattr, hasattr, hash, int,
 * len, list, max, min, ord, print, range, repr, reversed, set, sorted, str, tuple, type, zip.
 */

import { decodeRune, encodeRune, fromBytes, runeCount, runes, utf8Transcode } from "../internal/utf8.js";
import { toBool, toCallable, toInt, toIterable, toStr, unpackArgs, unpackPositional } from "./args.js";
import { callValue, type Thread } from "./thread.js";
import {
  asInt32,
  Builtin,
  type BuiltinFn,
  Bytes,
  chargeIntText,
  compare,
  Dict,
  Float,
  fail,
  getAttr,
  type Int,
  intNeg,
  isInt,
  iterate,
  type Kwargs,
  List,
  length,
  None,
  NoSuchAttrError,
  normBig,
  numberToInt,
  Range,
  repr,
  SetValue,
  StarlarkError,
  str,
  Tuple,
  toArray,
  truth,
  typeName,
  type Value,
  attrNames as valueAttrNames,
} from "./values.js";

/** Iterates an iterable, charging one step per element. */
export function forEach(th: Thread, x: Value, f: (v: Value) => void): void {
  const it = iterate(x)!;
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      if (++th.steps > th.nextCheck) th.stepLimit();
      f(v);
    }
  } finally {
    it.done();
  }
}

/** The elements of an iterable, charging steps and memory. */
export function collect(th: Thread, x: Value): Value[] {
  if (x instanceof List || x instanceof Tuple) {
    th.charge(x.elems.length);
    th.alloc(8 * x.elems.length);
    return x.elems.slice();
  }
  const out: Value[] = [];
  forEach(th, x, (v) => {
    out.push(v);
  });
  th.alloc(8 * out.length);
  return out;
}

const abs: BuiltinFn = (_th, args, kwargs) => {
  const [x] = unpackPositional("abs", args, kwargs, 1, [undefined]) as [Value];
  if (x instanceof Float) return new Float(Math.abs(x.v));
  if (isInt(x)) return x < 0 ? intNeg(x) : x;
  return fail(`got ${typeName(x)}, want int or float`);
};

const all: BuiltinFn = (th, args, kwargs) => {
  const [x] = unpackPositional("all", args, kwargs, 1, [toIterable]) as [Value];
  let res = true;
  const it = iterate(x)!;
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      th.charge(1);
      if (!truth(v)) {
        res = false;
        break;
      }
    }
  } finally {
    it.done();
  }
  return res;
};

const any: BuiltinFn = (th, args, kwargs) => {
  const [x] = unpackPositional("any", args, kwargs, 1, [toIterable]) as [Value];
  let res = false;
  const it = iterate(x)!;
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      th.charge(1);
      if (truth(v)) {
        res = true;
        break;
      }
    }
  } finally {
    it.done();
  }
  return res;
};

const bool: BuiltinFn = (_th, args, kwargs) => {
  const [x] = unpackPositional("bool", args, kwargs, 0, [undefined]) as [Value | undefined];
  return x === undefined ? false : truth(x);
};

const bytes: BuiltinFn = (th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("bytes does not accept keyword arguments");
  if (args.length !== 1) fail(`bytes: got ${args.length} arguments, want exactly 1`);
  const x = args[0]!;
  if (x instanceof Bytes) return x;
  if (typeof x === "string") return new Bytes(utf8Transcode(x));
  if (typeof x === "object" && x.iterate !== undefined) {
    let out = "";
    let i = 0;
    forEach(th, x, (e) => {
      if (!isInt(e)) fail(`bytes: at index ${i}, got ${typeName(e)}, want int`);
      if (typeof e === "bigint" || e < 0 || e > 255) {
        fail(`bytes: at index ${i}, ${String(e)} out of range (want value in unsigned 8-bit range)`);
      }
      out += String.fromCharCode(e);
      i++;
    });
    return new Bytes(out);
  }
  return fail(`bytes: got ${typeName(x)}, want string, bytes, or iterable of ints`);
};

const chr: BuiltinFn = (_th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("chr does not accept keyword arguments");
  if (args.length !== 1) fail(`chr: got ${args.length} arguments, want 1`);
  let i: number;
  try {
    i = asInt32(args[0]!);
  } catch (e) {
    return fail(`chr: ${(e as Error).message}`);
  }
  if (i < 0) fail(`chr: Unicode code point ${i} out of range (<0)`);
  if (i > 0x10ffff)
    fail(`chr: Unicode code point U+${i.toString(16).toUpperCase()} out of range (>0x10FFFF)`);
  return encodeRune(i);
};

/** Updates a dict from an optional positional argument and keyword arguments (updateDict). */
export function updateDict(th: Thread, dict: Dict, updates: Value[], kwargs: Kwargs | null): void {
  if (updates.length === 1) {
    const u = updates[0]!;
    if (typeof u === "object" && u.items !== undefined && u.get !== undefined) {
      for (const [k, v] of u.items()) dict.setKey(k, v);
    } else {
      if (typeof u !== "object" || u.iterate === undefined) fail(`got ${typeName(u)}, want iterable`);
      let i = 0;
      forEach(th, u, (pair) => {
        if (typeof pair !== "object" || pair.iterate === undefined) {
          fail(`dictionary update sequence element #${i} is not iterable (${typeName(pair)})`);
        }
        const n = length(pair);
        if (n < 0) fail(`dictionary update sequence element #${i} has unknown length (${typeName(pair)})`);
        if (n !== 2) fail(`dictionary update sequence element #${i} has length ${n}, want 2`);
        const kv = toArray(pair);
        dict.setKey(kv[0]!, kv[1]!);
        i++;
      });
    }
  }
  if (kwargs !== null && kwargs.length > 0) {
    const before = dict.map.size;
    for (const [k, v] of kwargs) dict.setKey(k, v);
    if (dict.map.size < before + kwargs.length) {
      const seen = new Set<string>();
      for (const [k] of kwargs) {
        if (seen.has(k)) fail(`duplicate keyword arg: ${repr(k)}`);
        seen.add(k);
      }
    }
  }
  th.alloc(48 * dict.map.size);
}

const dict: BuiltinFn = (th, args, kwargs) => {
  if (args.length > 1) fail(`dict: got ${args.length} arguments, want at most 1`);
  const d = new Dict();
  try {
    updateDict(th, d, args, kwargs);
  } catch (e) {
    if (e instanceof StarlarkError && !e.message.startsWith("Starlark computation cancelled")) {
      throw new StarlarkError(`dict: ${e.message}`);
    }
    throw e;
  }
  return d;
};

const dir: BuiltinFn = (_th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("dir does not accept keyword arguments");
  if (args.length !== 1) fail(`dir: got ${args.length} arguments, want 1`);
  return new List(valueAttrNames(args[0]!));
};

const enumerate: BuiltinFn = (th, args, kwargs) => {
  const [x, start] = unpackPositional("enumerate", args, kwargs, 1, [toIterable, toInt]) as [Value, number?];
  const s = start ?? 0;
  const out: Value[] = [];
  let i = 0;
  forEach(th, x, (v) => {
    out.push(new Tuple([s + i, v]));
    i++;
  });
  th.alloc(40 * out.length);
  return new List(out);
};

const failFn: BuiltinFn = (_th, args, kwargs) => {
  const [sep] = unpackArgs("fail", [], kwargs, [["sep?", toStr]]) as [string?];
  const parts = args.map((v) => str(v));
  throw new StarlarkError(`fail: ${parts.join(sep ?? " ")}`);
};

// Go's strconv.ParseFloat syntax: decimal or hexadecimal (mandatory p exponent), '_' between digits.
const DEC_FLOAT_RE = /^[+-]?(?:[0-9_]+(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][+-]?[0-9_]+)?$/;
const HEX_FLOAT_RE = /^[+-]?0[xX](?:[0-9a-fA-F_]+(?:\.[0-9a-fA-F_]*)?|\.[0-9a-fA-F_]+)[pP][+-]?[0-9_]+$/;

/** Go's strconv underscoreOK: each '_' lies between digits (or after a base prefix and before a digit). */
function underscoreOK(s: string): boolean {
  let i = s[0] === "+" || s[0] === "-" ? 1 : 0;
  let saw = "^";
  let hex = false;
  if (s.length - i >= 2 && s[i] === "0" && "bBoOxX".includes(s[i + 1]!)) {
    hex = s[i + 1] === "x" || s[i + 1] === "X";
    i += 2;
    saw = "0";
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= "0" && c <= "9") || (hex && /[a-fA-F]/.test(c))) saw = "0";
    else if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
    } else if (saw === "_") return false;
    else saw = "!";
  }
  return saw !== "_";
}

/** The double nearest to m × 2^e (m ≥ 0), ties to even, Infinity past the largest. */
function scaledBigToDouble(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const bits = m.toString(2).length;
  // Keep 53 significant bits, or fewer where the result is subnormal (unit 2^-1074).
  const shift = Math.max(bits - 53, -1074 - e);
  if (shift > 0) {
    const b = BigInt(shift);
    const q = m >> b;
    const r = m - (q << b);
    const half = 1n << (b - 1n);
    m = r > half || (r === half && (q & 1n) === 1n) ? q + 1n : q;
    e += shift;
  }
  if (e > 1023) return Infinity;
  // m < 2^54 and e ≥ -1074: two exact power-of-two scalings.
  return Number(m) * 2 ** Math.max(e, -1022) * 2 ** Math.min(e + 1022, 0);
}

/** Parses a float literal as go.starlark.net's float(string) does (Go's strconv.ParseFloat). */
export function parseFloatString(s: string): number {
  if (s === "") fail("float: empty string");
  const lower = s.toLowerCase();
  if (lower === "infinity" || lower === "+infinity" || lower === "inf" || lower === "+inf") return Infinity;
  if (lower === "-infinity" || lower === "-inf") return -Infinity;
  if (lower === "nan" || lower === "+nan" || lower === "-nan") return Number.NaN;
  let f: number;
  if (DEC_FLOAT_RE.test(s) && underscoreOK(s)) {
    f = Number(s.replaceAll("_", ""));
  } else if (HEX_FLOAT_RE.test(s) && underscoreOK(s)) {
    const t = s.replaceAll("_", "");
    const neg = t[0] === "-";
    const body = t.slice(t[0] === "+" || t[0] === "-" ? 3 : 2);
    const p = body.search(/[pP]/);
    const mant = body.slice(0, p);
    const dot = mant.indexOf(".");
    const digits = dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
    const fracDigits = dot < 0 ? 0 : mant.length - dot - 1;
    // Clamp the exponent: beyond this the result is 0 or Infinity whatever the digits.
    const exp = Math.max(-1e6, Math.min(1e6, Number(body.slice(p + 1))));
    const v = scaledBigToDouble(BigInt(`0x${digits}`), exp - 4 * fracDigits);
    f = neg ? -v : v;
  } else {
    return fail(`invalid float literal: ${s}`);
  }
  if (!Number.isFinite(f)) fail("floating-point number too large");
  return f;
}

const float: BuiltinFn = (_th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("float does not accept keyword arguments");
  if (args.length === 0) return new Float(0);
  if (args.length !== 1) fail(`float got ${args.length} arguments, wants 1`);
  const x = args[0]!;
  if (typeof x === "boolean") return new Float(x ? 1 : 0);
  if (isInt(x)) {
    const f = Number(x);
    if (!Number.isFinite(f)) fail("int too large to convert to float");
    return new Float(f);
  }
  if (x instanceof Float) return x;
  if (typeof x === "string") return new Float(parseFloatString(x));
  return fail(`float got ${typeName(x)}, want number or string`);
};

const getattr: BuiltinFn = (_th, args, kwargs) => {
  const [obj, name, dflt] = unpackPositional("getattr", args, kwargs, 2, [undefined, toStr, undefined]) as [
    Value,
    string,
    Value | undefined,
  ];
  if (typeof obj === "string" || (typeof obj === "object" && obj.attr !== undefined)) {
    let v: Value | undefined;
    try {
      v = typeof obj === "string" ? getAttrOrUndefined(obj, name) : obj.attr!(name);
    } catch (e) {
      if (dflt !== undefined) return dflt;
      if (e instanceof StarlarkError) throw new StarlarkError(`getattr: ${e.message}`);
      throw e;
    }
    if (v !== undefined) return v;
  }
  if (dflt !== undefined) return dflt;
  return fail(`getattr: ${typeName(obj)} has no .${name} field or method`);
};

function getAttrOrUndefined(x: Value, name: string): Value | undefined {
  try {
    return getAttr(x, name);
  } catch {
    return undefined;
  }
}

const hasattr: BuiltinFn = (_th, args, kwargs) => {
  const [obj, name] = unpackPositional("hasattr", args, kwargs, 2, [undefined, toStr]) as [Value, string];
  if (typeof obj === "string") return getAttrOrUndefined(obj, name) !== undefined;
  if (typeof obj === "object" && obj.attr !== undefined) {
    try {
      return obj.attr(name) !== undefined;
    } catch (e) {
      if (e instanceof NoSuchAttrError || e instanceof StarlarkError) {
        return (obj.attrNames?.() ?? []).includes(name);
      }
      throw e;
    }
  }
  return false;
};

/** Java's String.hashCode over the UTF-16 encoding of a byte string's runes (as go.starlark.net). */
export function javaStringHash(s: string): number {
  let h = 0;
  for (const r of runes(s)) {
    if (r >= 0x10000) {
      const v = r - 0x10000;
      h = (Math.imul(h, 31) + (0xd800 + (v >> 10))) | 0;
      h = (Math.imul(h, 31) + (0xdc00 + (v & 0x3ff))) | 0;
    } else {
      h = (Math.imul(h, 31) + r) | 0;
    }
  }
  return h;
}

/** 32-bit FNV-1a of a byte string. */
export function fnv32a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const hash: BuiltinFn = (_th, args, kwargs) => {
  const [x] = unpackPositional("hash", args, kwargs, 1, [undefined]) as [Value];
  if (typeof x === "string") return javaStringHash(x);
  if (x instanceof Bytes) return fnv32a(x.s);
  return fail(`hash: got ${typeName(x)}, want string or bytes`);
};

function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41 + 10;
  return 99;
}

/** Parses digits in a base (big.Int SetString without prefix handling); null if invalid. */
function parseDigits(s: string, base: number): Int | null {
  if (s === "") return null;
  for (let i = 0; i < s.length; i++) if (digitValue(s.charCodeAt(i)) >= base) return null;
  if (s.length < 16 && base === 10) return Number(s);
  chargeIntText(Math.ceil((s.length * Math.log2(base)) / 64));
  if (base === 10) return normBig(BigInt(s));
  if (base === 16) return normBig(BigInt(`0x${s}`));
  if (base === 8) return normBig(BigInt(`0o${s}`));
  if (base === 2) return normBig(BigInt(`0b${s}`));
  // Other bases: halves combined by multiplication (V8's fast multiply), not digit by digit.
  const b = BigInt(base);
  const parse = (t: string): bigint => {
    if (t.length <= 8) return BigInt(Number.parseInt(t, base));
    const mid = t.length >> 1;
    return parse(t.slice(0, mid)) * b ** BigInt(t.length - mid) + parse(t.slice(mid));
  };
  return normBig(parse(s));
}

/** int(string, base) as go.starlark.net's parseInt; null if invalid. */
export function parseIntString(s: string, base: number): Int | null {
  let neg = false;
  if (s !== "") {
    if (s[0] === "+") s = s.slice(1);
    else if (s[0] === "-") {
      neg = true;
      s = s.slice(1);
    }
  }
  let baseprefix = 0;
  if (s.length > 1 && s[0] === "0") {
    if (s.length > 2) {
      const c = s[1];
      if (c === "o" || c === "O") baseprefix = 8;
      else if (c === "x" || c === "X") baseprefix = 16;
      else if (c === "b" || c === "B") baseprefix = 2;
    }
    if (baseprefix !== 0) {
      if (base === 0 || baseprefix === base) {
        base = baseprefix;
        s = s.slice(2);
      }
    } else if (base === 0) {
      for (let i = 1; i < s.length; i++) if (s[i] !== "0") return null;
      return 0;
    }
  }
  if (base === 0) base = 10;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) return null;
  const v = parseDigits(s, base);
  if (v === null) return null;
  return neg ? intNeg(v) : v;
}

const int: BuiltinFn = (_th, args, kwargs) => {
  const [x, base] = unpackArgs("int", args, kwargs, ["x", "base?"]) as [Value, Value | undefined];
  if (typeof x === "string") {
    let b = 10;
    if (base !== undefined) {
      try {
        b = asInt32(base);
      } catch {
        return fail(`int: for base, got ${typeName(base)}, want int`);
      }
      if (b !== 0 && (b < 2 || b > 36)) fail("int: base must be an integer >= 2 && <= 36");
    }
    const res = parseIntString(x, b);
    if (res === null) fail(`int: invalid literal with base ${b}: ${x}`);
    return res;
  }
  if (base !== undefined) fail("int: can't convert non-string with explicit base");
  if (typeof x === "boolean") return x ? 1 : 0;
  try {
    return numberToInt(x);
  } catch (e) {
    return fail(`int: ${(e as Error).message}`);
  }
};

const len: BuiltinFn = (_th, args, kwargs) => {
  const [x] = unpackPositional("len", args, kwargs, 1, [undefined]) as [Value];
  const n = length(x);
  if (n < 0) fail(`len: value of type ${typeName(x)} has no len`);
  return x instanceof Range ? x.exactLen() : n;
};

const list: BuiltinFn = (th, args, kwargs) => {
  const [x] = unpackPositional("list", args, kwargs, 0, [toIterable]) as [Value?];
  return new List(x === undefined ? [] : collect(th, x));
};

const minmax: BuiltinFn = (th, args, kwargs, _recv, name) => {
  if (args.length === 0) fail(`${name} requires at least one positional argument`);
  const [key] = unpackArgs(name, [], kwargs, [["key?", toCallable]]) as [Value?];
  const op = name === "max" ? 34 /* GT */ : 33; /* LT */
  const iterable = args.length === 1 ? args[0]! : new Tuple(args);
  const it = iterate(iterable);
  if (it === null) fail(`${name}: ${typeName(iterable)} value is not iterable`);
  try {
    let extremum = it.next();
    if (extremum === undefined) fail(`${name}: argument is an empty sequence`);
    let extremeKey = key === undefined ? extremum : callValue(th, key, [extremum], null);
    for (let x = it.next(); x !== undefined; x = it.next()) {
      th.charge(1);
      const k = key === undefined ? x : callValue(th, key, [x], null);
      let ok: boolean;
      try {
        ok = compare(op, k, extremeKey);
      } catch (e) {
        return fail(`${name}: ${(e as Error).message}`);
      }
      if (ok) {
        extremum = x;
        extremeKey = k;
      }
    }
    return extremum;
  } finally {
    it.done();
  }
};

const ord: BuiltinFn = (_th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("ord does not accept keyword arguments");
  if (args.length !== 1) fail(`ord: got ${args.length} arguments, want 1`);
  const x = args[0]!;
  if (typeof x === "string") {
    const r = decodeRune(x, 0);
    if (r.size === 0 || r.size !== x.length)
      fail(`ord: string encodes ${runeCount(x)} Unicode code points, want 1`);
    return r.r;
  }
  if (x instanceof Bytes) {
    if (x.s.length !== 1) fail(`ord: bytes has length ${x.s.length}, want 1`);
    return x.s.charCodeAt(0);
  }
  return fail(`ord: got ${typeName(x)}, want string or bytes`);
};

const print: BuiltinFn = (th, args, kwargs) => {
  const [sep] = unpackArgs("print", [], kwargs, [["sep?", toStr]]) as [string?];
  const parts = args.map((v) => (v instanceof Bytes ? v.s : str(v)));
  const msg = parts.join(sep ?? " ");
  if (th.printBytes !== null) th.printBytes(th, msg);
  else th.print?.(th, fromBytes(msg));
  return None;
};

const range: BuiltinFn = (_th, args, kwargs, _recv, name) => {
  const [a, b, c] = unpackPositional("range", args, kwargs, 1, [toInt, toInt, toInt]) as [
    number,
    number?,
    number?,
  ];
  let start = a;
  let stop = b ?? 0;
  const step = c ?? 1;
  if (args.length === 1) {
    start = 0;
    stop = a;
  }
  if (step === 0) fail(`${name}: step argument must not be zero`);
  return new Range(start, stop, step);
};

const reprFn: BuiltinFn = (_th, args, kwargs) => {
  const [x] = unpackPositional("repr", args, kwargs, 1, [undefined]) as [Value];
  return repr(x);
};

const reversed: BuiltinFn = (th, args, kwargs) => {
  const [x] = unpackPositional("reversed", args, kwargs, 1, [toIterable]) as [Value];
  return new List(collect(th, x).reverse());
};

const set: BuiltinFn = (th, args, kwargs) => {
  const [x] = unpackPositional("set", args, kwargs, 0, [toIterable]) as [Value?];
  const s = new SetValue();
  if (x !== undefined) {
    forEach(th, x, (v) => {
      try {
        s.insert(v);
      } catch (e) {
        if (e instanceof StarlarkError) throw new StarlarkError(`set: ${e.message}`);
        throw e;
      }
    });
    th.alloc(40 * s.map.size);
  }
  return s;
};

// Go's sort.Stable (insertion sort blocks + SymMerge), so comparison errors match go.starlark.net.
interface SortData {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

function insertionSort(d: SortData, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) for (let j = i; j > a && d.less(j, j - 1); j--) d.swap(j, j - 1);
}

function swapRange(d: SortData, a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) d.swap(a + i, b + i);
}

function rotate(d: SortData, a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(d, m - i, m, j);
      i -= j;
    } else {
      swapRange(d, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(d, m - i, m, i);
}

function symMerge(d: SortData, a: number, m: number, b: number): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (d.less(h, a)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) d.swap(k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!d.less(m, h)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) d.swap(k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!d.less(p - c, c)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(d, start, m, end);
  if (a < start && start < mid) symMerge(d, a, start, mid);
  if (mid < end && end < b) symMerge(d, mid, end, b);
}

function goStableSort(d: SortData, n: number): void {
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(d, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(d, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(d, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(d, a, m, n);
    blockSize *= 2;
  }
}

/** Sorts values stably by keys (or themselves) as go.starlark.net's sorted does. */
export function sortValues(th: Thread, values: Value[], keys: Value[] | null, reverse: boolean): Value[] {
  const n = values.length;
  th.charge(n > 1 ? Math.ceil(n * Math.log2(n)) : 0);
  const ks = keys ?? values;
  const idx = values.map((_, i) => i);
  try {
    idx.sort((i, j) => {
      const a = ks[i]!;
      const b = ks[j]!;
      const lt = reverse ? compare(33, b, a) : compare(33, a, b);
      if (lt) return -1;
      const gt = reverse ? compare(33, a, b) : compare(33, b, a);
      return gt ? 1 : 0;
    });
    return idx.map((i) => values[i]!);
  } catch (e) {
    if (!(e instanceof StarlarkError)) throw e;
  }
  // Replay Go's algorithm to report the error go.starlark.net reports (the last one).
  const vs = values.slice();
  const kk = ks.slice();
  let err: Error | null = null;
  const data: SortData = {
    less(i, j) {
      try {
        return reverse ? compare(33, kk[j]!, kk[i]!) : compare(33, kk[i]!, kk[j]!);
      } catch (e) {
        err = e as Error;
        return false;
      }
    },
    swap(i, j) {
      [vs[i], vs[j]] = [vs[j]!, vs[i]!];
      if (keys !== null) [kk[i], kk[j]] = [kk[j]!, kk[i]!];
    },
  };
  goStableSort(data, n);
  if (err !== null) throw err;
  return vs;
}

const sorted: BuiltinFn = (th, args, kwargs) => {
  const [x, key, reverse] = unpackArgs("sorted", args, kwargs, [
    ["iterable", toIterable],
    ["key?", toCallable],
    ["reverse?", toBool],
  ]) as [Value, Value?, boolean?];
  const values = collect(th, x);
  let keys: Value[] | null = null;
  if (key !== undefined) {
    // As go.starlark.net, the iterable is still being iterated while keys are computed:
    // a key function cannot mutate it.
    const it = iterate(x)!;
    try {
      keys = values.map((v) => callValue(th, key, [v], null));
    } finally {
      it.done();
    }
  }
  return new List(sortValues(th, values, keys, reverse ?? false));
};

const strFn: BuiltinFn = (th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("str does not accept keyword arguments");
  if (args.length !== 1) fail(`str: got ${args.length} arguments, want exactly 1`);
  const x = args[0]!;
  if (typeof x === "string") return x;
  if (x instanceof Bytes) return utf8Transcode(x.s);
  const s = str(x);
  th.alloc(s.length);
  return s;
};

const tuple: BuiltinFn = (th, args, kwargs) => {
  const [x] = unpackPositional("tuple", args, kwargs, 0, [toIterable]) as [Value?];
  if (x === undefined) return new Tuple([]);
  if (x instanceof Tuple) return x;
  return new Tuple(collect(th, x));
};

const type: BuiltinFn = (_th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("type does not accept keyword arguments");
  if (args.length !== 1) fail(`type: got ${args.length} arguments, want exactly 1`);
  return typeName(args[0]!);
};

const zip: BuiltinFn = (th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("zip does not accept keyword arguments");
  const cols = args.length;
  const iters: ReturnType<typeof iterate>[] = [];
  try {
    let rows = 0;
    for (let i = 0; i < cols; i++) {
      const it = iterate(args[i]!);
      if (it === null) fail(`zip: argument #${i + 1} is not iterable: ${typeName(args[i]!)}`);
      iters.push(it);
      const n = length(args[i]!);
      if (i === 0 || n < rows) rows = n;
    }
    const result: Value[] = [];
    if (cols === 0) return new List(result);
    for (;;) {
      if (rows >= 0 && result.length >= rows) break;
      const t: Value[] = new Array(cols);
      for (let j = 0; j < cols; j++) {
        const v = iters[j]!.next();
        if (v === undefined) return new List(result);
        t[j] = v;
      }
      th.charge(1);
      result.push(new Tuple(t));
    }
    th.alloc(8 * cols * result.length);
    return new List(result);
  } finally {
    for (const it of iters) it?.done();
  }
};

/** The universal built-ins, by name. */
export const UNIVERSE: ReadonlyMap<string, Value> = new Map<string, Value>([
  ["None", None],
  ["True", true],
  ["False", false],
  ["abs", new Builtin("abs", abs)],
  ["any", new Builtin("any", any)],
  ["all", new Builtin("all", all)],
  ["bool", new Builtin("bool", bool)],
  ["bytes", new Builtin("bytes", bytes)],
  ["chr", new Builtin("chr", chr)],
  ["dict", new Builtin("dict", dict)],
  ["dir", new Builtin("dir", dir)],
  ["enumerate", new Builtin("enumerate", enumerate)],
  ["fail", new Builtin("fail", failFn)],
  ["float", new Builtin("float", float)],
  ["getattr", new Builtin("getattr", getattr)],
  ["hasattr", new Builtin("hasattr", hasattr)],
  ["hash", new Builtin("hash", hash)],
  ["int", new Builtin("int", int)],
  ["len", new Builtin("len", len)],
  ["list", new Builtin("list", list)],
  ["max", new Builtin("max", minmax)],
  ["min", new Builtin("min", minmax)],
  ["ord", new Builtin("ord", ord)],
  ["print", new Builtin("print", print)],
  ["range", new Builtin("range", range)],
  ["repr", new Builtin("repr", reprFn)],
  ["reversed", new Builtin("reversed", reversed)],
  ["set", new Builtin("set", set)],
  ["sorted", new Builtin("sorted", sorted)],
  ["str", new Builtin("str", strFn)],
  ["tuple", new Builtin("tuple", tuple)],
  ["type", new Builtin("type", type)],
  ["zip", new Builtin("zip", zip)],
]);
