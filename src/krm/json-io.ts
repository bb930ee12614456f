/**
 * Writing a resource into a `*.json` file as kpt does: kyaml's `ByteWriter` JSON-encodes a file's single
 * resource (yaml.v3 decodes it into Go maps, `encoding/json` writes it with sorted keys, two-space indent,
 * HTML-escaped strings and a final newline). kpt reads `*.json` files as package resources (kyaml's
 * `kio.MatchAll`: `*.yaml`, `*.yml`, `*.json`).
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type Node } from "yaml";

/** kyaml's `JSONMatch` (`*.json`, matched on the file's base name). */
export function isJsonPath(path: string): boolean {
  return path.endsWith(".json");
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's `encoding/json` float64 form: shortest digits, exponent form below 1e-6 and from 1e21. */
function goFloat(value: number): string {
  if (Object.is(value, -0)) return "-0";
  // JavaScript's shortest round-trip digits and exponent thresholds are Go's; Go writes `1e-07` as `1e-7`, as JS does.
  return String(value);
}

/** Go's `encoding/json` string escaping (HTML-safe: `<`, `>`, `&`, U+2028 and U+2029 escaped). */
function goJsonString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (code < 0x20 || ch === "<" || ch === ">" || ch === "&" || code === 0x2028 || code === 0x2029) {
      out += `\\u${code.toString(16).padStart(4, "0")}`;
    } else if (code >= 0xd800 && code <= 0xdfff)
      out += "\\ufffd"; // a lone surrogate is not UTF-8
    else out += ch;
  }
  return `${out}"`;
}

/** The number's JSON text, as yaml.v3 decodes it (int64, else uint64, else float64) and Go encodes it. */
function goNumber(node: Node & { source?: string }, value: number | bigint): string | undefined {
  const source = node.source?.replace(/^\+/, "");
  if (source !== undefined && /^-?[0-9]+$/.test(source)) {
    const int = BigInt(source);
    if (int >= INT64_MIN && int <= UINT64_MAX) return int.toString();
  }
  if (typeof value === "bigint") return value.toString();
  return Number.isFinite(value) ? goFloat(value) : undefined;
}

class NotJson extends Error {}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

function encode(node: unknown, doc: Document, indent: string, depth: number): string {
  if (depth > 10_000) throw new NotJson("too deep");
  if (isAlias(node)) return encode(node.resolve(doc), doc, indent, depth + 1);
  const inner = `${indent}  `;
  if (isMap(node)) {
    const entries = new Map<string, unknown>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (key !== null && typeof key === "object") throw new NotJson("a key that is not a string");
      entries.set(String(key), pair.value);
    }
    if (entries.size === 0) return "{}";
    const keys = [...entries.keys()].sort(byteOrder);
    const body = keys.map(
      (k) => `${inner}${goJsonString(k)}: ${encode(entries.get(k), doc, inner, depth + 1)}`,
    );
    return `{\n${body.join(",\n")}\n${indent}}`;
  }
  if (isSeq(node)) {
    if (node.items.length === 0) return "[]";
    return `[\n${node.items.map((item) => `${inner}${encode(item, doc, inner, depth + 1)}`).join(",\n")}\n${indent}]`;
  }
  if (node === null || node === undefined) return "null";
  if (!isScalar(node)) throw new NotJson("an unknown node");
  const value = node.value;
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" || typeof value === "bigint") {
    const text = goNumber(node, value);
    if (text === undefined) throw new NotJson("a number JSON cannot hold");
    return text;
  }
  if (typeof value === "string") return goJsonString(value);
  if (value instanceof Uint8Array) return goJsonString(Buffer.from(value).toString("utf8"));
  if (value instanceof Date) return goJsonString(node.source ?? value.toISOString());
  return goJsonString(String(value));
}

/**
 * The text kpt writes for a `*.json` file holding the one resource `doc`: kyaml's JSON encoding (keys in
 * byte order at every level, two-space indent, `\n` at the end). `undefined` when the document holds
 * what JSON cannot (a non-scalar key, an infinite number), which kpt would fail to write.
 */
export function goJsonText(doc: Document): string | undefined {
  try {
    return `${encode(doc.contents, doc, "", 0)}\n`;
  } catch (err) {
    if (err instanceof NotJson) return undefined;
    throw err;
  }
}
