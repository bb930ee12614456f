/** OPA's JSON document builtins (topdown/json.go): `json.filter`, `json.remove`, `json.patch`. */
import { toJSON } from "../convert.js";
import { equal, RObject, RSet, type Value } from "../values.js";
import { arr, def, objArg, typeErr } from "./registry.js";

function parsePath(name: string, p: Value): Value[] {
  if (typeof p === "string") {
    const s = p.replace(/^\//, "");
    if (s === "") return [];
    return s.split("/").map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"));
  }
  if (Array.isArray(p)) return p as Value[];
  throw typeErr(name, 1, "string/array", p);
}

function pathsOf(name: string, v: Value): Value[][] {
  const xs = Array.isArray(v) ? (v as Value[]) : v instanceof RSet ? v.sorted() : undefined;
  if (!xs) throw typeErr(name, 1, "array/set", v);
  return xs.map((p) => parsePath(name, p));
}

/** Keeps only the paths (a tree of keys) in v. */
function filterDoc(v: Value, tree: Map<string, unknown> | true): Value | undefined {
  if (tree === true) return v;
  if (v instanceof RObject) {
    const out = new RObject();
    for (const [k, c] of v.entries()) {
      const sub = tree.get(JSON.stringify(toJSON(k))) ?? tree.get(JSON.stringify(toJSON(String(k) as Value)));
      if (sub === undefined) continue;
      const f = filterDoc(c, sub as Map<string, unknown> | true);
      if (f !== undefined) out.set(k, f);
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out: Value[] = [];
    v.forEach((c, i) => {
      const sub = tree.get(JSON.stringify(toJSON(i))) ?? tree.get(JSON.stringify(toJSON(String(i))));
      if (sub === undefined) return;
      const f = filterDoc(c as Value, sub as Map<string, unknown> | true);
      if (f !== undefined) out.push(f);
    });
    return Object.freeze(out);
  }
  if (v instanceof RSet) {
    const out = new RSet();
    for (const c of v.values()) {
      const sub = tree.get(JSON.stringify(toJSON(c)));
      if (sub !== undefined) out.add(c);
    }
    return out;
  }
  return v;
}

function buildTree(paths: Value[][]): Map<string, unknown> | true {
  const root = new Map<string, unknown>();
  for (const p of paths) {
    if (p.length === 0) return true;
    let cur = root;
    for (let i = 0; i < p.length; i++) {
      const k = JSON.stringify(toJSON(p[i] as Value));
      const last = i === p.length - 1;
      const ex = cur.get(k);
      if (ex === true) break;
      if (last) {
        cur.set(k, true);
        break;
      }
      let next = ex as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        cur.set(k, next);
      }
      cur = next;
    }
  }
  return root;
}

def("json.filter", 2, (a) => {
  const o = objArg("json.filter", a, 0);
  return filterDoc(o, buildTree(pathsOf("json.filter", a[1] as Value))) ?? new RObject();
});

function removePath(v: Value, p: Value[]): Value {
  if (p.length === 0) return v;
  const [head, ...rest] = p as [Value, ...Value[]];
  if (v instanceof RObject) {
    const out = new RObject();
    for (const [k, c] of v.entries()) {
      if (equal(k, head) || (typeof head === "string" && typeof k !== "string" && String(k) === head)) {
        if (rest.length === 0) continue;
        out.set(k, removePath(c, rest));
      } else out.set(k, c);
    }
    return out;
  }
  if (Array.isArray(v)) {
    const idx = typeof head === "number" ? head : Number(head);
    const out: Value[] = [];
    v.forEach((c, i) => {
      if (i === idx) {
        if (rest.length > 0) out.push(removePath(c as Value, rest));
      } else out.push(c as Value);
    });
    return Object.freeze(out);
  }
  if (v instanceof RSet && rest.length === 0) {
    const out = new RSet();
    for (const c of v.values()) if (!equal(c, head)) out.add(c);
    return out;
  }
  return v;
}
def("json.remove", 2, (a) => {
  let o: Value = objArg("json.remove", a, 0);
  for (const p of pathsOf("json.remove", a[1] as Value)) o = removePath(o, p);
  return o;
});

// json.patch (RFC 6902) over Rego values.
function getAt(doc: Value, path: Value[]): Value | undefined {
  let cur: Value | undefined = doc;
  for (const seg of path) {
    if (cur instanceof RObject) cur = cur.get(seg);
    else if (Array.isArray(cur)) {
      const i = typeof seg === "number" ? seg : /^(0|[1-9]\d*)$/.test(String(seg)) ? Number(seg) : Number.NaN;
      cur = Number.isInteger(i) && i >= 0 && i < cur.length ? (cur[i] as Value) : undefined;
    } else if (cur instanceof RSet) cur = cur.has(seg) ? seg : undefined;
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

type PatchOp = "add" | "remove" | "replace";

/** An array index in a JSON pointer segment (a number or its canonical text), else -1. */
function indexOf(seg: Value): number {
  return typeof seg === "number" ? seg : /^(0|[1-9]\d*)$/.test(String(seg)) ? Number(seg) : -1;
}

/** A copy of `doc` with the patch applied at `path` (RFC 6902 as OPA's json.patch), or undefined if it fails. */
function updateAt(doc: Value, path: Value[], op: PatchOp, value?: Value): Value | undefined {
  if (path.length === 0) return op === "remove" ? undefined : value;
  const [head, ...rest] = path as [Value, ...Value[]];
  if (doc instanceof RObject) return updateObject(doc, head, rest, op, value);
  if (Array.isArray(doc)) return updateArray(doc, head, rest, op, value);
  if (doc instanceof RSet) return updateSet(doc, head, rest, op, value);
  return undefined;
}

function updateObject(
  doc: RObject,
  key: Value,
  rest: Value[],
  op: PatchOp,
  value?: Value,
): Value | undefined {
  if (rest.length === 0) {
    const out = new RObject();
    if (op !== "add" && !doc.has(key)) return undefined;
    for (const [k, v] of doc.entries()) if (!equal(k, key)) out.set(k, v);
    if (op === "remove") return out;
    const o2 = new RObject();
    for (const [k, v] of doc.entries()) o2.set(k, equal(k, key) ? (value as Value) : v);
    if (!doc.has(key)) o2.set(key, value as Value);
    return o2;
  }
  const child = doc.get(key);
  if (child === undefined) return undefined;
  const nc = updateAt(child, rest, op, value);
  if (nc === undefined) return undefined;
  const out = new RObject();
  for (const [k, v] of doc.entries()) out.set(k, equal(k, key) ? nc : v);
  return out;
}

function updateArray(
  doc: readonly Value[],
  head: Value,
  rest: Value[],
  op: PatchOp,
  value?: Value,
): Value | undefined {
  const xs = [...doc] as Value[];
  if (rest.length === 0) {
    if (head === "-" && op === "add") return Object.freeze([...xs, value as Value]);
    const i = indexOf(head);
    if (op === "add") {
      if (i < 0 || i > xs.length) return undefined;
      xs.splice(i, 0, value as Value);
    } else {
      if (i < 0 || i >= xs.length) return undefined;
      if (op === "remove") xs.splice(i, 1);
      else xs[i] = value as Value;
    }
    return Object.freeze(xs);
  }
  const i = indexOf(head);
  if (i < 0 || i >= xs.length) return undefined;
  const nc = updateAt(xs[i] as Value, rest, op, value);
  if (nc === undefined) return undefined;
  xs[i] = nc;
  return Object.freeze(xs);
}

/** A set's member is addressed by its value: add below it, add to it, remove it. */
function updateSet(doc: RSet, head: Value, rest: Value[], op: PatchOp, value?: Value): Value | undefined {
  if (rest.length > 0) {
    if (op !== "add" || !doc.has(head)) return undefined;
    const updated = updateAt(head, rest, op, value);
    if (updated === undefined) return undefined;
    const out = new RSet();
    for (const v of doc.values()) out.add(equal(v, head) ? updated : v);
    return out;
  }
  const out = new RSet(doc.values());
  if (op === "remove") {
    if (!doc.has(head)) return undefined;
    out.map.delete([...out.map.entries()].find(([, v]) => equal(v, head))?.[0] ?? "");
    return out;
  }
  if (op === "add") {
    out.add(value as Value);
    return out;
  }
  return undefined;
}

def("json.patch", 2, (a) => {
  let doc = a[0] as Value;
  let removedRoot = false;
  for (const p of arr("json.patch", a, 1)) {
    if (!(p instanceof RObject)) throw typeErr("json.patch", 1, "array of objects", p);
    const op = p.get("op");
    const pathV = p.get("path");
    if (typeof op !== "string" || pathV === undefined) return undefined;
    const path = parsePath("json.patch", pathV);
    let next: Value | undefined;
    switch (op) {
      case "add":
      case "replace": {
        const v = p.get("value");
        if (v === undefined) return undefined;
        if (removedRoot && path.length > 0) return undefined;
        next = updateAt(doc, path, op, v);
        removedRoot = false;
        break;
      }
      case "remove":
        if (path.length === 0) {
          removedRoot = true;
          continue;
        }
        next = removedRoot ? undefined : updateAt(doc, path, "remove");
        break;
      case "test": {
        const cur = getAt(doc, path);
        const v = p.get("value");
        next = cur !== undefined && v !== undefined && equal(cur, v) ? doc : undefined;
        break;
      }
      case "move":
      case "copy": {
        const fromV = p.get("from");
        if (fromV === undefined) return undefined;
        const from = parsePath("json.patch", fromV);
        const v = getAt(doc, from);
        if (v === undefined) return undefined;
        if (op === "move") {
          if (from.length < path.length && from.every((s, i) => equal(s, path[i] as Value))) return undefined;
          const removed = updateAt(doc, from, "remove");
          next = removed === undefined ? undefined : updateAt(removed, path, "add", v);
        } else next = updateAt(doc, path, "add", v);
        break;
      }
      default:
        return undefined;
    }
    if (next === undefined || (removedRoot && op !== "add" && op !== "replace")) return undefined;
    doc = next;
  }
  return removedRoot ? undefined : doc;
});
