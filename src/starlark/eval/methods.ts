/**
 * Methods of the built-in types — string, bytes, list, dict, set — and string formatting (`%` and
 * str.format), as go.starlark.net's library.go defines them, with its error messages.
 */

import {
  decodeLastRune,
  decodeRune,
  encodeRune,
  isAscii,
  isCasedRune,
  isDigit,
  isLetter,
  isLower,
  isSpace,
  isTitle,
  isUpper,
  mapRunes,
  type Rune,
  runeCount,
  toLowerRune,
  toTitleRune,
  toUpperRune,
} from "../internal/utf8.js";
import { toBool, toInt, toIterable, toStr, unpackPositional } from "./args.js";
import { collect, forEach, updateDict } from "./builtins.js";
import { listExtend } from "./eval.js";
import type { Thread } from "./thread.js";
import {
  asFloat,
  asInt32,
  Builtin,
  type BuiltinFn,
  type Bytes,
  type Dict,
  equal,
  fail,
  formatFloatConv,
  type Iter,
  interpolateHook,
  intText,
  isIterable,
  type Kwargs,
  List,
  METHODS,
  None,
  numberToInt,
  repr,
  SetValue,
  StarlarkError,
  SValue,
  Tuple,
  typeName,
  type Value,
  WORK_UNIT,
} from "./values.js";

function nameErr(name: string, e: unknown): never {
  if (e instanceof StarlarkError) throw new StarlarkError(`${name}: ${e.message}`);
  throw e;
}

function noArgs(name: string, args: Value[], kwargs: Kwargs | null): void {
  unpackPositional(name, args, kwargs, 0, []);
}

/** indices(start, end, len) for positive strides (go.starlark.net's indices). */
function indices(start: Value | undefined, end: Value | undefined, len: number): [number, number] {
  let s = 0;
  if (start !== undefined && start !== None) {
    try {
      s = asInt32(start);
    } catch (e) {
      fail(`invalid start index: ${(e as Error).message}`);
    }
    if (s < 0) s += len;
  }
  s = s < 0 ? 0 : Math.min(s, len);
  let e = len;
  if (end !== undefined && end !== None) {
    try {
      e = asInt32(end);
    } catch (err) {
      fail(`invalid end index: ${(err as Error).message}`);
    }
    if (e < 0) e += len;
  }
  e = e < 0 ? 0 : Math.min(e, len);
  return [s, e];
}

// ---- strings ----

const ASCII_SPACE = /[\t\n\v\f\r ]/;

function isSpaceAt(s: string, i: number, r: Rune): boolean {
  decodeRune(s, i, r);
  return isSpace(r.r);
}

