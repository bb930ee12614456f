/**
 * Starlark values and their core operations (go.starlark.net/starlark value.go, int.go, eval.go's
 * operators): representation, truth, printing, hashing, equality and ordering, indexing, slicing,
 * attributes, unary and binary operators — with go.starlark.net's error messages.
 *
 * Representation (chosen so the common cases need no allocation):
 * - int: a JS `number` when it is a safe integer, else a `bigint` (always normalized);
 * - string: a JS string of bytes (each char code 0–255; UTF-8 text), see {@link ./utf8.js};
 * - bool: a JS boolean;
 * - None, float, bytes, list, tuple, dict, set, functions, …: instances of {@link SValue} subclasses.
 * Host applications define their own types by subclassing {@link SValue}.
 */

import { nearest } from "../internal/spell.js";
import { decodeRune, isPrint, type Rune } from "../internal/utf8.js";
import { T, type Token, tokenString } from "../syntax/syntax.js";
import { floatString, formatFloat } from "./floatfmt.js";
import type { Thread } from "./thread.js";

/** A Starlark value. */
export type Value = number | bigint | string | boolean | SValue;

/** A Starlark int. */
export type Int = number | bigint;

/** Keyword arguments of a call: (name, value) pairs in call order; names are byte strings. */
export type Kwargs = [string, Value][];

/** A dict/set key derived from a hashable value; equal values have identical keys. */
export type Key = number | bigint | string | boolean | object;

/** An error raised by Starlark evaluation; its message is the Starlark error message. */
export class StarlarkError extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = "StarlarkError";
  }
}

/** An attribute lookup failure whose message replaces the generic "no .x field or method". */
export class NoSuchAttrError extends StarlarkError {}

/** Throws a {@link StarlarkError}. */
export function fail(msg: string): never {
  throw new StarlarkError(msg);
}

/** An iterator over a Starlark iterable; `next()` returns undefined when exhausted. */
export interface Iter {
  next(): Value | undefined;
  done(): void;
}

/**
 * Base class of all non-primitive values. Optional methods express the protocols of go.starlark.net's
 * interfaces (Iterable, Indexable, Mapping, HasAttrs, HasBinary, Callable, ...).
 */
export abstract class SValue {
  /** The type name, as `type(x)` returns it. */
  abstract typeName(): string;
  /** Appends the value's repr; `path` holds the containers being printed (for cycles). */
  repr(path: SValue[]): string {
    void path;
    return `<${this.typeName()}>`;
  }
  truth(): boolean {
    return true;
  }
  /** A key for dicts and sets; throws for unhashable values. */
  hashKey(): Key {
    throw new StarlarkError(`unhashable type: ${this.typeName()}`);
  }
  freeze(): void {}

  iterate?(): Iter;
  len?(): number;
  index?(i: number): Value;
  slice?(start: number, end: number, step: number): Value;
  setIndex?(i: number, v: Value): void;
  has?(y: Value): boolean;
  /** Mapping lookup: the value or undefined. */
  get?(k: Value): Value | undefined;
  setKey?(k: Value, v: Value): void;
  /** Key/value pairs (IterableMapping). */
  items?(): [Value, Value][];
  attr?(name: string): Value | undefined;
  attrNames?(): string[];
  setField?(name: string, v: Value): void;
  /** Binary operator; return undefined when unhandled. `right` means this value is the right operand. */
  binary?(op: Token, y: Value, right: boolean): Value | undefined;
  unary?(op: Token): Value | undefined;
  /** Comparison with a value of the same type (Comparable). */
  compareSame?(op: Token, y: Value, depth: number): boolean;
  /** Three-way comparison with a value of the same type (TotallyOrdered). */
  cmp?(y: Value, depth: number): number;
  /** Calls the value (Callable). */
  callInternal?(th: Thread, args: Value[], kwargs: Kwargs | null): Value;
  /** The callable's name (Callable). */
  declare name?: string;
}

// ---- None ----

export class NoneType extends SValue {
  typeName(): string {
    return "NoneType";
  }
  override repr(): string {
    return "None";
  }
  override truth(): boolean {
    return false;
  }
  override hashKey(): Key {
    return this;
  }
}

/** The None value. */
export const None = new NoneType();

// ---- ints ----

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Normalizes a bigint: a safe integer becomes a number. */
export function normBig(b: bigint): Int {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

/** An integral JS number as a Starlark int: beyond 2^53 it becomes the bigint of the same value. */
export function intOf(n: number): Int {
  return Number.isSafeInteger(n) ? n : BigInt(n);
}

function big(x: Int): bigint {
  return typeof x === "bigint" ? x : BigInt(x);
}

export function isInt(v: Value): v is Int {
  const t = typeof v;
  return t === "number" || t === "bigint";
}

export function intAdd(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const z = x + y;
    if (z <= MAX_SAFE && z >= -MAX_SAFE) return z;
  }
  return normBig(big(x) + big(y));
}

export function intSub(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const z = x - y;
    if (z <= MAX_SAFE && z >= -MAX_SAFE) return z;
  }
  return normBig(big(x) - big(y));
}

// ---- the cost of big ints ----
// Multiplication, division and decimal conversion of big ints cost more than linear time: they are
// charged as steps (and their results as memory) BEFORE they run, so that a script squaring a number
// repeatedly fails its budget instead of computing for minutes. Calibrated on V8 (a step is ~20 ns).

const SMALL_BIG = 1n << 1024n;

/** Approximate size of an int in 64-bit words (16 for anything up to 1024 bits). */
export function intWords(x: Int): number {
  if (typeof x === "number") return 1;
  if (x < SMALL_BIG && x > -SMALL_BIG) return 16;
  return Math.ceil(x.toString(16).length / 16);
}

/** Charges a multiplication (weight 1) or division (weight 3) of ints of wx and wy words. */
function chargeMulDiv(wx: number, wy: number, weight: number): void {
  if (wx <= 16 && wy <= 16) return;
  const lo = Math.min(wx, wy);
  const hi = Math.max(wx, wy);
  allocHooks.work(weight * hi * lo ** 0.4);
  allocHooks.charge(8 * (wx + wy));
}

/** Charges a conversion between an int of `words` words and a decimal (or other base) string. */
export function chargeIntText(words: number): void {
  if (words > 16) {
    allocHooks.work(words ** 1.6);
    allocHooks.charge(20 * words);
  }
}

/** The decimal (or other radix) text of an int, charged as {@link chargeIntText}. */
export function intText(x: Int, radix = 10): string {
  if (typeof x === "bigint") chargeIntText(intWords(x));
  return x.toString(radix);
}

export function intMul(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const z = x * y;
    if (z <= MAX_SAFE && z >= -MAX_SAFE) return z === 0 ? 0 : z;
  }
  chargeMulDiv(intWords(x), intWords(y), 1);
  return normBig(big(x) * big(y));
}

