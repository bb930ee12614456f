/** OPA's core builtins: aggregates, arrays, sets, types, objects, walk. */
import { BuiltinError } from "../errors.js";
import { compare, equal, iterate, keyOf, RObject, RSet, typeName, type Value } from "../values.js";
import { arr, coll, def, num, objArg, set, typeErr } from "./registry.js";

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