/** strings.Fields: splits around runs of Unicode white space. */
function fields(s: string): string[] {
  if (isAscii(s)) return s.split(/[\t\n\v\f\r ]+/).filter((x) => x !== "");
  const out: string[] = [];
  const r: Rune = { r: 0, size: 0 };
  let start = -1;
  for (let i = 0; i < s.length; ) {
    const sp = isSpaceAt(s, i, r);
    if (sp) {
      if (start >= 0) {
        out.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
    i += r.size;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

function splitspace(s: string, max: number): string[] {
  const res: string[] = [];
  const r: Rune = { r: 0, size: 0 };
  let start = -1;
  for (let i = 0; i < s.length; ) {
    const sp = isSpaceAt(s, i, r);
    if (sp) {
      if (start >= 0) {
        if (res.length === max) break;
        res.push(s.slice(start, i));
        start = -1;
      }
    } else if (start === -1) {
      start = i;
    }
    i += r.size;
  }
  if (start >= 0) res.push(s.slice(start));
  return res;
}

function rsplitspace(s: string, max: number): string[] {
  const res: string[] = [];
  const r: Rune = { r: 0, size: 0 };
  let end = -1;
  for (let i = s.length; i > 0; ) {
    decodeLastRune(s, i, r);
    if (isSpace(r.r)) {
      if (end >= 0) {
        if (res.length === max) break;
        res.push(s.slice(i, end));
        end = -1;
      }
    } else if (end < 0) {
      end = i;
    }
    i -= r.size;
  }
  if (end >= 0) res.push(s.slice(0, end));
  return res.reverse();
}

function trimLeftSpace(s: string): string {
  const r: Rune = { r: 0, size: 0 };
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (!ASCII_SPACE.test(s[i]!)) break;
      i++;
      continue;
    }
    if (!isSpaceAt(s, i, r)) break;
    i += r.size;
  }
  return s.slice(i);
}

function trimRightSpace(s: string): string {
  const r: Rune = { r: 0, size: 0 };
  let i = s.length;
  while (i > 0) {
    const c = s.charCodeAt(i - 1);
    if (c < 0x80) {
      if (!ASCII_SPACE.test(s[i - 1]!)) break;
      i--;
      continue;
    }
    decodeLastRune(s, i, r);
    if (!isSpace(r.r)) break;
    i -= r.size;
  }
  return s.slice(0, i);
}

function cutsetHas(cutset: string): (s: string, i: number, r: Rune) => boolean {
  if (isAscii(cutset)) {
    return (s, i, r) => {
      r.size = 1;
      return cutset.includes(s[i]!);
    };
  }
  const set = new Set<number>();
  const rr: Rune = { r: 0, size: 0 };
  for (let i = 0; i < cutset.length; ) {
    decodeRune(cutset, i, rr);
    set.add(rr.r);
    i += rr.size;
  }
  return (s, i, r) => {
    decodeRune(s, i, r);
    return set.has(r.r);
  };
}

function trimLeft(s: string, cutset: string): string {
  const has = cutsetHas(cutset);
  const r: Rune = { r: 0, size: 0 };
  let i = 0;
  while (i < s.length && has(s, i, r)) i += r.size;
  return s.slice(i);
}

function trimRight(s: string, cutset: string): string {
  if (isAscii(cutset)) {
    let i = s.length;
    while (i > 0 && cutset.includes(s[i - 1]!)) i--;
    return s.slice(0, i);
  }
  const has = cutsetHas(cutset);
  const r: Rune = { r: 0, size: 0 };
  let i = s.length;
  while (i > 0) {
    decodeLastRune(s, i, r);
    const start = i - r.size;
    const rr: Rune = { r: 0, size: 0 };
    if (!has(s, start, rr)) break;
    i = start;
  }
  return s.slice(0, i);
}

/** strings.Count (non-overlapping; empty sub counts runes + 1). */
function countSub(s: string, sub: string): number {
  if (sub === "") return runeCount(s) + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

/** strings.Replace with a count (-1: all). */
function replace(s: string, old: string, nw: string, count: number): string {
  if (count === 0 || old === nw) return s;
  if (old === "") {
    let out = "";
    let n = 0;
    const r: Rune = { r: 0, size: 0 };
    let i = 0;
    while (i <= s.length) {
      if (count >= 0 && n >= count) {
        out += s.slice(i);
        break;
      }
      out += nw;
      n++;
      if (i === s.length) break;
      decodeRune(s, i, r);
      out += s.slice(i, i + r.size);
      i += r.size;
    }
    return out;
  }
  if (count < 0) return s.split(old).join(nw);
  let out = "";
  let i = 0;
  for (let n = 0; n < count; n++) {
    const j = s.indexOf(old, i);
    if (j < 0) break;
    out += s.slice(i, j) + nw;
    i = j + old.length;
  }
  return out + s.slice(i);
}

function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (out.length < n - 1) {
    const j = s.indexOf(sep, i);
    if (j < 0) break;
    out.push(s.slice(i, j));
    i = j + sep.length;
  }
  out.push(s.slice(i));
  return out;
}

function lower(s: string): string {
  return isAscii(s) ? s.toLowerCase() : mapRunes(s, toLowerRune);
}

function upper(s: string): string {
  return isAscii(s) ? s.toUpperCase() : mapRunes(s, toUpperRune);
}

function isCasedString(s: string): boolean {
  const r: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    decodeRune(s, i, r);
    if (isCasedRune(r.r)) return true;
    i += r.size;
  }
  return false;
}

function everyRune(s: string, f: (r: number) => boolean): boolean {
  const r: Rune = { r: 0, size: 0 };
  for (let i = 0; i < s.length; ) {
    decodeRune(s, i, r);
    if (!f(r.r)) return false;
    i += r.size;
  }
  return s !== "";
}

const recvStr = (recv: Value) => recv as string;

class StringElems extends SValue {
  constructor(
    readonly s: string,
    readonly ords: boolean,
  ) {
    super();
  }
  typeName(): string {
    return "string.elems";
  }
  override repr(): string {
    return `${repr(this.s)}${this.ords ? ".elem_ords()" : ".elems()"}`;
  }
  override hashKey(): never {
    return fail(`unhashable: ${this.typeName()}`);
  }
  override len(): number {
    return this.s.length;
  }
  override index(i: number): Value {
    return this.ords ? this.s.charCodeAt(i) : this.s[i]!;
  }
  override iterate(): Iter {
    let i = 0;
    const s = this.s;
    const ords = this.ords;
    return {
      next: () => (i < s.length ? (ords ? s.charCodeAt(i++) : s[i++]!) : undefined),
      done: () => {},
    };
  }
}

class StringCodepoints extends SValue {
  constructor(
    readonly s: string,
    readonly ords: boolean,
  ) {
    super();
  }
  typeName(): string {
    return "string.codepoints";
  }
  override repr(): string {
    return `${repr(this.s)}${this.ords ? ".codepoint_ords()" : ".codepoints()"}`;
  }
  override hashKey(): never {
    return fail(`unhashable: ${this.typeName()}`);
  }
  override iterate(): Iter {
    let i = 0;
    const s = this.s;
    const ords = this.ords;
    const r: Rune = { r: 0, size: 0 };
    return {
      next: () => {
        if (i >= s.length) return undefined;
        decodeRune(s, i, r);
        const start = i;
        i += r.size;
        if (ords) return r.r;
        return r.r === 0xfffd ? "\xef\xbf\xbd" : s.slice(start, i);
      },
      done: () => {},
    };
  }
}

class BytesElems extends SValue {
  constructor(readonly b: Bytes) {
    super();
  }
  typeName(): string {
    return "bytes.elems";
  }
  override repr(): string {
    return `${this.b.repr()}.elems()`;
  }
  override hashKey(): never {
    return fail(`unhashable: ${this.typeName()}`);
  }
  override iterate(): Iter {
    let i = 0;
    const s = this.b.s;
    return { next: () => (i < s.length ? s.charCodeAt(i++) : undefined), done: () => {} };
  }
}

function stringFind(
  name: string,
  recv: Value,
  args: Value[],
  kwargs: Kwargs | null,
  allowError: boolean,
  last: boolean,
): Value {
  const [sub, start, end] = unpackPositional(name, args, kwargs, 1, [toStr, undefined, undefined]) as [
    string,
    Value?,
    Value?,
  ];
  const s = recvStr(recv);
  let lo: number;
  let hi: number;
  try {
    [lo, hi] = indices(start, end, s.length);
  } catch (e) {
    return nameErr(name, e);
  }
  const sl = lo < hi ? s.slice(lo, hi) : "";
  const i = last ? sl.lastIndexOf(sub) : sl.indexOf(sub);
  if (i < 0) {
    if (!allowError) fail(`${name}: substring not found`);
    return -1;
  }
  return i + lo;
}

const stringMethods: Record<string, BuiltinFn> = {
  capitalize: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return mapRunes(recvStr(recv), (r, i) => (i === 0 ? toTitleRune(r) : toLowerRune(r)));
  },
  codepoint_ords: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return new StringCodepoints(recvStr(recv), true);
  },
  codepoints: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return new StringCodepoints(recvStr(recv), false);
  },
  count: (_th, args, kwargs, recv, name) => {
    const [sub, start, end] = unpackPositional(name, args, kwargs, 1, [toStr, undefined, undefined]) as [
      string,
      Value?,
      Value?,
    ];
    const s = recvStr(recv);
    let lo: number;
    let hi: number;
    try {
      [lo, hi] = indices(start, end, s.length);
    } catch (e) {
      return nameErr(name, e);
    }
    return countSub(lo < hi ? s.slice(lo, hi) : "", sub);
  },
  elem_ords: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return new StringElems(recvStr(recv), true);
  },
  elems: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return new StringElems(recvStr(recv), false);
  },
  endswith: (_th, args, kwargs, recv, name) => startsWith(name, recv, args, kwargs, true),
  find: (_th, args, kwargs, recv, name) => stringFind(name, recv, args, kwargs, true, false),
  format: (th, args, kwargs, recv) => stringFormat(th, recvStr(recv), args, kwargs),
  index: (_th, args, kwargs, recv, name) => stringFind(name, recv, args, kwargs, false, false),
  isalnum: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return everyRune(recvStr(recv), (r) => isLetter(r) || isDigit(r));
  },
  isalpha: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return everyRune(recvStr(recv), isLetter);
  },
  isdigit: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return everyRune(recvStr(recv), isDigit);
  },
  islower: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const s = recvStr(recv);
    return isCasedString(s) && s === lower(s);
  },
  isspace: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return everyRune(recvStr(recv), isSpace);
  },
  istitle: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const s = recvStr(recv);
    let cased = false;
    let prevCased = false;
    const r: Rune = { r: 0, size: 0 };
    for (let i = 0; i < s.length; ) {
      decodeRune(s, i, r);
      i += r.size;
      const c = r.r;
      if ((c >= 0x41 && c <= 0x5a) || isTitle(c)) {
        if (prevCased) return false;
        prevCased = true;
        cased = true;
      } else if (isLower(c)) {
        if (!prevCased) return false;
        prevCased = true;
        cased = true;
      } else if (isUpper(c)) {
        return false;
      } else {
        prevCased = false;
      }
    }
    return cased;
  },
  isupper: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const s = recvStr(recv);
    return isCasedString(s) && s === upper(s);
  },
  join: (th, args, kwargs, recv, name) => {
    const sep = recvStr(recv);
    const [x] = unpackPositional(name, args, kwargs, 1, [toIterable]) as [Value];
    const parts: string[] = [];
    let size = 0;
    forEach(th, x, (v) => {
      if (typeof v !== "string") fail(`join: in list, want string, got ${typeName(v)}`);
      parts.push(v);
      size += v.length + sep.length;
    });
    th.alloc(size);
    return parts.join(sep);
  },
  lower: (th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    th.alloc(recvStr(recv).length);
    return lower(recvStr(recv));
  },
  lstrip: (_th, args, kwargs, recv, name) => strip(name, recv, args, kwargs),
  partition: (_th, args, kwargs, recv, name) => partition(name, recv, args, kwargs),
  removeprefix: (_th, args, kwargs, recv, name) => {
    const [fix] = unpackPositional(name, args, kwargs, 1, [toStr]) as [string];
    const s = recvStr(recv);
    return s.startsWith(fix) ? s.slice(fix.length) : s;
  },
  removesuffix: (_th, args, kwargs, recv, name) => {
    const [fix] = unpackPositional(name, args, kwargs, 1, [toStr]) as [string];
    const s = recvStr(recv);
    return fix !== "" && s.endsWith(fix) ? s.slice(0, s.length - fix.length) : s;
  },
  replace: (th, args, kwargs, recv, name) => {
    const [old, nw, count] = unpackPositional(name, args, kwargs, 2, [toStr, toStr, toInt]) as [
      string,
      string,
      number?,
    ];
    const s = recvStr(recv);
    const limit = count === undefined || count < 0 ? Infinity : count;
    if (nw.length > old.length) {
      // A growing result is charged before it is built (it may exceed what the host can hold).
      let occ = 0;
      if (old === "") occ = Math.min(limit, s.length + 1);
      else for (let i = s.indexOf(old); i >= 0 && occ < limit; i = s.indexOf(old, i + old.length)) occ++;
      th.alloc(s.length + occ * (nw.length - old.length));
      return replace(s, old, nw, count ?? -1);
    }
    const res = replace(s, old, nw, count ?? -1);
    th.alloc(res.length);
    return res;
  },
  rfind: (_th, args, kwargs, recv, name) => stringFind(name, recv, args, kwargs, true, true),
  rindex: (_th, args, kwargs, recv, name) => stringFind(name, recv, args, kwargs, false, true),
  rpartition: (_th, args, kwargs, recv, name) => partition(name, recv, args, kwargs),
  rsplit: (th, args, kwargs, recv, name) => split(th, name, recv, args, kwargs),
  rstrip: (_th, args, kwargs, recv, name) => strip(name, recv, args, kwargs),
  split: (th, args, kwargs, recv, name) => split(th, name, recv, args, kwargs),
  splitlines: (_th, args, kwargs, recv, name) => {
    const [keepends] = unpackPositional(name, args, kwargs, 0, [toBool]) as [boolean?];
    const s = recvStr(recv);
    let lines: string[] = [];
    if (s !== "") {
      if (keepends) {
        lines = s.split("\n").map((l, i, a) => (i < a.length - 1 ? `${l}\n` : l));
      } else {
        lines = s.split("\n");
      }
      if (s.endsWith("\n")) lines.pop();
    }
    return new List(lines);
  },
  startswith: (_th, args, kwargs, recv, name) => startsWith(name, recv, args, kwargs, false),
  strip: (_th, args, kwargs, recv, name) => strip(name, recv, args, kwargs),
  title: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    let prevCased = false;
    return mapRunes(recvStr(recv), (r) => {
      const m = prevCased ? toLowerRune(r) : toTitleRune(r);
      prevCased = isCasedRune(m);
      return m;
    });
  },
  upper: (th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    th.alloc(recvStr(recv).length);
    return upper(recvStr(recv));
  },
};

