/**
 * The `yaml` module of qri-io/starlib (`encoding/yaml.star`), as kpt's `starlark` function loads it:
 * `loads(source)` decodes the first YAML document as Go's yaml.v2 does (YAML 1.1: `yes`/`on` are bools,
 * `0777` is octal) into dicts, lists and scalars; `dumps(obj)` encodes a value as yaml.v2 `Marshal` writes
 * it (keys sorted, block style, sequences not indented under their key, strings quoted only when needed).
 * Long strings are not folded at 80 columns as yaml.v2 folds them.
 */
import { parseDocument, Scalar } from "yaml";
import { goStringStyle } from "../../yaml/go-style.js";
import { toAny, toStr, unpackArgs } from "../eval/args.js";
import {
  Builtin,
  Dict,
  Float,
  fail,
  List,
  Module,
  None,
  SetValue,
  Tuple,
  typeName,
  type Value,
} from "../eval/values.js";
import { fromBytes } from "../internal/utf8.js";
import { goFloatText, nodeToStarlark, sortGoKeys } from "./yaml-values.js";

const loads = new Builtin("loads", (_th, args, kwargs) => {
  const [source] = unpackArgs("loads", args, kwargs, [["source", toStr]]) as [string];
  const doc = parseDocument(fromBytes(source), { version: "1.1", uniqueKeys: false });
  if (doc.errors.length > 0) fail(`yaml: ${doc.errors[0]!.message.split("\n")[0]}`);
  return nodeToStarlark(doc.contents, doc);
});

const dumps = new Builtin("dumps", (_th, args, kwargs) => {
  const [source] = unpackArgs("dumps", args, kwargs, [["source", toAny]]) as [Value];
  return `${emit(source, 0, 0)}\n`;
});

/** The `yaml` module value (what `load("encoding/yaml.star", "yaml")` binds). */
export const yamlModule = new Module(
  "yaml",
  new Map<string, Value>([
    ["loads", loads],
    ["dumps", dumps],
  ]),
);

// ---- a yaml.v2-style emitter ----

function unencodable(v: Value, dicts: number): never {
  const base =
    v instanceof SetValue ? "sets aren't yet supported" : `unrecognized starlark type: ${typeName(v)}`;
  return fail(`${"unmarshaling starlark value: ".repeat(dicts)}${base}`);
}

function isEmptyCollection(v: Value): boolean {
  return (
    (v instanceof Dict && v.len() === 0) ||
    ((v instanceof List || v instanceof Tuple) && v.elems.length === 0)
  );
}

function isBlockCollection(v: Value): boolean {
  return (v instanceof Dict || v instanceof List || v instanceof Tuple) && !isEmptyCollection(v);
}

const ESCAPES: Record<string, string> = {
  "\0": "\\0",
  "\x07": "\\a",
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
  "\x1b": "\\e",
  '"': '\\"',
  "\\": "\\\\",
  "\u0085": "\\N",
  "\u00a0": "\\_",
  "\u2028": "\\L",
  "\u2029": "\\P",
};

function doubleQuoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const escaped = ESCAPES[ch];
    if (escaped) out += escaped;
    else {
      const code = ch.codePointAt(0)!;
      if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || code === 0xfeff) {
        out +=
          code <= 0xff
            ? `\\x${code.toString(16).toUpperCase().padStart(2, "0")}`
            : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
      } else out += ch;
    }
  }
  return `${out}"`;
}

/** A string as libyaml writes it at `indent` (the indentation of its key). */
function stringText(text: string, indent: number): string {
  const style = goStringStyle(text);
  if (style === Scalar.PLAIN) return text;
  if (style === Scalar.QUOTE_SINGLE) return `'${text.replace(/'/g, "''")}'`;
  if (style === Scalar.BLOCK_LITERAL) {
    const chomp = text.endsWith("\n\n") || text === "\n" ? "+" : text.endsWith("\n") ? "" : "-";
    const lead = text.startsWith(" ") ? "2" : "";
    const body = text.endsWith("\n") ? text.slice(0, -1) : text;
    const pad = " ".repeat(indent + 2);
    return `|${lead}${chomp}\n${body
      .split("\n")
      .map((line) => (line === "" ? "" : pad + line))
      .join("\n")}`;
  }
  return doubleQuoted(text);
}

function scalarText(v: Value, indent: number, dicts: number): string {
  if (v === None) return "null";
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
    case "bigint":
      return String(v);
    case "string":
      return stringText(fromBytes(v), indent);
  }
  if (v instanceof Float) return goFloatText(v.v);
  if (v instanceof Dict) return "{}";
  if (v instanceof List || v instanceof Tuple) return "[]";
  return unencodable(v, dicts);
}

/** The YAML text of `v`, every line indented by `indent` (no trailing newline). */
function emit(v: Value, indent: number, dicts: number): string {
  const pad = " ".repeat(indent);
  if (v instanceof Dict && v.len() > 0) {
    const entries = sortGoKeys([...v.items()], (e) => e[0]);
    const lines = entries.map(([k, val]) => {
      if (isBlockCollection(k)) unencodable(k, dicts + 1);
      const key = scalarText(k, indent, dicts + 1);
      if (val instanceof Dict && val.len() > 0) return `${pad}${key}:\n${emit(val, indent + 2, dicts + 1)}`;
      if (isBlockCollection(val)) return `${pad}${key}:\n${emit(val, indent, dicts + 1)}`;
      return `${pad}${key}: ${scalarText(val, indent, dicts + 1)}`;
    });
    return lines.join("\n");
  }
  if ((v instanceof List || v instanceof Tuple) && v.elems.length > 0) {
    return v.elems
      .map((item) => {
        if (isBlockCollection(item)) return `${pad}- ${emit(item, indent + 2, dicts).slice(indent + 2)}`;
        return `${pad}- ${scalarText(item, indent, dicts)}`;
      })
      .join("\n");
  }
  return `${pad}${scalarText(v, indent, dicts)}`;
}