/** Floored division; the caller checks for a zero divisor. */
export function intFloorDiv(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    const r = x % y;
    let q = (x - r) / y;
    if (r !== 0 && r < 0 !== y < 0) q -= 1;
    return q === 0 ? 0 : q;
  }
  chargeMulDiv(intWords(x), intWords(y), 3);
  const bx = big(x);
  const by = big(y);
  let q = bx / by;
  const r = bx % by;
  if (r !== 0n && r < 0n !== by < 0n) q -= 1n;
  return normBig(q);
}

/** Floored modulo (sign of the divisor); the caller checks for a zero divisor. */
export function intMod(x: Int, y: Int): Int {
  if (typeof x === "number" && typeof y === "number") {
    let r = x % y;
    if (r !== 0 && r < 0 !== y < 0) r += y;
    return r === 0 ? 0 : r;
  }
  chargeMulDiv(intWords(x), intWords(y), 3);
  const by = big(y);
  let r = big(x) % by;
  if (r !== 0n && r < 0n !== by < 0n) r += by;
  return normBig(r);
}

function isInt32(x: Int): x is number {
  return typeof x === "number" && x >= -2147483648 && x <= 2147483647;
}

export function intAnd(x: Int, y: Int): Int {
  if (isInt32(x) && isInt32(y)) return x & y;
  return normBig(big(x) & big(y));
}

export function intOr(x: Int, y: Int): Int {
  if (isInt32(x) && isInt32(y)) return x | y;
  return normBig(big(x) | big(y));
}

export function intXor(x: Int, y: Int): Int {
  if (isInt32(x) && isInt32(y)) return x ^ y;
  return normBig(big(x) ^ big(y));
}

export function intNot(x: Int): Int {
  if (isInt32(x)) return ~x;
  return normBig(~big(x));
}

export function intNeg(x: Int): Int {
  if (typeof x === "number") return x === 0 ? 0 : -x;
  return normBig(-x);
}

export function intSign(x: Int): number {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

export function intLsh(x: Int, n: number): Int {
  if (typeof x === "number" && n < 31 && x >= -1048576 && x <= 1048576) return x * 2 ** n;
  return normBig(big(x) << BigInt(n));
}

export function intRsh(x: Int, n: number): Int {
  if (typeof x === "number") {
    if (n > 60) return x < 0 ? -1 : 0;
    const r = Math.floor(x / 2 ** n);
    return r === 0 ? 0 : r;
  }
  return normBig(x >> BigInt(n));
}

/** Converts an int to a float; throws if it is too large. */
export function intToFloat(x: Int): number {
  if (typeof x === "number") return x;
  const f = Number(x);
  if (!Number.isFinite(f)) fail("int too large to convert to float");
  return f;
}

/** Truncates a finite float to an int. */
export function floatToInt(f: number): Int {
  const t = Math.trunc(f);
  if (t <= MAX_SAFE && t >= -MAX_SAFE) return t === 0 ? 0 : t;
  return normBig(BigInt(t));
}

/** go.starlark.net's AsInt32: the value of an int in the int32 range. */
export function asInt32(x: Value): number {
  if (!isInt(x)) fail(`got ${typeName(x)}, want int`);
  if (typeof x === "bigint" || x < -2147483648 || x > 2147483647) fail(`${String(x)} out of range`);
  return x;
}

const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/** go.starlark.net's AsInt for a Go `int` (64 bits): the value as a JS number. */
export function asInt64(x: Value): number {
  if (!isInt(x)) fail(`got ${typeName(x)}, want int`);
  if (typeof x === "bigint") {
    if (x < MIN_INT64 || x > MAX_INT64) fail(`${x} out of range (want value in signed 64-bit range)`);
    return Number(x);
  }
  return x;
}

/** NumberToInt: an int, or a float truncated to an int. */
export function numberToInt(x: Value): Int {
  if (isInt(x)) return x;
  if (x instanceof Float) {
    const f = x.v;
    if (!Number.isFinite(f)) {
      fail(
        Number.isNaN(f) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer",
      );
    }
    return floatToInt(f);
  }
  return fail(`cannot convert ${typeName(x)} to int`);
}

// ---- floats ----

export class Float extends SValue {
  constructor(readonly v: number) {
    super();
  }
  typeName(): string {
    return "float";
  }
  override repr(): string {
    return floatString(this.v);
  }
  override truth(): boolean {
    return this.v !== 0;
  }
  override hashKey(): Key {
    const f = this.v;
    if (Number.isFinite(f)) {
      if (Number.isInteger(f)) return floatToInt(f);
      return `\u0100f${f}`;
    }
    return `\u0100f${f}`;
  }
}

/** Makes a float value. */
export function mkFloat(v: number): Float {
  return new Float(v);
}

/** A float or int as a JS number (AsFloat), or undefined. */
export function asFloat(x: Value): number | undefined {
  if (x instanceof Float) return x.v;
  if (typeof x === "number") return x;
  if (typeof x === "bigint") return Number(x);
  return undefined;
}

function floatMod(x: number, y: number): number {
  let z = x % y;
  if (x < 0 !== y < 0 && z !== 0) z += y;
  return z;
}

function floatCmp(x: number, y: number): number {
  if (x > y) return 1;
  if (x < y) return -1;
  if (x === y) return 0;
  if (!Number.isNaN(x)) return -1; // y is NaN
  if (!Number.isNaN(y)) return 1; // x is NaN
  return 0;
}

// ---- strings ----

const HEX = "0123456789abcdef";

/** Quotes a byte string as a Starlark literal (go.starlark.net's syntax.Quote). */
export function quote(s: string, isBytes = false): string {
  let out = isBytes ? 'b"' : '"';
  const rr: Rune = { r: 0, size: 0 };
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      // fast path: printable ASCII
      let j = i;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (d < 0x20 || d >= 0x7f || d === 0x22 || d === 0x5c) break;
        j++;
      }
      if (j > i) {
        out += s.slice(i, j);
        i = j;
        continue;
      }
    }
    let r = c;
    let width = 1;
    if (c >= 0x80) {
      decodeRune(s, i, rr);
      r = rr.r;
      width = rr.size;
    }
    if (width === 1 && r === 0xfffd) {
      out += `\\x${HEX[c >> 4]}${HEX[c & 15]}`;
      i++;
      continue;
    }
    i += width;
    if (r === 0x22 || r === 0x5c) {
      out += `\\${String.fromCharCode(r)}`;
      continue;
    }
    if (isPrint(r)) {
      out += s.slice(i - width, i);
      continue;
    }
    switch (r) {
      case 7:
        out += "\\a";
        continue;
      case 8:
        out += "\\b";
        continue;
      case 12:
        out += "\\f";
        continue;
      case 10:
        out += "\\n";
        continue;
      case 13:
        out += "\\r";
        continue;
      case 9:
        out += "\\t";
        continue;
      case 11:
        out += "\\v";
        continue;
    }
    if (r < 0x20 || r === 0x7f) out += `\\x${HEX[r >> 4]}${HEX[r & 15]}`;
    else if (r < 0x10000) out += `\\u${r.toString(16).padStart(4, "0")}`;
    else out += `\\U${r.toString(16).padStart(8, "0")}`;
  }
  return `${out}"`;
}

// ---- bytes ----

