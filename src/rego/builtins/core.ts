/** OPA's core builtins: comparison, numbers, bits, aggregates, arrays, sets, types, objects, walk. */
import { BuiltinError } from "../errors.js";
import {
  compare,
  equal,
  iterate,
  keyOf,
  RObject,
  RSet,
  toRegoString,
  typeName,
  type Value,
} from "../values.js";
import { arr, type BuiltinCtx, coll, def, num, objArg, set, str, typeErr } from "./registry.js";

function arith(name: string, f: (a: number, b: number) => number): void {
  def(name, 2, (a) => {
    const x = num(name, a, 0);
    const y = num(name, a, 1);
    return f(x, y);
  });
}

// ---- comparison ---------------------------------------------------------------------------------
def("equal", 2, (a) => equal(a[0] as Value, a[1] as Value));
def("neq", 2, (a) => !equal(a[0] as Value, a[1] as Value));
def("lt", 2, (a) => compare(a[0] as Value, a[1] as Value) < 0);
def("gt", 2, (a) => compare(a[0] as Value, a[1] as Value) > 0);
def("lte", 2, (a) => compare(a[0] as Value, a[1] as Value) <= 0);
def("gte", 2, (a) => compare(a[0] as Value, a[1] as Value) >= 0);

// ---- numbers ------------------------------------------------------------------------------------
def("plus", 2, (a) => num("add", a, 0) + num("add", a, 1));
def("minus", 2, (a) => {
  const [x, y] = a as [Value, Value];
  if (x instanceof RSet && y instanceof RSet) {
    const out = new RSet();
    for (const [k, v] of x.map) if (!y.map.has(k)) out.add(v);
    return out;
  }
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (x instanceof RSet || y instanceof RSet)
    throw typeErr("sub", x instanceof RSet ? 1 : 0, "set", x instanceof RSet ? y : x);
  throw typeErr("sub", typeof x === "number" ? 1 : 0, "numeric", typeof x === "number" ? y : x);
});
arith("mul", (x, y) => x * y);
def("div", 2, (a) => {
  const x = num("div", a, 0);
  const y = num("div", a, 1);
  if (y === 0) throw new BuiltinError("divide by zero");
  return x / y;
});
def("rem", 2, (a) => {
  const x = num("mod", a, 0);
  const y = num("mod", a, 1);
  if (!Number.isSafeInteger(x) || !Number.isSafeInteger(y))
    throw new BuiltinError("modulo on floating-point number");
  if (y === 0) throw new BuiltinError("modulo by zero");
  const r = x % y;
  return Object.is(r, -0) ? 0 : r;
});
def("abs", 1, (a) => Math.abs(num("abs", a, 0)));
def("round", 1, (a) => {
  const x = num("round", a, 0);
  return Math.sign(x) * Math.round(Math.abs(x));
});
def("ceil", 1, (a) => Math.ceil(num("ceil", a, 0)));
def("floor", 1, (a) => Math.floor(num("floor", a, 0)));
function range(name: string, a: Value[], step: number, ctx: BuiltinCtx): Value {
  const x = num(name, a, 0);
  const y = num(name, a, 1);
  if (!Number.isInteger(x) || !Number.isInteger(y))
    throw new BuiltinError(`\`${name}\` operands must be integers`);
  const out: number[] = [];
  if (x <= y) for (let i = x; i <= y; i += step) out.push(i);
  else for (let i = x; i >= y; i -= step) out.push(i);
  ctx.meter.alloc(out.length * 8);
  ctx.meter.step(out.length);
  return Object.freeze(out);
}
def("numbers.range", 2, (a, ctx) => {
  num("numbers.range", a, 0);
  num("numbers.range", a, 1);
  const n = Math.abs((a[1] as number) - (a[0] as number));
  ctx.meter.step(n);
  return range("numbers.range", a, 1, ctx);
});
def("numbers.range_step", 3, (a, ctx) => {
  const s = num("numbers.range_step", a, 2);
  if (!Number.isInteger(s) || s <= 0)
    throw new BuiltinError("numbers.range_step: step must be a positive integer");
  ctx.meter.step(Math.abs((num("numbers.range_step", a, 1) - num("numbers.range_step", a, 0)) / s));
  return range("numbers.range_step", a, s, ctx);
});
def("rand.intn", 2, (a) => {
  const seed = str("rand.intn", a, 0);
  const n = num("rand.intn", a, 1);
  if (!Number.isInteger(n)) return undefined;
  if (n === 0) return 0;
  let h = 2166136261;
  for (const c of `${seed}\u0000${n}`) h = Math.imul(h ^ (c.codePointAt(0) as number), 16777619) >>> 0;
  return h % Math.abs(n);
});
function bits(name: string, f: (x: bigint, y: bigint) => bigint): void {
  def(name, 2, (a) => {
    for (let i = 0; i < 2; i++) {
      const v = a[i] as Value;
      if (typeof v !== "number")
        throw new BuiltinError(
          `\`${name}\` expects numeric argument. Got \`${toRegoString(v, false)}\` instead`,
        );
      if (!Number.isInteger(v))
        throw new BuiltinError(
          `\`${name}\` expects integer argument. Got \`${toRegoString(v, false)}\` instead`,
        );
    }
    return Number(f(BigInt(a[0] as number), BigInt(a[1] as number)));
  });
}
bits("bits.and", (x, y) => x & y);
bits("bits.or", (x, y) => x | y);
bits("bits.xor", (x, y) => x ^ y);
bits("bits.lsh", (x, y) => x << y);
bits("bits.rsh", (x, y) => x >> y);
def("bits.negate", 1, (a) => {
  const v = a[0] as Value;
  if (typeof v !== "number")
    throw new BuiltinError(
      `\`bits.negate\` expects numeric argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  if (!Number.isInteger(v))
    throw new BuiltinError(
      `\`bits.negate\` expects integer argument. Got \`${toRegoString(v, false)}\` instead`,
    );
  return Number(~BigInt(v));
});

