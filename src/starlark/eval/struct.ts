/**
 * Structs and modules (go.starlark.net/starlarkstruct): `struct(**kwargs)` builds an immutable record
 * with fields sorted by name; `module(name, **kwargs)` a named namespace.
 */

import { T, type Token } from "../syntax/syntax.js";
import { toStr, unpackPositional } from "./args.js";
import {
  Builtin,
  equal,
  equalDepth,
  fail,
  freeze,
  hashKey,
  type Key,
  type Kwargs,
  keyString,
  Module,
  NoSuchAttrError,
  repr,
  StarlarkError,
  SValue,
  type Value,
} from "./values.js";

/** The default constructor of unbranded structs: the string "struct". */
export const DEFAULT_CONSTRUCTOR = "struct";

/** An immutable record of named fields (go.starlark.net's starlarkstruct.Struct). */
export class Struct extends SValue {
  private frozen = false;
  readonly names: string[];
  readonly vals: Value[];
  constructor(
    readonly constructorValue: Value,
    fields: Iterable<[string, Value]>,
  ) {
    super();
    const entries = [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.names = entries.map((e) => e[0]);
    this.vals = entries.map((e) => e[1]);
  }
  typeName(): string {
    return "struct";
  }
  override repr(path: SValue[]): string {
    const c = this.constructorValue;
    let s = typeof c === "string" ? c : repr(c);
    s += "(";
    for (let i = 0; i < this.names.length; i++) {
      if (i > 0) s += ", ";
      s += `${this.names[i]} = ${reprIn(this.vals[i]!, path)}`;
    }
    return `${s})`;
  }
  override hashKey(): Key {
    let k = `\u0100S${keyString(hashKey(this.constructorValue))}`;
    for (let i = 0; i < this.names.length; i++)
      k += keyString(this.names[i]!) + keyString(hashKey(this.vals[i]!));
    return k;
  }
  override freeze(): void {
    if (!this.frozen) {
      this.frozen = true;
      for (const v of this.vals) freeze(v);
    }
  }
  override attr(name: string): Value | undefined {
    const i = this.indexOf(name);
    if (i >= 0) return this.vals[i];
    const c = this.constructorValue;
    const ctor = c === DEFAULT_CONSTRUCTOR ? "" : `${typeof c === "string" ? repr(c) : repr(c)} `;
    throw new NoSuchAttrError(`${ctor}struct has no .${name} attribute`);
  }
  override attrNames(): string[] {
    return this.names.slice();
  }
  private indexOf(name: string): number {
    let lo = 0;
    let hi = this.names.length;
    while (lo < hi) {
      const h = (lo + hi) >>> 1;
      if (this.names[h]! < name) lo = h + 1;
      else hi = h;
    }
    return lo < this.names.length && this.names[lo] === name ? lo : -1;
  }
  override binary(op: Token, y: Value, right: boolean): Value | undefined {
    if (op !== T.PLUS || !(y instanceof Struct)) return undefined;
    const [a, b] = right ? [y, this] : [this, y];
    let eq: boolean;
    try {
      eq = equal(a.constructorValue, b.constructorValue);
    } catch (e) {
      return fail(
        `in ${repr(a.constructorValue)} + ${repr(b.constructorValue)}: error comparing constructors: ${(e as Error).message}`,
      );
    }
    if (!eq) {
      fail(
        `cannot add structs of different constructors: ${ctorString(a.constructorValue)} + ${ctorString(b.constructorValue)}`,
      );
    }
    const m = new Map<string, Value>();
    for (let i = 0; i < a.names.length; i++) m.set(a.names[i]!, a.vals[i]!);
    for (let i = 0; i < b.names.length; i++) m.set(b.names[i]!, b.vals[i]!);
    return new Struct(a.constructorValue, m);
  }
  override compareSame(op: Token, y: Value, depth: number): boolean {
    const ys = y as Struct;
    if (op === T.EQL) return structsEqual(this, ys, depth);
    if (op === T.NEQ) return !structsEqual(this, ys, depth);
    return fail(
      `struct ${op === T.LT ? "<" : op === T.GT ? ">" : op === T.LE ? "<=" : ">="} struct not implemented`,
    );
  }
}

function ctorString(c: Value): string {
  return typeof c === "string" ? repr(c) : repr(c);
}

function reprIn(v: Value, path: SValue[]): string {
  return typeof v === "object" ? v.repr(path) : repr(v);
}

function structsEqual(x: Struct, y: Struct, depth: number): boolean {
  if (x.names.length !== y.names.length) return false;
  let eq: boolean;
  try {
    eq = equal(x.constructorValue, y.constructorValue);
  } catch (e) {
    throw new StarlarkError(
      `error comparing struct constructors ${repr(x.constructorValue)} and ${repr(y.constructorValue)}: ${(e as Error).message}`,
    );
  }
  if (!eq) return false;
  for (let i = 0; i < x.names.length; i++) {
    if (x.names[i] !== y.names[i]) return false;
    if (!equalDepth(x.vals[i]!, y.vals[i]!, depth - 1)) return false;
  }
  return true;
}

/** `struct(**kwargs)`. */
export const structBuiltin = new Builtin("struct", (_th, args, kwargs: Kwargs | null) => {
  if (args.length > 0) fail("struct: unexpected positional arguments");
  return new Struct(DEFAULT_CONSTRUCTOR, kwargs ?? []);
});

/** `module(name, **kwargs)`. */
export const moduleBuiltin = new Builtin("module", (_th, args, kwargs: Kwargs | null, _recv, name) => {
  const [n] = unpackPositional(name, args, null, 1, [toStr]) as [string];
  return new Module(n, new Map(kwargs ?? []));
});