export class Bytes extends SValue {
  constructor(readonly s: string) {
    super();
  }
  typeName(): string {
    return "bytes";
  }
  override repr(): string {
    return quote(this.s, true);
  }
  override truth(): boolean {
    return this.s.length > 0;
  }
  override hashKey(): Key {
    return `\u0100b${this.s}`;
  }
  override len(): number {
    return this.s.length;
  }
  override index(i: number): Value {
    return new Bytes(this.s[i]!);
  }
  override slice(start: number, end: number, step: number): Value {
    return new Bytes(sliceString(this.s, start, end, step));
  }
  override has(y: Value): boolean {
    if (y instanceof Bytes) return this.s.includes(y.s);
    if (isInt(y)) {
      if (typeof y === "bigint" || y < 0 || y > 255) {
        fail(`int in bytes: ${String(y)} out of range (want value in unsigned 8-bit range)`);
      }
      return this.s.includes(String.fromCharCode(y));
    }
    return fail(`'in bytes' requires bytes or int as left operand, not ${typeName(y)}`);
  }
  override compareSame(op: Token, y: Value): boolean {
    const ys = (y as Bytes).s;
    return threeway(op, this.s < ys ? -1 : this.s > ys ? 1 : 0);
  }
  override attr(name: string): Value | undefined {
    return builtinAttr(this, name, METHODS.bytes);
  }
  override attrNames(): string[] {
    return builtinAttrNames(METHODS.bytes);
  }
}

/** Slices a byte string with go.starlark.net's semantics (indices already normalized). */
export function sliceString(s: string, start: number, end: number, step: number): string {
  if (step === 1) return s.slice(start, end);
  let out = "";
  if (step > 0) for (let i = start; i < end; i += step) out += s[i];
  else for (let i = start; i > end; i += step) out += s[i];
  return out;
}

function sliceArray<T>(a: T[], start: number, end: number, step: number): T[] {
  if (step === 1) return a.slice(start, end);
  const out: T[] = [];
  if (step > 0) for (let i = start; i < end; i += step) out.push(a[i]!);
  else for (let i = start; i > end; i += step) out.push(a[i]!);
  return out;
}

// ---- list ----

export class List extends SValue {
  frozen = false;
  itercount = 0;
  constructor(public elems: Value[] = []) {
    super();
  }
  typeName(): string {
    return "list";
  }
  override repr(path: SValue[]): string {
    if (path.includes(this)) return "[...]";
    path.push(this);
    let s = "[";
    const e = this.elems;
    for (let i = 0; i < e.length; i++) {
      if (i > 0) s += ", ";
      s += reprPath(e[i]!, path);
    }
    path.pop();
    return `${s}]`;
  }
  override truth(): boolean {
    return this.elems.length > 0;
  }
  override hashKey(): Key {
    return fail("unhashable type: list");
  }
  override freeze(): void {
    if (!this.frozen) {
      this.frozen = true;
      for (const e of this.elems) freeze(e);
    }
  }
  /** Throws if the list may not be mutated ("cannot <verb> frozen list"). */
  checkMutable(verb: string): void {
    if (this.frozen) fail(`cannot ${verb} frozen list`);
    if (this.itercount > 0) fail(`cannot ${verb} list during iteration`);
  }
  override len(): number {
    return this.elems.length;
  }
  override index(i: number): Value {
    return this.elems[i]!;
  }
  override slice(start: number, end: number, step: number): Value {
    return new List(sliceArray(this.elems, start, end, step));
  }
  override setIndex(i: number, v: Value): void {
    this.checkMutable("assign to element of");
    this.elems[i] = v;
  }
  override iterate(): Iter {
    if (!this.frozen) this.itercount++;
    return new ListIter(this);
  }
  override has(y: Value): boolean {
    if (this.elems.length > WORK_UNIT) allocHooks.work(this.elems.length);
    for (const x of this.elems) if (equal(x, y)) return true;
    return false;
  }
  override compareSame(op: Token, y: Value, depth: number): boolean {
    return sliceCompare(op, this.elems, (y as List).elems, depth);
  }
  override attr(name: string): Value | undefined {
    return builtinAttr(this, name, METHODS.list);
  }
  override attrNames(): string[] {
    return builtinAttrNames(METHODS.list);
  }
}

class ListIter implements Iter {
  private i = 0;
  constructor(private readonly l: List) {}
  next(): Value | undefined {
    const e = this.l.elems;
    return this.i < e.length ? e[this.i++] : undefined;
  }
  done(): void {
    if (!this.l.frozen) this.l.itercount--;
  }
}

class ArrayIter implements Iter {
  private i = 0;
  constructor(private readonly a: readonly Value[]) {}
  next(): Value | undefined {
    return this.i < this.a.length ? this.a[this.i++] : undefined;
  }
  done(): void {}
}

// ---- tuple ----

export class Tuple extends SValue {
  private frozen = false;
  constructor(readonly elems: Value[]) {
    super();
  }
  typeName(): string {
    return "tuple";
  }
  override repr(path: SValue[]): string {
    let s = "(";
    const e = this.elems;
    for (let i = 0; i < e.length; i++) {
      if (i > 0) s += ", ";
      s += reprPath(e[i]!, path);
    }
    if (e.length === 1) s += ",";
    return `${s})`;
  }
  override truth(): boolean {
    return this.elems.length > 0;
  }
  override hashKey(): Key {
    let k = "\u0100t";
    for (const e of this.elems) k += keyString(hashKey(e));
    return k;
  }
  override freeze(): void {
    // (a tuple is visited once: a value built as x = (x, x) is a DAG of exponential tree size)
    if (this.frozen) return;
    this.frozen = true;
    for (const e of this.elems) freeze(e);
  }
  override len(): number {
    return this.elems.length;
  }
  override index(i: number): Value {
    return this.elems[i]!;
  }
  override slice(start: number, end: number, step: number): Value {
    return new Tuple(sliceArray(this.elems, start, end, step));
  }
  override iterate(): Iter {
    return new ArrayIter(this.elems);
  }
  override has(y: Value): boolean {
    if (this.elems.length > WORK_UNIT) allocHooks.work(this.elems.length);
    for (const x of this.elems) if (equal(x, y)) return true;
    return false;
  }
  override compareSame(op: Token, y: Value, depth: number): boolean {
    return sliceCompare(op, this.elems, (y as Tuple).elems, depth);
  }
}

/** The empty tuple. */
export const EMPTY_TUPLE = new Tuple([]);

let nextId = 1;
const ids = new WeakMap<object, number>();

function identity(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = nextId++;
    ids.set(o, id);
  }
  return id;
}

/** A self-delimiting string encoding of a key, for composite keys. */
export function keyString(k: Key): string {
  switch (typeof k) {
    case "number":
    case "bigint":
      return `i${k}`;
    case "string":
      return `s${k.length}:${k}`;
    case "boolean":
      return k ? "T" : "F";
    default:
      return `o${identity(k)};`;
  }
}

// ---- dict ----

interface Entry {
  k: Value;
  v: Value;
}

