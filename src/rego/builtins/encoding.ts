/** OPA's encoding builtins (json, yaml, base64, hex, urlquery) and JSON documents (json.filter/remove/patch). */
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { fromJS, toJS, toJSON } from "../convert.js";
import { BuiltinError } from "../errors.js";
import { RObject, RSet, type Value } from "../values.js";
import { def, objArg, str, typeErr } from "./registry.js";

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