function startsWith(name: string, recv: Value, args: Value[], kwargs: Kwargs | null, ends: boolean): Value {
  const [x, start, end] = unpackPositional(name, args, kwargs, 1, [undefined, undefined, undefined]) as [
    Value,
    Value?,
    Value?,
  ];
  let s = recvStr(recv);
  let lo: number;
  let hi: number;
  try {
    [lo, hi] = indices(start, end, s.length);
  } catch (e) {
    return nameErr(name, e);
  }
  if (hi < lo) hi = lo;
  s = s.slice(lo, hi);
  const f = ends ? (p: string) => s.endsWith(p) : (p: string) => s.startsWith(p);
  if (x instanceof Tuple) {
    for (let i = 0; i < x.elems.length; i++) {
      const p = x.elems[i]!;
      if (typeof p !== "string") fail(`${name}: want string, got ${typeName(p)}, for element ${i}`);
      if (f(p)) return true;
    }
    return false;
  }
  if (typeof x === "string") return f(x);
  return fail(`${name}: got ${typeName(x)}, want string or tuple of string`);
}

function strip(name: string, recv: Value, args: Value[], kwargs: Kwargs | null): Value {
  const [chars] = unpackPositional(name, args, kwargs, 0, [toStr]) as [string?];
  const s = recvStr(recv);
  const cs = chars ?? "";
  switch (name[0]) {
    case "s":
      return cs !== "" ? trimRight(trimLeft(s, cs), cs) : trimRightSpace(trimLeftSpace(s));
    case "l":
      return cs !== "" ? trimLeft(s, cs) : trimLeftSpace(s);
    default:
      return cs !== "" ? trimRight(s, cs) : trimRightSpace(s);
  }
}