/** Shared hash-table behaviour of dict and set: mutability checks with go.starlark.net's messages. */
abstract class HashTable extends SValue {
  frozen = false;
  itercount = 0;
  checkMutable(verb: string): void {
    if (this.frozen) fail(`cannot ${verb} frozen hash table`);
    if (this.itercount > 0) fail(`cannot ${verb} hash table during iteration`);
  }
}

export class Dict extends HashTable {
  readonly map = new Map<Key, Entry>();
  typeName(): string {
    return "dict";
  }
  override repr(path: SValue[]): string {
    if (path.includes(this)) return "{...}";
    let s = "{";
    let sep = "";
    for (const e of this.map.values()) {
      s += sep;
      s += reprPath(e.k, path);
      s += ": ";
      path.push(this);
      s += reprPath(e.v, path);
      path.pop();
      sep = ", ";
    }
    return `${s}}`;
  }
  override truth(): boolean {
    return this.map.size > 0;
  }
  override hashKey(): Key {
    return fail("unhashable type: dict");
  }
  override freeze(): void {
    if (!this.frozen) {
      this.frozen = true;
      for (const e of this.map.values()) {
        freeze(e.k);
        freeze(e.v);
      }
    }
  }
  override len(): number {
    return this.map.size;
  }
  override get(k: Value): Value | undefined {
    return this.map.get(hashKey(k))?.v;
  }
  /** Inserts or updates (Dict.SetKey). */
  override setKey(k: Value, v: Value): void {
    this.checkMutable("insert into");
    const key = hashKey(k);
    const e = this.map.get(key);
    if (e !== undefined) e.v = v;
    else {
      if ((this.map.size & 127) === 127) allocHooks.charge(128 * 64);
      this.map.set(key, { k, v });
    }
  }
  /** Deletes a key; returns its value or undefined. */
  delete(k: Value): Value | undefined {
    this.checkMutable("delete from");
    const key = hashKey(k);
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    return e.v;
  }
  clear(): void {
    this.checkMutable("clear");
    this.map.clear();
  }
  override items(): [Value, Value][] {
    const out: [Value, Value][] = [];
    for (const e of this.map.values()) out.push([e.k, e.v]);
    return out;
  }
  keys(): Value[] {
    const out: Value[] = [];
    for (const e of this.map.values()) out.push(e.k);
    return out;
  }
  values(): Value[] {
    const out: Value[] = [];
    for (const e of this.map.values()) out.push(e.v);
    return out;
  }
  entries(): IterableIterator<Entry> {
    return this.map.values();
  }
  override iterate(): Iter {
    if (!this.frozen) this.itercount++;
    return new KeyIter(this, this.map.values());
  }
  override has(y: Value): boolean {
    return this.map.has(hashKey(y));
  }
  override compareSame(op: Token, y: Value, depth: number): boolean {
    if (op === T.EQL) return dictsEqual(this, y as Dict, depth);
    if (op === T.NEQ) return !dictsEqual(this, y as Dict, depth);
    return fail(`dict ${tokenString(op)} dict not implemented`);
  }
  override attr(name: string): Value | undefined {
    return builtinAttr(this, name, METHODS.dict);
  }
  override attrNames(): string[] {
    return builtinAttrNames(METHODS.dict);
  }
  /** Adds all entries of `other` (dict | dict). */
  addAll(other: Dict): void {
    for (const e of other.map.values()) this.setKey(e.k, e.v);
  }
}

class KeyIter implements Iter {
  constructor(
    private readonly t: HashTable,
    private readonly it: Iterator<Entry | Value>,
    private readonly isSet = false,
  ) {}
  next(): Value | undefined {
    const r = this.it.next();
    if (r.done) return undefined;
    return this.isSet ? (r.value as Value) : (r.value as Entry).k;
  }
  done(): void {
    if (!this.t.frozen) this.t.itercount--;
  }
}

function dictsEqual(x: Dict, y: Dict, depth: number): boolean {
  if (x.map.size !== y.map.size) return false;
  if (x.map.size > WORK_UNIT) allocHooks.work(x.map.size);
  for (const [key, e] of x.map) {
    const ye = y.map.get(key);
    if (ye === undefined) return false;
    if (!equalDepth(e.v, ye.v, depth - 1)) return false;
  }
  return true;
}

// ---- set ----

export class SetValue extends HashTable {
  readonly map = new Map<Key, Value>();
  typeName(): string {
    return "set";
  }
  override repr(path: SValue[]): string {
    let s = "set([";
    let sep = "";
    for (const v of this.map.values()) {
      s += sep + reprPath(v, path);
      sep = ", ";
    }
    return `${s}])`;
  }
  override truth(): boolean {
    return this.map.size > 0;
  }
  override hashKey(): Key {
    return fail("unhashable type: set");
  }
  override freeze(): void {
    if (!this.frozen) {
      this.frozen = true;
      for (const v of this.map.values()) freeze(v);
    }
  }
  override len(): number {
    return this.map.size;
  }
  override has(y: Value): boolean {
    return this.map.has(hashKey(y));
  }
  insert(v: Value): void {
    this.checkMutable("insert into");
    const k = hashKey(v);
    if (!this.map.has(k)) this.map.set(k, v);
  }
  /** Deletes; reports whether it was present. */
  delete(v: Value): boolean {
    this.checkMutable("delete from");
    return this.map.delete(hashKey(v));
  }
  clear(): void {
    this.checkMutable("clear");
    this.map.clear();
  }
  elems(): Value[] {
    return [...this.map.values()];
  }
  override iterate(): Iter {
    if (!this.frozen) this.itercount++;
    return new KeyIter(this, this.map.values(), true);
  }
  clone(): SetValue {
    const s = new SetValue();
    for (const [k, v] of this.map) s.map.set(k, v);
    return s;
  }
  override compareSame(op: Token, y: Value): boolean {
    const ys = y as SetValue;
    switch (op) {
      case T.EQL:
        return setsEqual(this, ys);
      case T.NEQ:
        return !setsEqual(this, ys);
      case T.GE:
        return this.map.size >= ys.map.size && isSuperset(this, ys.elems());
      case T.LE:
        return this.map.size <= ys.map.size && isSubset(this, ys.elems());
      case T.GT:
        return this.map.size > ys.map.size && isSuperset(this, ys.elems());
      case T.LT:
        return this.map.size < ys.map.size && isSubset(this, ys.elems());
    }
    return fail(`set ${tokenString(op)} set not implemented`);
  }
  override attr(name: string): Value | undefined {
    return builtinAttr(this, name, METHODS.set);
  }
  override attrNames(): string[] {
    return builtinAttrNames(METHODS.set);
  }
}

function setsEqual(x: SetValue, y: SetValue): boolean {
  if (x.map.size !== y.map.size) return false;
  if (x.map.size > WORK_UNIT) allocHooks.work(x.map.size);
  for (const k of x.map.keys()) if (!y.map.has(k)) return false;
  return true;
}

/** Reports whether every element of `other` is in `s`. */
export function isSuperset(s: SetValue, other: Value[]): boolean {
  for (const x of other) if (!s.map.has(hashKey(x))) return false;
  return true;
}