// ---- aggregates ---------------------------------------------------------------------------------
def("count", 1, (a) => {
  const v = a[0] as Value;
  if (typeof v === "string") return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof RObject || v instanceof RSet) return v.size;
  throw typeErr("count", 0, "array/object/set/string", v, "requires");
});
def("sum", 1, (a) => {
  let s = 0;
  for (const v of coll("sum", a, 0)) {
    if (typeof v !== "number") throw typeErr("sum", 0, "array/set of numbers", v, "requires");
    s += v;
  }
  return s;
});
def("product", 1, (a) => {
  let s = 1;
  for (const v of coll("product", a, 0)) {
    if (typeof v !== "number") throw typeErr("product", 0, "array/set of numbers", v, "requires");
    s *= v;
  }
  return s;
});
def("max", 1, (a) => {
  const xs = coll("max", a, 0);
  if (xs.length === 0) return undefined;
  return xs.reduce((m, v) => (compare(v, m) > 0 ? v : m));
});
def("min", 1, (a) => {
  const xs = coll("min", a, 0);
  if (xs.length === 0) return undefined;
  return xs.reduce((m, v) => (compare(v, m) < 0 ? v : m));
});
def("sort", 1, (a, ctx) => {
  const xs = [...coll("sort", a, 0)];
  ctx.meter.step(xs.length);
  return Object.freeze(xs.sort(compare));
});
def("all", 1, (a) => coll("all", a, 0).every((v) => v === true));
def("any", 1, (a) => coll("any", a, 0).some((v) => v === true));

// ---- arrays -------------------------------------------------------------------------------------
def("array.concat", 2, (a, ctx) => {
  const x = arr("array.concat", a, 0);
  const y = arr("array.concat", a, 1);
  ctx.meter.alloc((x.length + y.length) * 8);
  return Object.freeze([...x, ...y]);
});
def("array.slice", 3, (a) => {
  const x = arr("array.slice", a, 0);
  let s = num("array.slice", a, 1);
  let e = num("array.slice", a, 2);
  if (!Number.isInteger(s) || !Number.isInteger(e))
    throw new BuiltinError("`array.slice` expects integer argument.");
  if (s < 0) s = 0;
  if (e > x.length) e = x.length;
  if (s >= e) return Object.freeze([]);
  return Object.freeze(x.slice(s, e));
});
def("array.reverse", 1, (a) => Object.freeze([...arr("array.reverse", a, 0)].reverse()));

// ---- sets ---------------------------------------------------------------------------------------
def("or", 2, (a) => {
  const x = set("or", a, 0);
  const y = set("or", a, 1);
  return new RSet([...x.values(), ...y.values()]);
});
def("and", 2, (a) => {
  const x = set("and", a, 0);
  const y = set("and", a, 1);
  const out = new RSet();
  for (const [k, v] of x.map) if (y.map.has(k)) out.add(v);
  return out;
});
def("union", 1, (a) => {
  const out = new RSet();
  for (const s of set("union", a, 0).values()) {
    if (!(s instanceof RSet)) throw typeErr("union", 0, "set of sets", s);
    for (const v of s.values()) out.add(v);
  }
  return out;
});
def("intersection", 1, (a) => {
  const sets = [...set("intersection", a, 0).values()];
  if (sets.length === 0) return new RSet();
  for (const s of sets) if (!(s instanceof RSet)) throw typeErr("intersection", 0, "set of sets", s);
  const [first, ...rest] = sets as RSet[];
  const out = new RSet();
  for (const [k, v] of (first as RSet).map) if (rest.every((r) => r.map.has(k))) out.add(v);
  return out;
});

// ---- types --------------------------------------------------------------------------------------
def("is_number", 1, (a) => typeof a[0] === "number");
def("is_string", 1, (a) => typeof a[0] === "string");
def("is_boolean", 1, (a) => typeof a[0] === "boolean");
def("is_array", 1, (a) => Array.isArray(a[0]));
def("is_set", 1, (a) => a[0] instanceof RSet);
def("is_object", 1, (a) => a[0] instanceof RObject);
def("is_null", 1, (a) => a[0] === null);
def("type_name", 1, (a) => typeName(a[0] as Value));
def("to_number", 1, (a) => {
  const v = a[0] as Value;
  if (v === null) return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") {
    const t = v.trim();
    if (t === "" || t !== v || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) {
      if (/^0x[0-9a-f]+$/i.test(t)) return Number.parseInt(t, 16);
      throw new BuiltinError(
        `could not parse string as number: strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`,
      );
    }
    return Number(t);
  }
  throw typeErr("to_number", 0, "null/boolean/number/string", v);
});