function partition(name: string, recv: Value, args: Value[], kwargs: Kwargs | null): Value {
  const [sep] = unpackPositional(name, args, kwargs, 1, [toStr]) as [string];
  const s = recvStr(recv);
  if (sep === "") fail(`${name}: empty separator`);
  const first = name[0] === "p";
  const i = first ? s.indexOf(sep) : s.lastIndexOf(sep);
  if (i < 0) return new Tuple(first ? [s, "", ""] : ["", "", s]);
  return new Tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
}

function split(th: Thread, name: string, recv: Value, args: Value[], kwargs: Kwargs | null): Value {
  const [sepv, maxsplitv] = unpackPositional(name, args, kwargs, 0, [undefined, toInt]) as [Value?, number?];
  const s = recvStr(recv);
  const maxsplit = maxsplitv ?? -1;
  let res: string[];
  if (sepv === undefined || sepv === None) {
    if (maxsplit < 0) res = fields(s);
    else if (name === "split") res = splitspace(s, maxsplit);
    else res = rsplitspace(s, maxsplit);
  } else if (typeof sepv === "string") {
    const sep = sepv;
    if (sep === "") fail("split: empty separator");
    if (maxsplit < 0) res = s.split(sep);
    else if (name === "split") res = splitN(s, sep, maxsplit + 1);
    else {
      res = s.split(sep);
      const excess = res.length - maxsplit;
      if (excess > 0) {
        const head = res.slice(0, excess).join(sep);
        res = [head, ...res.slice(excess)];
      }
    }
  } else {
    return fail(`split: got ${typeName(sepv)} for separator, want string`);
  }
  th.alloc(s.length + 16 * res.length);
  return new List(res);
}