/** Reports whether every element of `s` is in `other`. */
export function isSubset(s: SetValue, other: Value[]): boolean {
  const seen = new Set<Key>();
  for (const x of other) {
    const k = hashKey(x);
    if (s.map.has(k)) seen.add(k);
  }
  return seen.size === s.map.size;
}

// ---- range ----

export class Range extends SValue {
  readonly len_: number;
  constructor(
    readonly start: number,
    readonly stop: number,
    readonly step: number,
  ) {
    super();
    this.len_ = rangeLen(start, stop, step);
  }
  typeName(): string {
    return "range";
  }
  override repr(): string {
    const [a, b, c] = [intOf(this.start), intOf(this.stop), intOf(this.step)];
    if (this.step !== 1) return `range(${a}, ${b}, ${c})`;
    if (this.start !== 0) return `range(${a}, ${b})`;
    return `range(${b})`;
  }
  override truth(): boolean {
    return this.len_ > 0;
  }
  override hashKey(): Key {
    return fail("unhashable: range");
  }
  override len(): number {
    return this.len_;
  }
  /** The exact length (a bigint beyond 2^53, where len() is approximate). */
  exactLen(): Int {
    if (Number.isSafeInteger(this.len_)) return this.len_;
    const [a, b, c] = [BigInt(this.start), BigInt(this.stop), BigInt(this.step)];
    if (c > 0n) return normBig(b > a ? (b - 1n - a) / c + 1n : 0n);
    return normBig(a > b ? (a - 1n - b) / -c + 1n : 0n);
  }
  override index(i: number): Value {
    return intOf(this.start + i * this.step);
  }
  override slice(start: number, end: number, step: number): Value {
    return new Range(this.start + this.step * start, this.start + this.step * end, this.step * step);
  }
  override iterate(): Iter {
    return new RangeIter(this);
  }
  override has(y: Value): boolean {
    let i: Int;
    try {
      if (typeof y === "boolean") throw 0;
      i = numberToInt(y);
    } catch {
      return fail(`'in <range>' requires integer as left operand, not ${typeName(y)}`);
    }
    if (typeof i !== "number" || i < -2147483648 || i > 2147483647) return false;
    const delta = i - this.start;
    const quo = Math.trunc(delta / this.step);
    const rem = delta % this.step;
    return rem === 0 && quo >= 0 && quo < this.len_;
  }
  override compareSame(op: Token, y: Value): boolean {
    const r = y as Range;
    if (op === T.EQL) return rangeEqual(this, r);
    if (op === T.NEQ) return !rangeEqual(this, r);
    return fail(`range ${tokenString(op)} range not implemented`);
  }
}

class RangeIter implements Iter {
  private i = 0;
  constructor(private readonly r: Range) {}
  next(): Value | undefined {
    if (this.i >= this.r.len_) return undefined;
    return intOf(this.r.start + this.i++ * this.r.step);
  }
  done(): void {}
}

function rangeLen(start: number, stop: number, step: number): number {
  if (step > 0) return stop > start ? Math.floor((stop - 1 - start) / step) + 1 : 0;
  if (step < 0) return start > stop ? Math.floor((start - 1 - stop) / -step) + 1 : 0;
  return 0;
}

function rangeEqual(x: Range, y: Range): boolean {
  if (x.len_ !== y.len_) return false;
  if (x.len_ === 0) return true;
  if (x.start !== y.start) return false;
  return x.len_ === 1 || x.step === y.step;
}

// ---- builtins and methods ----

/** A built-in implementation: `recv` is the receiver of a method, `name` the builtin's name. */
export type BuiltinFn = (
  th: Thread,
  args: Value[],
  kwargs: Kwargs | null,
  recv: Value,
  name: string,
) => Value;

/** A built-in function or bound method (go.starlark.net's *Builtin). */
export class Builtin extends SValue {
  constructor(
    override readonly name: string,
    readonly impl: BuiltinFn,
    readonly recv: Value | undefined = undefined,
  ) {
    super();
  }
  typeName(): string {
    return "builtin_function_or_method";
  }
  override repr(): string {
    if (this.recv !== undefined) return `<built-in method ${this.name} of ${typeName(this.recv)} value>`;
    return `<built-in function ${this.name}>`;
  }
  override hashKey(): Key {
    return this;
  }
  override freeze(): void {
    if (this.recv !== undefined) freeze(this.recv);
  }
  override callInternal(th: Thread, args: Value[], kwargs: Kwargs | null): Value {
    return this.impl(th, args, kwargs, this.recv as Value, this.name);
  }
  /** Returns this builtin bound to a receiver. */
  bind(recv: Value): Builtin {
    return new Builtin(this.name, this.impl, recv);
  }
}

/** Method tables of the built-in types, filled in by the methods module. */
export const METHODS: {
  string: Map<string, Builtin>;
  bytes: Map<string, Builtin>;
  list: Map<string, Builtin>;
  dict: Map<string, Builtin>;
  set: Map<string, Builtin>;
} = { string: new Map(), bytes: new Map(), list: new Map(), dict: new Map(), set: new Map() };

function builtinAttr(recv: Value, name: string, methods: Map<string, Builtin>): Value | undefined {
  const b = methods.get(name);
  return b === undefined ? undefined : b.bind(recv);
}

function builtinAttrNames(methods: Map<string, Builtin>): string[] {
  return [...methods.keys()].sort();
}

/** The method table of a built-in value's type, if any (used by the fast method-call path). */
export function methodTable(x: Value): Map<string, Builtin> | undefined {
  if (typeof x === "string") return METHODS.string;
  if (x instanceof List) return METHODS.list;
  if (x instanceof Dict) return METHODS.dict;
  if (x instanceof SetValue) return METHODS.set;
  if (x instanceof Bytes) return METHODS.bytes;
  return undefined;
}

/** A module value: a named set of members (go.starlark.net's starlarkstruct.Module). */
export class Module extends SValue {
  constructor(
    readonly moduleName: string,
    readonly members: Map<string, Value>,
  ) {
    super();
  }
  typeName(): string {
    return "module";
  }
  override repr(): string {
    return `<module ${JSON.stringify(this.moduleName)}>`;
  }
  override hashKey(): Key {
    return fail("unhashable: module");
  }
  override freeze(): void {
    for (const v of this.members.values()) freeze(v);
  }
  override attr(name: string): Value | undefined {
    return this.members.get(name);
  }
  override attrNames(): string[] {
    return [...this.members.keys()].sort();
  }
}

// ---- generic operations ----

/** The type name of a value, as `type(x)` returns it. */
export function typeName(v: Value): string {
  switch (typeof v) {
    case "number":
    case "bigint":
      return "int";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    default:
      return v.typeName();
  }
}

/** The truth value of a value. */
export function truth(v: Value): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
      return v !== 0;
    case "string":
      return v.length > 0;
    case "bigint":
      return true;
    default:
      return v.truth();
  }
}

function reprPath(v: Value, path: SValue[]): string {
  switch (typeof v) {
    case "number":
      return String(v);
    case "bigint":
      return intText(v);
    case "string":
      return quote(v);
    case "boolean":
      return v ? "True" : "False";
    default:
      return v.repr(path);
  }
}

