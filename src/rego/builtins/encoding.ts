/** OPA's encoding builtins (json, yaml, base64, hex, urlquery) and JSON documents (json.filter/remove/patch). */
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { BuiltinError } from "../errors.js";
import { equal, fromJS, RObject, RSet, toJS, toJSON, type Value } from "../values.js";
import { arr, def, objArg, str, typeErr } from "./registry.js";

function jsonParse(s: string): Value {
  try {
    return fromJS(JSON.parse(s));
  } catch {
    throw new BuiltinError("json.unmarshal: invalid JSON");
  }
}
def("json.marshal", 1, (a, ctx) => {
  const out = toJSON(a[0] as Value);
  ctx.meter.alloc(out.length);
  return out;
});
def("json.marshal_with_options", 2, (a) => {
  const o = objArg("json.marshal_with_options", a, 1);
  const indent = o.get("indent");
  const prefix = o.get("prefix");
  const pretty = o.get("pretty") === true || indent !== undefined || prefix !== undefined;
  if (!pretty) return toJSON(a[0] as Value);
  const text = JSON.stringify(
    JSON.parse(toJSON(a[0] as Value)),
    null,
    typeof indent === "string" ? indent : "\t",
  );
  return typeof prefix === "string"
    ? text
        .split("\n")
        .map((l) => prefix + l)
        .join("\n")
    : text;
});
def("json.unmarshal", 1, (a) => jsonParse(str("json.unmarshal", a, 0)));
def("json.is_valid", 1, (a) => {
  if (typeof a[0] !== "string") return false;
  try {
    JSON.parse(a[0]);
    return true;
  } catch {
    return false;
  }
});
def("yaml.marshal", 1, (a) => stringifyYaml(toJS(a[0] as Value)));
def("yaml.unmarshal", 1, (a) => {
  try {
    return fromJS(parseYaml(str("yaml.unmarshal", a, 0)));
  } catch (e) {
    if (e instanceof BuiltinError) throw e;
    throw new BuiltinError(`yaml.unmarshal: ${(e as Error).message}`);
  }
});
def("yaml.is_valid", 1, (a) => {
  if (typeof a[0] !== "string") return false;
  try {
    parseYaml(a[0]);
    return true;
  } catch {
    return false;
  }
});

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const B64URL = /^[A-Za-z0-9_-]*={0,2}$/;
def("base64.encode", 1, (a) => Buffer.from(str("base64.encode", a, 0), "utf8").toString("base64"));
def("base64.decode", 1, (a) => {
  const s = str("base64.decode", a, 0);
  if (!B64.test(s) || s.length % 4 === 1) throw new BuiltinError("base64.decode: illegal base64 data");
  return Buffer.from(s, "base64").toString("utf8");
});
def("base64.is_valid", 1, (a) => typeof a[0] === "string" && B64.test(a[0]) && a[0].length % 4 === 0);
def("base64url.encode", 1, (a) => {
  const b = Buffer.from(str("base64url.encode", a, 0), "utf8").toString("base64url");
  return b + "=".repeat((4 - (b.length % 4)) % 4);
});
def("base64url.encode_no_pad", 1, (a) =>
  Buffer.from(str("base64url.encode_no_pad", a, 0), "utf8").toString("base64url"),
);
def("base64url.decode", 1, (a) => {
  const s = str("base64url.decode", a, 0);
  if (!B64URL.test(s)) throw new BuiltinError("base64url.decode: illegal base64 data");
  return Buffer.from(s, "base64url").toString("utf8");
});
def("hex.encode", 1, (a) => Buffer.from(str("hex.encode", a, 0), "utf8").toString("hex"));
def("hex.decode", 1, (a) => {
  const s = str("hex.decode", a, 0);
  if (!/^([0-9a-fA-F]{2})*$/.test(s)) throw new BuiltinError("hex.decode: invalid byte");
  return Buffer.from(s, "hex").toString("utf8");
});
def("urlquery.encode", 1, (a) =>
  encodeURIComponent(str("urlquery.encode", a, 0))
    .replace(/%20/g, "+")
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
);
def("urlquery.decode", 1, (a) => {
  try {
    return decodeURIComponent(str("urlquery.decode", a, 0).replace(/\+/g, " "));
  } catch {
    throw new BuiltinError("urlquery.decode: invalid URL escape");
  }
});
def("urlquery.encode_object", 1, (a) => {
  const o = objArg("urlquery.encode_object", a, 0);
  const parts: string[] = [];
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  for (const [k, v] of o.sortedEntries()) {
    if (typeof k !== "string") throw typeErr("urlquery.encode_object", 0, "object[string]", k);
    const vals =
      typeof v === "string" ? [v] : Array.isArray(v) ? v : v instanceof RSet ? v.sorted() : undefined;
    if (!vals) throw typeErr("urlquery.encode_object", 0, "string/array/set", v);
    for (const x of vals) parts.push(`${enc(k)}=${enc(String(x))}`);
  }
  return parts.join("&");
});
def("urlquery.decode_object", 1, (a) => {
  const p = new URLSearchParams(str("urlquery.decode_object", a, 0));
  const out = new RObject();
  for (const k of new Set(p.keys())) out.set(k, Object.freeze(p.getAll(k)));
  return out;
});

// ---- JSON documents -----------------------------------------------------------------------------

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

function updateAt(
  doc: Value,
  path: Value[],
  op: "add" | "remove" | "replace",
  value?: Value,
): Value | undefined {
  if (path.length === 0) return op === "remove" ? undefined : value;
  const [head, ...rest] = path as [Value, ...Value[]];
  if (doc instanceof RObject) {
    const key = head;
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
  if (Array.isArray(doc)) {
    const xs = [...doc] as Value[];
    if (rest.length === 0) {
      if (head === "-" && op === "add") return Object.freeze([...xs, value as Value]);
      const i = typeof head === "number" ? head : /^(0|[1-9]\d*)$/.test(String(head)) ? Number(head) : -1;
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
    const i = typeof head === "number" ? head : /^(0|[1-9]\d*)$/.test(String(head)) ? Number(head) : -1;
    if (i < 0 || i >= xs.length) return undefined;
    const nc = updateAt(xs[i] as Value, rest, op, value);
    if (nc === undefined) return undefined;
    xs[i] = nc;
    return Object.freeze(xs);
  }
  if (doc instanceof RSet && rest.length > 0 && op === "add") {
    if (!doc.has(head)) return undefined;
    const updated = updateAt(head, rest, op, value);
    if (updated === undefined) return undefined;
    const out = new RSet();
    for (const v of doc.values()) out.add(equal(v, head) ? updated : v);
    return out;
  }
  if (doc instanceof RSet && rest.length === 0) {
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