// ---- % interpolation and format ----

function goIntFormat(i: ReturnType<typeof numberToInt>, c: string): string {
  switch (c) {
    case "o":
      return intText(i, 8);
    case "x":
      return intText(i, 16);
    case "X":
      return intText(i, 16).toUpperCase();
    default:
      return intText(i);
  }
}

/** The `%` operator on strings (go.starlark.net's interpolate). */
export function interpolate(format: string, x: Value): string {
  let buf = "";
  let index = 0;
  const isTuple = x instanceof Tuple;
  const nargs = isTuple ? x.elems.length : 1;
  const isMapping = typeof x === "object" && x.get !== undefined;
  for (;;) {
    const i = format.indexOf("%");
    if (i < 0) {
      buf += format;
      break;
    }
    buf += format.slice(0, i);
    format = format.slice(i + 1);
    if (format !== "" && format[0] === "%") {
      buf += "%";
      format = format.slice(1);
      continue;
    }
    let arg: Value;
    if (format !== "" && format[0] === "(") {
      format = format.slice(1);
      const j = format.indexOf(")");
      if (j < 0) fail("incomplete format key");
      const key = format.slice(0, j);
      if (!isMapping) fail("format requires a mapping");
      let v: Value | undefined;
      try {
        v = (x as SValue).get!(key);
      } catch {
        v = undefined;
      }
      if (v === undefined) fail(`key not found: ${key}`);
      arg = v;
      format = format.slice(j + 1);
    } else {
      if (index >= nargs) fail("not enough arguments for format string");
      arg = isTuple ? (x as Tuple).elems[index]! : x;
    }
    if (format === "") fail("incomplete format");
    const c = format[0]!;
    switch (c) {
      case "s":
      case "r":
        buf += typeof arg === "string" && c === "s" ? arg : repr(arg);
        break;
      case "d":
      case "i":
      case "o":
      case "x":
      case "X": {
        let n: ReturnType<typeof numberToInt>;
        try {
          n = numberToInt(arg);
        } catch (e) {
          return fail(`%${c} format requires integer: ${(e as Error).message}`);
        }
        buf += goIntFormat(n, c);
        break;
      }
      case "e":
      case "f":
      case "g":
      case "E":
      case "F":
      case "G": {
        const f = asFloat(arg);
        if (f === undefined) fail(`%${c} format requires float, not ${typeName(arg)}`);
        buf += formatFloatConv(f, c);
        break;
      }
      case "c":
        if (typeof arg === "number" || typeof arg === "bigint") {
          if (typeof arg === "bigint" || arg < 0 || arg > 0x10ffff) {
            fail(`%c format requires a valid Unicode code point, got ${String(arg)}`);
          }
          buf += encodeRune(arg);
        } else if (typeof arg === "string") {
          const r = decodeRune(arg, 0);
          if (r.size !== arg.length || arg.length === 0) fail("%c format requires a single-character string");
          buf += encodeRune(r.r);
        } else {
          fail(`%c format requires int or single-character string, not ${typeName(arg)}`);
        }
        break;
      case "%":
        buf += "%";
        break;
      default:
        // Go's %c of the byte: a byte over 0x7f prints as the rune of that value.
        fail(`unknown conversion %${encodeRune(c.charCodeAt(0))}`);
    }
    format = format.slice(1);
    index++;
  }
  if (index < nargs && !isMapping) fail("too many arguments for format string");
  return buf;
}