// ---- objects ------------------------------------------------------------------------------------
def("object.get", 3, (a) => {
  const o = a[0] as Value;
  const key = a[1] as Value;
  const dflt = a[2] as Value;
  if (!(o instanceof RObject)) throw typeErr("object.get", 0, "object", o);
  if (Array.isArray(key)) {
    let cur: Value = o;
    for (const k of key) {
      let next: Value | undefined;
      if (cur instanceof RObject) next = cur.get(k as Value);
      else if (Array.isArray(cur) && typeof k === "number") next = cur[k] as Value | undefined;
      else if (cur instanceof RSet) next = cur.has(k as Value) ? (k as Value) : undefined;
      if (next === undefined) return dflt;
      cur = next;
    }
    return cur;
  }
  const v = o.get(key);
  return v === undefined ? dflt : v;
});
def("object.keys", 1, (a) => new RSet(objArg("object.keys", a, 0).keys()));
def("object.remove", 2, (a) => {
  const o = objArg("object.remove", a, 0);
  const ks = a[1] as Value;
  const drop = new Set<string>();
  if (Array.isArray(ks) || ks instanceof RSet)
    for (const k of ks instanceof RSet ? ks.values() : ks) drop.add(keyOf(k as Value));
  else if (ks instanceof RObject) for (const k of ks.keys()) drop.add(keyOf(k));
  else throw typeErr("object.remove", 1, "object/set/array", ks);
  const out = new RObject();
  for (const [k, v] of o.entries()) if (!drop.has(keyOf(k))) out.set(k, v);
  return out;
});
def("object.filter", 2, (a) => {
  const o = objArg("object.filter", a, 0);
  const ks = a[1] as Value;
  const keep = new Set<string>();
  if (Array.isArray(ks) || ks instanceof RSet)
    for (const k of ks instanceof RSet ? ks.values() : ks) keep.add(keyOf(k as Value));
  else if (ks instanceof RObject) for (const k of ks.keys()) keep.add(keyOf(k));
  else throw typeErr("object.filter", 1, "object/set/array", ks);
  const out = new RObject();
  for (const [k, v] of o.entries()) if (keep.has(keyOf(k))) out.set(k, v);
  return out;
});
/** OPA's object.union: b wins, objects merged recursively. */
export function mergeObjects(x: RObject, y: RObject): RObject {
  const out = new RObject();
  for (const [k, v] of x.entries()) out.set(k, v);
  for (const [k, v] of y.entries()) {
    const prev = out.get(k);
    out.set(k, prev instanceof RObject && v instanceof RObject ? mergeObjects(prev, v) : v);
  }
  return out;
}
def("object.union", 2, (a) => mergeObjects(objArg("object.union", a, 0), objArg("object.union", a, 1)));
def("object.union_n", 1, (a) => {
  let out = new RObject();
  for (const o of arr("object.union_n", a, 0)) {
    if (!(o instanceof RObject)) throw typeErr("object.union_n", 0, "array of objects", o);
    out = mergeObjects(out, o);
  }
  return out;
});
function subset(sup: Value, sub: Value): boolean {
  if (sup instanceof RObject && sub instanceof RObject) {
    for (const [k, v] of sub.entries()) {
      const s = sup.get(k);
      if (s === undefined || !subset(s, v)) return false;
    }
    return true;
  }
  if (sup instanceof RSet && sub instanceof RSet) {
    for (const k of sub.map.keys()) if (!sup.map.has(k)) return false;
    return true;
  }
  if (Array.isArray(sup) && Array.isArray(sub)) {
    if (sub.length === 0) return true;
    for (let i = 0; i + sub.length <= sup.length; i++) {
      if (sub.every((v, j) => equal(sup[i + j] as Value, v as Value))) return true;
    }
    return false;
  }
  if (sup instanceof RSet && Array.isArray(sub)) return sub.every((v) => sup.has(v as Value));
  return equal(sup, sub);
}
def("object.subset", 2, (a) => subset(a[0] as Value, a[1] as Value));

// ---- misc ---------------------------------------------------------------------------------------
def("opa.runtime", 0, () => new RObject());
def("trace", 1, () => true);

/** `walk(x)`: every [path, value] pair under x (a relation: see the evaluator). */
export function* walkPairs(v: Value, path: Value[] = []): Generator<Value> {
  yield Object.freeze([Object.freeze([...path]), v]);
  if (Array.isArray(v) || v instanceof RObject || v instanceof RSet) {
    const entries =
      v instanceof RObject
        ? v.sortedEntries()
        : v instanceof RSet
          ? v.sorted().map((e) => [e, e] as [Value, Value])
          : [...iterate(v)];
    for (const [k, c] of entries) yield* walkPairs(c, [...path, k]);
  }
}
def("walk", 1, () => undefined);
def("print", -1, () => true);