/** The repr of a value (`repr(x)`), as a byte string. */
export function repr(v: Value): string {
  return reprPath(v, []);
}

/** The str of a value (`str(x)`): strings are unquoted. */
export function str(v: Value): string {
  return typeof v === "string" ? v : reprPath(v, []);
}

/** A dict/set key for a value; throws "unhashable type: T". */
export function hashKey(v: Value): Key {
  switch (typeof v) {
    case "string":
    case "number":
    case "bigint":
    case "boolean":
      return v;
    default:
      return v.hashKey();
  }
}

/** The values waiting to be frozen while a {@link freeze} is running (freeze is iterative). */
let freezeStack: Value[] | null = null;

/**
 * Freezes a value and everything reachable from it (go.starlark.net's Freeze). Iterative: a
 * freeze() method's calls of this function are queued, so a deeply nested value cannot exhaust the
 * host stack, and each container is visited once.
 */
export function freeze(v: Value): void {
  if (typeof v !== "object") return;
  if (freezeStack !== null) {
    freezeStack.push(v);
    return;
  }
  const stack: Value[] = [v];
  freezeStack = stack;
  try {
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (typeof x === "object") x.freeze();
    }
  } finally {
    freezeStack = null;
  }
}

/** Reports whether a value is frozen (always true for immutable values). */
export function isFrozen(v: Value): boolean {
  if (v instanceof List || v instanceof HashTable) return v.frozen;
  return true;
}

/** The maximum comparison depth (go.starlark.net's CompareLimit). */
export const COMPARE_LIMIT = 10;

/** Reports whether x == y. */
export function equal(x: Value, y: Value): boolean {
  if (typeof x === "string") return x === y;
  return compareDepth(T.EQL, x, y, COMPARE_LIMIT);
}

export function equalDepth(x: Value, y: Value, depth: number): boolean {
  return compareDepth(T.EQL, x, y, depth);
}

/** Evaluates a comparison `x op y` (==, !=, <, <=, >, >=). */
export function compare(op: Token, x: Value, y: Value): boolean {
  return compareDepth(op, x, y, COMPARE_LIMIT);
}

export function threeway(op: Token, c: number): boolean {
  switch (op) {
    case T.EQL:
      return c === 0;
    case T.NEQ:
      return c !== 0;
    case T.LE:
      return c <= 0;
    case T.LT:
      return c < 0;
    case T.GE:
      return c >= 0;
    default:
      return c > 0;
  }
}

function intFloatCmp(x: Int, y: number): number {
  if (Number.isNaN(y)) return -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Compares x and y; `depth` bounds recursion into containers. */
export function compareDepth(op: Token, x: Value, y: Value, depth: number): boolean {
  if (depth < 1) fail("comparison exceeded maximum recursion depth");
  const tx = typeof x;
  const ty = typeof y;
  if (tx === "number" || tx === "bigint") {
    if (ty === "number" || ty === "bigint") {
      const a = x as Int;
      const b = y as Int;
      return threeway(op, a < b ? -1 : a > b ? 1 : 0);
    }
    if (y instanceof Float) return threeway(op, intFloatCmp(x as Int, y.v));
  } else if (tx === "string") {
    if (ty === "string") {
      return threeway(op, x < y ? -1 : x > y ? 1 : 0);
    }
  } else if (tx === "boolean") {
    if (ty === "boolean") return threeway(op, (x ? 1 : 0) - (y ? 1 : 0));
  } else if (x instanceof Float) {
    if (y instanceof Float) return threeway(op, floatCmp(x.v, y.v));
    if (ty === "number" || ty === "bigint") return threeway(op, -intFloatCmp(y as Int, x.v));
  } else if (typeof y === "object" && sameType(x as SValue, y)) {
    const sx = x as SValue;
    if (sx.compareSame !== undefined) return sx.compareSame(op, y, depth);
    if (sx.cmp !== undefined) return threeway(op, sx.cmp(y, depth));
    if (op === T.EQL) return x === y;
    if (op === T.NEQ) return x !== y;
    return fail(`${typeName(x)} ${tokenString(op)} ${typeName(y)} not implemented`);
  }
  if (op === T.EQL) return false;
  if (op === T.NEQ) return true;
  return fail(`${typeName(x)} ${tokenString(op)} ${typeName(y)} not implemented`);
}

function sameType(x: SValue, y: SValue): boolean {
  return x.constructor === y.constructor || x.typeName() === y.typeName();
}

function sliceCompare(op: Token, x: Value[], y: Value[], depth: number): boolean {
  if (x.length !== y.length && (op === T.EQL || op === T.NEQ)) return op === T.NEQ;
  if (x.length > WORK_UNIT) allocHooks.work(x.length);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (!equalDepth(x[i]!, y[i]!, depth - 1)) {
      if (op === T.EQL) return false;
      if (op === T.NEQ) return true;
      return compareDepth(op, x[i]!, y[i]!, depth - 1);
    }
  }
  return threeway(op, x.length - y.length);
}

/** An iterator over a value, or null if it is not iterable. */
export function iterate(x: Value): Iter | null {
  if (typeof x === "object" && x.iterate !== undefined) return x.iterate();
  return null;
}

/** The length of a value, or -1 if it has none. */
export function length(x: Value): number {
  if (typeof x === "string") return x.length;
  if (typeof x === "object" && x.len !== undefined) return x.len();
  return -1;
}

/** Reports whether a value is iterable. */
export function isIterable(x: Value): boolean {
  return typeof x === "object" && x.iterate !== undefined;
}

/** The elements of an iterable as an array (the caller checked iterability). */
export function toArray(x: Value): Value[] {
  if (x instanceof List || x instanceof Tuple) return x.elems.slice();
  const it = iterate(x)!;
  const out: Value[] = [];
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) out.push(v);
  } finally {
    it.done();
  }
  return out;
}

function outOfRange(i: number, n: number, x: Value): never {
  if (n === 0) fail(`index ${i} out of range: empty ${typeName(x)}`);
  fail(`${typeName(x)} index ${i} out of range [${-n}:${n - 1}]`);
}

/** x[y] */
export function getIndex(x: Value, y: Value): Value {
  if (typeof x === "string") {
    const n = x.length;
    let i: number;
    try {
      i = asInt32(y);
    } catch (e) {
      return fail(`string index: ${(e as Error).message}`);
    }
    const orig = i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) outOfRange(orig, n, x);
    return x[i]!;
  }
  if (typeof x === "object") {
    if (x.get !== undefined) {
      const v = x.get(y);
      if (v === undefined) fail(`key ${repr(y)} not in ${typeName(x)}`);
      return v;
    }
    if (x.index !== undefined && x.len !== undefined) {
      const n = x.len();
      let i: number;
      try {
        i = asInt32(y);
      } catch (e) {
        return fail(`${typeName(x)} index: ${(e as Error).message}`);
      }
      const orig = i;
      if (i < 0) i += n;
      if (i < 0 || i >= n) outOfRange(orig, n, x);
      return x.index(i);
    }
  }
  return fail(`unhandled index operation ${typeName(x)}[${typeName(y)}]`);
}