function decimal(s: string): number | null {
  if (!/^[0-9]*$/.test(s)) return null;
  let x = 0;
  for (let i = 0; i < s.length; i++) {
    x = x * 10 + (s.charCodeAt(i) - 48);
    if (x > Number.MAX_SAFE_INTEGER) return null;
  }
  return x;
}

function stringFormat(th: Thread, format: string, args: Value[], kwargs: Kwargs | null): string {
  let auto = false;
  let manual = false;
  let buf = "";
  let index = 0;
  for (;;) {
    let literal = format;
    let i = format.indexOf("{");
    if (i >= 0) literal = format.slice(0, i);
    for (;;) {
      const j = literal.indexOf("}");
      if (j < 0) {
        buf += literal;
        break;
      }
      if (literal.length === j + 1 || literal[j + 1] !== "}") fail("format: single '}' in format");
      buf += literal.slice(0, j + 1);
      literal = literal.slice(j + 2);
    }
    if (i < 0) break;
    if (i + 1 < format.length && format[i + 1] === "{") {
      buf += "{";
      format = format.slice(i + 2);
      continue;
    }
    format = format.slice(i + 1);
    i = format.indexOf("}");
    if (i < 0) fail("format: unmatched '{' in format");
    let field = format.slice(0, i);
    format = format.slice(i + 1);
    let name: string;
    let conv = "s";
    let spec = "";
    const bang = field.indexOf("!");
    if (bang < 0) {
      const colon = field.indexOf(":");
      if (colon < 0) name = field;
      else {
        name = field.slice(0, colon);
        spec = field.slice(colon + 1);
      }
    } else {
      name = field.slice(0, bang);
      field = field.slice(bang + 1);
      const colon = field.indexOf(":");
      if (colon < 0) conv = field;
      else {
        conv = field.slice(0, colon);
        spec = field.slice(colon + 1);
      }
    }
    let arg: Value | undefined;
    if (name === "") {
      if (manual) fail("format: cannot switch from manual field specification to automatic field numbering");
      auto = true;
      if (index >= args.length) fail("format: tuple index out of range");
      arg = args[index++];
    } else {
      const num = decimal(name);
      if (num !== null) {
        if (auto) fail("format: cannot switch from automatic field numbering to manual field specification");
        manual = true;
        if (num >= args.length) fail("format: tuple index out of range");
        arg = args[num];
      } else {
        for (const [k, v] of kwargs ?? []) {
          if (k === name) {
            arg = v;
            break;
          }
        }
        if (arg === undefined) {
          if (name.includes(".")) {
            fail(`format: attribute syntax x.y is not supported in replacement fields: ${name}`);
          }
          if (name.includes("[")) {
            fail(`format: element syntax a[i] is not supported in replacement fields: ${name}`);
          }
          if (name.includes("{")) fail("format: nested replacement fields not supported");
          fail(`format: keyword ${name} not found`);
        }
      }
    }
    if (spec !== "") fail(`format spec features not supported in replacement fields: ${spec}`);
    if (conv === "s") buf += typeof arg === "string" ? arg : repr(arg!);
    else if (conv === "r") buf += repr(arg!);
    else fail(`format: unknown conversion ${repr(conv)}`);
  }
  th.alloc(buf.length);
  return buf;
}

// ---- bytes ----

const bytesMethods: Record<string, BuiltinFn> = {
  elems: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    return new BytesElems(recv as Bytes);
  },
};

// ---- list ----

const recvList = (recv: Value) => recv as List;

