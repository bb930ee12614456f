/**
 * Rego values (OPA's `ast.Value` for ground terms): null, booleans, numbers, strings, arrays, objects with
 * keys of any type, and sets. Scalars are JS primitives; arrays are frozen JS arrays; objects and sets are
 * {@link RObject} / {@link RSet}, hashed by a canonical key so that structurally equal values are equal
 * whatever their insertion order. Values are never mutated once built.
 *
 * Ordering follows OPA's `ast.Compare`: null < boolean < number < string < array < object < set.
 */

/** A Rego value. */
export type Value = null | boolean | number | string | readonly Value[] | RObject | RSet;

/** A Rego object: keys are any values (string keys in the common case), kept in insertion order. */
export class RObject {
  /** canonical key → [key, value] */
  readonly map = new Map<string, [Value, Value]>();
  constructor(entries?: Iterable<readonly [Value, Value]>) {
    if (entries) for (const [k, v] of entries) this.map.set(keyOf(k), [k, v]);
  }
  get size(): number {
    return this.map.size;
  }
  get(k: Value): Value | undefined {
    return this.map.get(keyOf(k))?.[1];
  }
  has(k: Value): boolean {
    return this.map.has(keyOf(k));
  }
  /** Builder use only (before the object escapes). */
  set(k: Value, v: Value): void {
    this.map.set(keyOf(k), [k, v]);
  }
  entries(): IterableIterator<[Value, Value]> {
    return this.map.values();
  }
  keys(): Value[] {
    return [...this.map.values()].map((e) => e[0]);
  }
  /** Entries sorted by key (OPA's iteration order). */
  sortedEntries(): [Value, Value][] {
    return [...this.map.values()].sort((a, b) => compare(a[0], b[0]));
  }
}

/** A Rego set. */
export class RSet {
  readonly map = new Map<string, Value>();
  constructor(items?: Iterable<Value>) {
    if (items) for (const v of items) this.map.set(keyOf(v), v);
  }
  get size(): number {
    return this.map.size;
  }
  has(v: Value): boolean {
    return this.map.has(keyOf(v));
  }
  /** Builder use only. */
  add(v: Value): void {
    this.map.set(keyOf(v), v);
  }
  values(): IterableIterator<Value> {
    return this.map.values();
  }
  /** Elements sorted (OPA's iteration order). */
  sorted(): Value[] {
    return [...this.map.values()].sort(compare);
  }
}

const keyCache = new WeakMap<object, string>();

/** A canonical string for a value: equal values (sets/objects in any order) have equal keys. */
export function keyOf(v: Value): string {
  switch (typeof v) {
    case "string":
      return `s${v}`;
    case "number":
      return `#${Object.is(v, -0) ? 0 : v}`;
    case "boolean":
      return v ? "t" : "f";
    default:
      break;
  }
  if (v === null) return "n";
  const hit = keyCache.get(v as object);
  if (hit !== undefined) return hit;
  let k: string;
  if (Array.isArray(v)) k = `[${(v as Value[]).map((e) => JSON.stringify(keyOf(e))).join(",")}]`;
  else if (v instanceof RSet)
    k = `<${[...v.map.keys()]
      .sort()
      .map((e) => JSON.stringify(e))
      .join(",")}>`;
  else {
    const o = v as RObject;
    k = `{${[...o.map.entries()]
      .map(([kk, e]) => [kk, keyOf(e[1])] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([kk, vk]) => `${JSON.stringify(kk)}:${JSON.stringify(vk)}`)
      .join(",")}}`;
  }
  keyCache.set(v as object, k);
  return k;
}

/** Structural equality. */
export function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return typeof a === "number" && typeof b === "number" && a === b;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i] as Value, b[i] as Value)) return false;
    return true;
  }
  if (a instanceof RSet) {
    if (!(b instanceof RSet) || a.size !== b.size) return false;
    for (const k of a.map.keys()) if (!b.map.has(k)) return false;
    return true;
  }
  if (!(a instanceof RObject) || !(b instanceof RObject) || a.size !== b.size) return false;
  for (const [k, e] of a.map) {
    const o = b.map.get(k);
    if (o === undefined || !equal(e[1], o[1])) return false;
  }
  return true;
}

function rank(v: Value): number {
  if (v === null) return 0;
  switch (typeof v) {
    case "boolean":
      return 1;
    case "number":
      return 2;
    case "string":
      return 3;
    default:
      return Array.isArray(v) ? 4 : v instanceof RObject ? 5 : 6;
  }
}

/** OPA's total order on values: negative, zero or positive. */
export function compare(a: Value, b: Value): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return (a ? 1 : 0) - (b ? 1 : 0);
    case 2:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 3: {
      // Go compares strings by bytes; for BMP text, code-unit order is the same except surrogates.
      const x = a as string;
      const y = b as string;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4: {
      const x = a as Value[];
      const y = b as Value[];
      for (let i = 0; i < x.length && i < y.length; i++) {
        const c = compare(x[i] as Value, y[i] as Value);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    case 5: {
      const x = (a as RObject).sortedEntries();
      const y = (b as RObject).sortedEntries();
      for (let i = 0; i < x.length && i < y.length; i++) {
        const xi = x[i] as [Value, Value];
        const yi = y[i] as [Value, Value];
        let c = compare(xi[0], yi[0]);
        if (c !== 0) return c;
        c = compare(xi[1], yi[1]);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    default: {
      const x = (a as RSet).sorted();
      const y = (b as RSet).sorted();
      for (let i = 0; i < x.length && i < y.length; i++) {
        const c = compare(x[i] as Value, y[i] as Value);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
  }
}

/** OPA's type names: null, boolean, number, string, array, object, set. */
export function typeName(v: Value): string {
  return ["null", "boolean", "number", "string", "array", "object", "set"][rank(v)] as string;
}

/** The `object` built from string-keyed entries. */
export function obj(entries: Record<string, Value>): RObject {
  const o = new RObject();
  for (const [k, v] of Object.entries(entries)) o.set(k, v);
  return o;
}

/** Iterates a collection as OPA does: arrays by index, objects by key, sets by element (as key and value). */
export function* iterate(v: Value): Generator<[Value, Value]> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) yield [i, v[i] as Value];
  } else if (v instanceof RObject) {
    yield* v.entries();
  } else if (v instanceof RSet) {
    for (const e of v.values()) yield [e, e];
  }
}

/** Looks up `key` in a collection: an array index, object key or set element; undefined when absent. */
export function lookup(coll: Value, key: Value): Value | undefined {
  if (Array.isArray(coll)) {
    if (typeof key !== "number" || !Number.isInteger(key) || key < 0 || key >= coll.length) return undefined;
    return coll[key] as Value;
  }
  if (coll instanceof RObject) return coll.get(key);
  if (coll instanceof RSet) return coll.has(key) ? key : undefined;
  return undefined;
}