/** x[y] = z */
export function setIndex(x: Value, y: Value, z: Value): void {
  if (typeof x === "object") {
    if (x.setKey !== undefined) {
      x.setKey(y, z);
      return;
    }
    if (x.setIndex !== undefined && x.len !== undefined) {
      const n = x.len();
      const i0 = asInt32(y);
      let i = i0;
      if (i < 0) i += n;
      if (i < 0 || i >= n) outOfRange(i0, n, x);
      x.setIndex(i, z);
      return;
    }
  }
  fail(`${typeName(x)} value does not support item assignment`);
}

function asIndex(v: Value | undefined, len: number, dflt: number): number {
  if (v === undefined || v === None) return dflt;
  let i = asInt32(v);
  if (i < 0) i += len;
  return i;
}

/** x[lo:hi:step] (absent parts are None). */
export function slice(x: Value, lo: Value, hi: Value, stepv: Value): Value {
  const n = length(x);
  const sliceable = typeof x === "string" || (typeof x === "object" && x.slice !== undefined);
  if (!sliceable || n < 0) fail(`invalid slice operand ${typeName(x)}`);
  let step = 1;
  if (stepv !== None) {
    try {
      step = asInt32(stepv);
    } catch (e) {
      fail(`invalid slice step: ${(e as Error).message}`);
    }
    if (step === 0) fail("zero is not a valid slice step");
  }
  let start: number;
  let end: number;
  if (step > 0) {
    try {
      start = asIndex(lo, n, 0);
    } catch (e) {
      return fail(`invalid start index: ${(e as Error).message}`);
    }
    start = start < 0 ? 0 : Math.min(start, n);
    try {
      end = asIndex(hi, n, n);
    } catch (e) {
      return fail(`invalid end index: ${(e as Error).message}`);
    }
    end = end < 0 ? 0 : Math.min(end, n);
    if (end < start) end = start;
  } else {
    try {
      start = asIndex(lo, n, n - 1);
    } catch (e) {
      return fail(`invalid start index: ${(e as Error).message}`);
    }
    if (start >= n) start = n - 1;
    try {
      end = asIndex(hi, n, -1);
    } catch (e) {
      return fail(`invalid end index: ${(e as Error).message}`);
    }
    if (end < -1) end = -1;
    if (start < end) start = end;
  }
  if (typeof x === "string") return sliceString(x, start, end, step);
  return (x as SValue).slice!(start, end, step);
}

/** x.name (with go.starlark.net's spelling hints). */
export function getAttr(x: Value, name: string): Value {
  let sx: SValue | undefined;
  if (typeof x === "string") {
    const b = METHODS.string.get(name);
    if (b !== undefined) return b.bind(x);
    const n = nearest(name, builtinAttrNames(METHODS.string));
    return fail(`string has no .${name} field or method${n !== "" ? ` (did you mean .${n}?)` : ""}`);
  }
  if (typeof x === "object" && x.attr !== undefined) sx = x;
  if (sx === undefined) fail(`${typeName(x)} has no .${name} field or method`);
  let msg: string;
  try {
    const v = sx.attr!(name);
    if (v !== undefined) return v;
    msg = `${typeName(x)} has no .${name} field or method`;
  } catch (e) {
    if (!(e instanceof NoSuchAttrError)) throw e;
    msg = e.message;
  }
  const n = nearest(name, sx.attrNames?.() ?? []);
  if (n !== "") msg = `${msg} (did you mean .${n}?)`;
  return fail(msg);
}

/** The attribute names of a value (`dir(x)`), sorted. */
export function attrNames(x: Value): string[] {
  if (typeof x === "string") return builtinAttrNames(METHODS.string);
  if (typeof x === "object" && x.attrNames !== undefined) return [...x.attrNames()].sort();
  return [];
}

/** x.name = y */
export function setField(x: Value, name: string, y: Value): void {
  if (typeof x === "object" && x.setField !== undefined) {
    try {
      x.setField(name, y);
    } catch (e) {
      if (e instanceof NoSuchAttrError) {
        const n = nearest(name, x.attrNames?.() ?? []);
        if (n !== "") fail(`${e.message} (did you mean .${n}?)`);
      }
      throw e;
    }
    return;
  }
  fail(`can't assign to .${name} field of ${typeName(x)}`);
}

/** Unary operators -x, +x, ~x (not is handled by the evaluator). */
export function unary(op: Token, x: Value): Value {
  if (isInt(x)) {
    if (op === T.MINUS) return intNeg(x);
    if (op === T.PLUS) return x;
    if (op === T.TILDE) return intNot(x);
  } else if (x instanceof Float) {
    if (op === T.MINUS) return new Float(-x.v);
    if (op === T.PLUS) return x;
  } else if (typeof x === "object" && x.unary !== undefined) {
    const y = x.unary(op);
    if (y !== undefined) return y;
  }
  return fail(`unknown unary op: ${tokenString(op)} ${typeName(x)}`);
}

/** Hooks the evaluator installs for operations that allocate (memory accounting). */
export const allocHooks: { charge: (bytes: number) => void; work: (steps: number) => void } = {
  charge: () => {},
  work: () => {},
};

/** Steps charged per this many bytes or elements processed by one operation. */
export const WORK_UNIT = 64;

// It's always possible to overeat in small bites, but stop someone swallowing the world in one gulp.
const MAX_ALLOC = 1 << 30;

function repeatCount(n: Int, elems: number): number {
  if (elems === 0) return 0;
  let i: number;
  try {
    i = asInt32(n);
  } catch {
    return fail(`repeat count ${String(n)} too large`);
  }
  if (i < 1) return 0;
  if (elems * i >= MAX_ALLOC) fail(`excessive repeat (${elems} * ${i} elements)`);
  return i;
}

function stringRepeat(s: string, n: Int): string {
  const i = repeatCount(n, s.length);
  if (i === 0) return "";
  allocHooks.charge(s.length * i);
  return s.repeat(i);
}

function arrayRepeat(a: Value[], n: Int): Value[] {
  const i = repeatCount(n, a.length);
  if (i === 0) return [];
  allocHooks.charge(8 * a.length * i);
  const out = new Array<Value>(a.length * i);
  for (let k = 0, p = 0; k < i; k++) for (let j = 0; j < a.length; j++) out[p++] = a[j]!;
  return out;
}

/** Concatenation of sequences: the copy is work; the memory that outlives the old operand is the added part. */
function chargeConcat(nx: number, ny: number): void {
  const n = nx + ny;
  if (n > WORK_UNIT) allocHooks.work(n / WORK_UNIT);
  allocHooks.charge(8 * Math.min(nx, ny) + 32);
}

function asFiniteFloat(x: Int): number {
  return intToFloat(x);
}

function fl(x: Value): number {
  return x instanceof Float ? x.v : asFiniteFloat(x as Int);
}

function isNum(x: Value): boolean {
  return isInt(x) || x instanceof Float;
}