const listMethods: Record<string, BuiltinFn> = {
  append: (th, args, kwargs, recv, name) => {
    const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
    const l = recvList(recv);
    try {
      l.checkMutable("append to");
    } catch (e) {
      nameErr(name, e);
    }
    if ((l.elems.length & 1023) === 1023) th.alloc(8 * 1024);
    l.elems.push(x);
    return None;
  },
  clear: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const l = recvList(recv);
    try {
      l.checkMutable("clear");
    } catch (e) {
      nameErr(name, e);
    }
    l.elems.length = 0;
    return None;
  },
  extend: (th, args, kwargs, recv, name) => {
    const l = recvList(recv);
    const [x] = unpackPositional(name, args, kwargs, 1, [toIterable]) as [Value];
    try {
      l.checkMutable("extend");
    } catch (e) {
      nameErr(name, e);
    }
    listExtend(th, l, x);
    return None;
  },
  index: (th, args, kwargs, recv, name) => {
    const [x, start, end] = unpackPositional(name, args, kwargs, 1, [undefined, undefined, undefined]) as [
      Value,
      Value?,
      Value?,
    ];
    const l = recvList(recv);
    let lo: number;
    let hi: number;
    try {
      [lo, hi] = indices(start, end, l.elems.length);
    } catch (e) {
      return nameErr(name, e);
    }
    th.charge(hi - lo);
    for (let i = lo; i < hi; i++) if (equal(l.elems[i]!, x)) return i;
    return fail(`${name}: value not in list`);
  },
  insert: (_th, args, kwargs, recv, name) => {
    const l = recvList(recv);
    const [index, x] = unpackPositional(name, args, kwargs, 2, [toInt, undefined]) as [number, Value];
    try {
      l.checkMutable("insert into");
    } catch (e) {
      nameErr(name, e);
    }
    let i = index;
    if (i < 0) i += l.elems.length;
    if (i >= l.elems.length) l.elems.push(x);
    else l.elems.splice(Math.max(i, 0), 0, x);
    return None;
  },
  pop: (_th, args, kwargs, recv, name) => {
    const l = recvList(recv);
    const n = l.elems.length;
    const [iv] = unpackPositional(name, args, kwargs, 0, [toInt]) as [number?];
    let i = iv ?? n - 1;
    const orig = i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      if (n === 0) fail(`${name}: index ${orig} out of range: empty list`);
      fail(`${name}: list index ${orig} out of range [${-n}:${n - 1}]`);
    }
    try {
      l.checkMutable("pop from");
    } catch (e) {
      nameErr(name, e);
    }
    return l.elems.splice(i, 1)[0]!;
  },
  remove: (th, args, kwargs, recv, name) => {
    const l = recvList(recv);
    th.charge(l.elems.length);
    const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
    try {
      l.checkMutable("remove from");
    } catch (e) {
      nameErr(name, e);
    }
    for (let i = 0; i < l.elems.length; i++) {
      let eq: boolean;
      try {
        eq = equal(l.elems[i]!, x);
      } catch (e) {
        return fail(`remove: ${(e as Error).message}`);
      }
      if (eq) {
        l.elems.splice(i, 1);
        return None;
      }
    }
    return fail("remove: element not found");
  },
};

// ---- dict ----

const recvDict = (recv: Value) => recv as Dict;

const dictMethods: Record<string, BuiltinFn> = {
  clear: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    // (go.starlark.net reports dict.clear's error without the method's name)
    recvDict(recv).clear();
    return None;
  },
  get: (_th, args, kwargs, recv, name) => {
    const [k, dflt] = unpackPositional(name, args, kwargs, 1, [undefined, undefined]) as [Value, Value?];
    let v: Value | undefined;
    try {
      v = recvDict(recv).get(k);
    } catch (e) {
      return nameErr(name, e);
    }
    if (v !== undefined) return v;
    return dflt ?? None;
  },
  items: (th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const d = recvDict(recv);
    th.alloc(40 * d.map.size);
    const out: Value[] = [];
    for (const e of d.map.values()) out.push(new Tuple([e.k, e.v]));
    return new List(out);
  },
  keys: (th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const d = recvDict(recv);
    th.alloc(8 * d.map.size);
    return new List(d.keys());
  },
  pop: (_th, args, kwargs, recv, name) => {
    const [k, dflt] = unpackPositional(name, args, kwargs, 1, [undefined, undefined]) as [Value, Value?];
    let v: Value | undefined;
    try {
      v = recvDict(recv).delete(k);
    } catch (e) {
      return nameErr(name, e);
    }
    if (v !== undefined) return v;
    if (dflt !== undefined) return dflt;
    return fail(`${name}: missing key`);
  },
  popitem: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const d = recvDict(recv);
    const first = d.map.values().next();
    if (first.done) fail(`${name}: empty dict`);
    const { k } = first.value;
    let v: Value | undefined;
    try {
      v = d.delete(k);
    } catch (e) {
      return nameErr(name, e);
    }
    return new Tuple([k, v!]);
  },
  setdefault: (_th, args, kwargs, recv, name) => {
    const [k, dflt] = unpackPositional(name, args, kwargs, 1, [undefined, undefined]) as [Value, Value?];
    const d = recvDict(recv);
    const dv = dflt ?? None;
    try {
      const v = d.get(k);
      if (v !== undefined) return v;
      d.setKey(k, dv);
    } catch (e) {
      return nameErr(name, e);
    }
    return dv;
  },
  update: (th, args, kwargs, recv) => {
    if (args.length > 1) fail(`update: got ${args.length} arguments, want at most 1`);
    try {
      updateDict(th, recvDict(recv), args, kwargs);
    } catch (e) {
      if (e instanceof StarlarkError && !e.message.startsWith("Starlark computation cancelled")) {
        throw new StarlarkError(`update: ${e.message}`);
      }
      throw e;
    }
    return None;
  },
  values: (th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const d = recvDict(recv);
    th.alloc(8 * d.map.size);
    return new List(d.values());
  },
};

// ---- set ----

const recvSet = (recv: Value) => recv as SetValue;

function setUpdate(th: Thread, s: SetValue, args: Value[], kwargs: Kwargs | null): void {
  if (kwargs !== null && kwargs.length > 0) fail("does not accept keyword arguments");
  args.forEach((arg, i) => {
    if (!isIterable(arg)) fail(`argument #${i + 1} is not iterable: ${typeName(arg)}`);
    forEach(th, arg, (v) => s.insert(v));
  });
}