/** Binary operators other than `and`, `or` and comparisons (go.starlark.net's Binary). */
export function binary(op: Token, x: Value, y: Value): Value {
  const xi = isInt(x);
  const yi = isInt(y);
  switch (op) {
    case T.PLUS:
      if (typeof x === "string") {
        if (typeof y === "string") {
          // JS strings concatenate as ropes: the new memory is about the smaller operand
          allocHooks.charge(Math.min(x.length, y.length) + 32);
          return x + y;
        }
      } else if (xi && yi) {
        return intAdd(x as Int, y as Int);
      } else if (x instanceof Bytes) {
        if (y instanceof Bytes) {
          allocHooks.charge(Math.min(x.s.length, y.s.length) + 32);
          return new Bytes(x.s + y.s);
        }
      } else if (isNum(x) && isNum(y)) {
        return new Float(fl(x) + fl(y));
      } else if (x instanceof List) {
        if (y instanceof List) {
          chargeConcat(x.elems.length, y.elems.length);
          return new List(x.elems.concat(y.elems));
        }
      } else if (x instanceof Tuple) {
        if (y instanceof Tuple) {
          chargeConcat(x.elems.length, y.elems.length);
          return new Tuple(x.elems.concat(y.elems));
        }
      }
      break;
    case T.MINUS:
      if (xi && yi) return intSub(x as Int, y as Int);
      if (isNum(x) && isNum(y)) return new Float(fl(x) - fl(y));
      if (x instanceof SetValue && y instanceof SetValue) {
        const diff = x.clone();
        for (const k of y.map.keys()) diff.map.delete(k);
        return diff;
      }
      break;
    case T.STAR:
      if (xi) {
        if (yi) return intMul(x as Int, y as Int);
        if (y instanceof Float) return new Float(asFiniteFloat(x as Int) * y.v);
        if (typeof y === "string") return stringRepeat(y, x as Int);
        if (y instanceof Bytes) return new Bytes(stringRepeat(y.s, x as Int));
        if (y instanceof List) return new List(arrayRepeat(y.elems, x as Int));
        if (y instanceof Tuple) return new Tuple(arrayRepeat(y.elems, x as Int));
      } else if (x instanceof Float) {
        if (isNum(y)) return new Float(x.v * fl(y));
      } else if (yi) {
        if (typeof x === "string") return stringRepeat(x, y as Int);
        if (x instanceof Bytes) return new Bytes(stringRepeat(x.s, y as Int));
        if (x instanceof List) return new List(arrayRepeat(x.elems, y as Int));
        if (x instanceof Tuple) return new Tuple(arrayRepeat(x.elems, y as Int));
      }
      break;
    case T.SLASH:
      if (isNum(x) && isNum(y)) {
        const a = fl(x);
        const b = fl(y);
        if (b === 0) fail("floating-point division by zero");
        return new Float(a / b);
      }
      break;
    case T.SLASHSLASH:
      if (xi && yi) {
        if (y === 0) fail("floored division by zero");
        return intFloorDiv(x as Int, y as Int);
      }
      if (isNum(x) && isNum(y)) {
        const a = fl(x);
        const b = fl(y);
        if (b === 0) fail("floored division by zero");
        return new Float(Math.floor(a / b));
      }
      break;
    case T.PERCENT:
      if (xi && yi) {
        if (y === 0) fail("integer modulo by zero");
        return intMod(x as Int, y as Int);
      }
      if (isNum(x) && isNum(y)) {
        if (y instanceof Float ? y.v === 0 : y === 0) fail("floating-point modulo by zero");
        return new Float(floatMod(fl(x), fl(y)));
      }
      if (typeof x === "string") return interpolateHook.fn(x, y);
      break;
    case T.NOT_IN:
      return !truth(binary(T.IN, x, y));
    case T.IN:
      if (typeof y === "string") {
        if (typeof x !== "string") fail(`'in <string>' requires string as left operand, not ${typeName(x)}`);
        if (y.length > WORK_UNIT) allocHooks.work(y.length / WORK_UNIT);
        return y.includes(x);
      }
      if (typeof y === "object") {
        if (y.get !== undefined) {
          try {
            return y.get(x) !== undefined;
          } catch {
            return false;
          }
        }
        if (y.has !== undefined) return y.has(x);
      }
      break;
    case T.PIPE:
      if (xi && yi) return intOr(x as Int, y as Int);
      if (x instanceof Dict && y instanceof Dict) {
        const z = new Dict();
        z.addAll(x);
        z.addAll(y);
        return z;
      }
      if (x instanceof SetValue && y instanceof SetValue) {
        const z = x.clone();
        for (const [k, v] of y.map) if (!z.map.has(k)) z.map.set(k, v);
        return z;
      }
      break;
    case T.AMP:
      if (xi && yi) return intAnd(x as Int, y as Int);
      if (x instanceof SetValue && y instanceof SetValue) {
        const z = new SetValue();
        for (const [k, v] of y.map) if (x.map.has(k)) z.map.set(k, v);
        return z;
      }
      break;
    case T.CIRCUMFLEX:
      if (xi && yi) return intXor(x as Int, y as Int);
      if (x instanceof SetValue && y instanceof SetValue) {
        const z = x.clone();
        for (const [k, v] of y.map) {
          if (z.map.has(k)) z.map.delete(k);
          else z.map.set(k, v);
        }
        return z;
      }
      break;
    case T.LTLT:
    case T.GTGT:
      if (xi) {
        const n = asInt32(y);
        if (n < 0) fail(`negative shift count: ${n}`);
        if (op === T.LTLT) {
          if (n >= 512) fail(`shift count too large: ${n}`);
          const r = intLsh(x as Int, n);
          if (typeof r === "bigint") allocHooks.charge(n >> 3);
          return r;
        }
        return intRsh(x as Int, n);
      }
      break;
    default:
      return fail(`unknown binary op: ${typeName(x)} ${tokenString(op)} ${typeName(y)}`);
  }
  if (typeof x === "object" && x.binary !== undefined) {
    const z = x.binary(op, y, false);
    if (z !== undefined) return z;
  }
  if (typeof y === "object" && y.binary !== undefined) {
    const z = y.binary(op, x, true);
    if (z !== undefined) return z;
  }
  return fail(`unknown binary op: ${typeName(x)} ${tokenString(op)} ${typeName(y)}`);
}

/** The `%` string interpolation, installed by the methods module. */
export const interpolateHook: { fn: (format: string, x: Value) => string } = {
  fn: () => fail("string interpolation unavailable"),
};

/** Formats a float per a % conversion (e, f, g, E, F, G) as go.starlark.net does. */
export function formatFloatConv(f: number, conv: string): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? "nan" : f > 0 ? "+inf" : "-inf";
  if (conv === "g" || conv === "G") {
    // Shortest form, always self-evidently a float: "123" -> "123.0" (not "1e+06").
    const s = formatFloat(f, conv, -1);
    return s.includes(conv === "g" ? "e" : "E") || s.includes(".") ? s : `${s}.0`;
  }
  if (conv === "F") return "%F";
  return formatFloat(f, conv, 6);
}

/** A Cell holds a local variable shared with nested functions. */
export class Cell {
  v: Value | undefined = undefined;
}