function otherElems(th: Thread, name: string, args: Value[], kwargs: Kwargs | null): Value[] {
  const [other] = unpackPositional(name, args, kwargs, 0, [toIterable]) as [Value?];
  return other === undefined ? [] : collect(th, other);
}

const setMethods: Record<string, BuiltinFn> = {
  add: (_th, args, kwargs, recv, name) => {
    const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
    const s = recvSet(recv);
    try {
      s.checkMutable("insert into");
      s.insert(x);
    } catch (e) {
      nameErr(name, e);
    }
    return None;
  },
  clear: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const s = recvSet(recv);
    if (s.map.size > 0) {
      try {
        s.clear();
      } catch (e) {
        nameErr(name, e);
      }
    }
    return None;
  },
  difference: (th, args, kwargs, recv, name) => {
    const other = otherElems(th, name, args, kwargs);
    const d = recvSet(recv).clone();
    try {
      for (const x of other) d.delete(x);
    } catch (e) {
      nameErr(name, e);
    }
    return d;
  },
  discard: (_th, args, kwargs, recv, name) => {
    const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
    const s = recvSet(recv);
    try {
      s.checkMutable("delete from");
      if (s.has(x)) s.delete(x);
    } catch (e) {
      nameErr(name, e);
    }
    return None;
  },
  intersection: (th, args, kwargs, recv, name) => {
    const other = otherElems(th, name, args, kwargs);
    const s = recvSet(recv);
    const out = new SetValue();
    try {
      for (const x of other) if (s.has(x)) out.insert(x);
    } catch (e) {
      nameErr(name, e);
    }
    return out;
  },
  issubset: (th, args, kwargs, recv, name) => {
    const other = otherElems(th, name, args, kwargs);
    try {
      const s = recvSet(recv);
      const o = new SetValue();
      for (const x of other) o.insert(x);
      for (const k of s.map.keys()) if (!o.map.has(k)) return false;
      return true;
    } catch (e) {
      return nameErr(name, e);
    }
  },
  issuperset: (th, args, kwargs, recv, name) => {
    const other = otherElems(th, name, args, kwargs);
    try {
      const s = recvSet(recv);
      for (const x of other) if (!s.has(x)) return false;
      return true;
    } catch (e) {
      return nameErr(name, e);
    }
  },
  pop: (_th, args, kwargs, recv, name) => {
    noArgs(name, args, kwargs);
    const s = recvSet(recv);
    const first = s.map.values().next();
    if (first.done) fail(`${name}: empty set`);
    try {
      s.delete(first.value);
    } catch (e) {
      nameErr(name, e);
    }
    return first.value;
  },
  remove: (_th, args, kwargs, recv, name) => {
    const [x] = unpackPositional(name, args, kwargs, 1, [undefined]) as [Value];
    let found: boolean;
    try {
      found = recvSet(recv).delete(x);
    } catch (e) {
      return nameErr(name, e);
    }
    if (!found) fail(`${name}: missing key`);
    return None;
  },
  symmetric_difference: (th, args, kwargs, recv, name) => {
    const other = otherElems(th, name, args, kwargs);
    const d = recvSet(recv).clone();
    try {
      for (const x of other) if (!d.delete(x)) d.insert(x);
    } catch (e) {
      nameErr(name, e);
    }
    return d;
  },
  union: (th, args, kwargs, recv, name) => {
    const s = recvSet(recv).clone();
    try {
      setUpdate(th, s, args, kwargs);
    } catch (e) {
      nameErr(name, e);
    }
    return s;
  },
  update: (th, args, kwargs, recv, name) => {
    try {
      setUpdate(th, recvSet(recv), args, kwargs);
    } catch (e) {
      nameErr(name, e);
    }
    return None;
  },
};

function install(table: Map<string, Builtin>, methods: Record<string, BuiltinFn>): void {
  for (const [name, fn] of Object.entries(methods)) table.set(name, new Builtin(name, fn));
}

/** String methods cost steps in proportion to the receiver's length (bounded work per step). */
function linearInReceiver(methods: Record<string, BuiltinFn>): Record<string, BuiltinFn> {
  const out: Record<string, BuiltinFn> = {};
  for (const [name, fn] of Object.entries(methods)) {
    out[name] = (th, args, kwargs, recv, n) => {
      const len = (recv as string).length;
      if (len > WORK_UNIT) th.charge(Math.floor(len / WORK_UNIT));
      return fn(th, args, kwargs, recv, n);
    };
  }
  return out;
}

install(METHODS.string, linearInReceiver(stringMethods));
install(METHODS.bytes, bytesMethods);
install(METHODS.list, listMethods);
install(METHODS.dict, dictMethods);
install(METHODS.set, setMethods);
interpolateHook.fn = interpolate;
