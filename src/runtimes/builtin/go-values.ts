/**
 * Typed reads of resource fields as the catalog's Go functions make them through yaml.v3 nodes: a
 * value is a string only when its node resolves to `!!str` (quoted, or plain text that is not a
 * number, bool, null or timestamp), an int only when it resolves to `!!int` and is decimal, and so
 * on. `port: 80` is therefore no string and `port: "80"` no int; `1.0` is a float and `1` is not.
 */
import { isAlias, isMap, isScalar, isSeq, Scalar } from "yaml";
import type { YamlHolder } from "./yaml-nodes.js";

/** yaml.v3's short tag of a node: `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!map`, `!!seq`, … */
export function goTag(node: unknown): string {
  if (isMap(node)) return "!!map";
  if (isSeq(node)) return "!!seq";
  if (!isScalar(node)) return node === null || node === undefined ? "!!null" : rawTag(node);
  if (node.tag) return shortTag(node.tag);
  if (node.type !== undefined && node.type !== Scalar.PLAIN) return "!!str";
  return resolvePlain(scalarText(node));
}

function rawTag(value: unknown): string {
  if (typeof value === "boolean") return "!!bool";
  if (typeof value === "number") return Number.isInteger(value) ? "!!int" : "!!float";
  if (typeof value === "bigint") return "!!int";
  return "!!str";
}

function shortTag(tag: string): string {
  return tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice("tag:yaml.org,2002:".length)}` : tag;
}

/** The text yaml.v3 keeps in `Node.Value`: a plain scalar's source, any other scalar's string. */
export function scalarText(node: Scalar): string {
  if ((node.type === undefined || node.type === Scalar.PLAIN) && typeof node.source === "string") {
    return node.source;
  }
  return node.value === null || node.value === undefined ? "" : String(node.value);
}

const FLOAT_TEXT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** yaml.v3's `resolve` of an untagged plain scalar, as a short tag. */
export function resolvePlain(text: string): string {
  if (text === "" || text === "~" || text === "null" || text === "Null" || text === "NULL") return "!!null";
  if (/^(true|True|TRUE|false|False|FALSE)$/.test(text)) return "!!bool";
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text) || /^\.(nan|NaN|NAN)$/.test(text)) return "!!float";
  if (text === "<<") return "!!merge";
  if (!/^[-+.0-9]/.test(text)) return "!!str";
  if (/^\d{4}-\d\d?-\d\d?([Tt \t].*)?$/.test(text)) return "!!timestamp";
  const plain = text.replaceAll("_", "");
  if (/^[-+]?(0|[1-9][0-9]*)$/.test(plain)) return "!!int";
  if (/^[-+]?0[0-7]+$/.test(plain) || /^[-+]?0[oO][0-7]+$/.test(plain)) return "!!int";
  if (/^[-+]?0[xX][0-9a-fA-F]+$/.test(plain) || /^[-+]?0[bB][01]+$/.test(plain)) return "!!int";
  if (FLOAT_TEXT.test(plain)) return "!!float";
  return "!!str";
}

/** A field lookup the way the SDK's `GetNestedValue` does it. */
interface Lookup {
  /** Whether the path led somewhere (also true when it ran into a non-map on the way). */
  found: boolean;
  /** Set when a non-map sat in the middle of the path (the SDK's "wrong type" error). */
  blocked: boolean;
  node?: unknown;
}

function rootOf(holder: YamlHolder): unknown {
  if (holder && typeof holder === "object" && "contents" in holder && "schema" in holder) {
    return holder.contents;
  }
  return holder;
}

function lookup(holder: YamlHolder, path: readonly string[]): Lookup {
  let cur: unknown = rootOf(holder);
  for (let i = 0; i < path.length; i++) {
    if (!isMap(cur)) return { found: true, blocked: true };
    const pair = cur.items.find(
      (p) => isScalar(p.key) && goTag(p.key) === "!!str" && p.key.value === path[i],
    );
    if (!pair) return { found: false, blocked: false };
    cur = isAlias(pair.value) ? undefined : pair.value;
  }
  return { found: true, blocked: false, node: cur };
}

/** The SDK's `GetString`: the text of a `!!str` scalar, else undefined (absent or another type). */
export function goString(holder: YamlHolder, path: readonly string[]): string | undefined {
  const { node, blocked } = lookup(holder, path);
  if (blocked || !isScalar(node) || goTag(node) !== "!!str") return undefined;
  return scalarText(node);
}

/** The SDK's `GetInt`: a decimal `!!int` (Go's `strconv.Atoi`), else undefined. */
export function goInt(holder: YamlHolder, path: readonly string[]): number | undefined {
  const { node, blocked } = lookup(holder, path);
  if (blocked || !isScalar(node) || goTag(node) !== "!!int") return undefined;
  const text = scalarText(node);
  return /^[-+]?[0-9]+$/.test(text) ? Number.parseInt(text, 10) : undefined;
}

/** The SDK's `Get(&float64)`: a `!!float` that Go's `strconv.ParseFloat` reads, else undefined. */
export function goFloat(holder: YamlHolder, path: readonly string[]): number | undefined {
  const { node, blocked } = lookup(holder, path);
  if (blocked || !isScalar(node) || goTag(node) !== "!!float") return undefined;
  const text = scalarText(node);
  return FLOAT_TEXT.test(text) ? Number.parseFloat(text) : undefined;
}

/**
 * The SDK's `Get(&bool)`: `found` when the path exists (whatever the type), `value` true only for a
 * `!!bool` true.
 */
export function goBool(holder: YamlHolder, path: readonly string[]): { found: boolean; value: boolean } {
  const { found, node, blocked } = lookup(holder, path);
  if (!found) return { found: false, value: false };
  const value =
    !blocked && isScalar(node) && goTag(node) === "!!bool" && /^(true|True|TRUE)$/.test(scalarText(node));
  return { found: true, value };
}

/** The node at a path (the SDK's `GetNestedValue`), undefined when absent or blocked. */
export function goNode(holder: YamlHolder, path: readonly string[]): unknown {
  const { node, blocked } = lookup(holder, path);
  return blocked ? undefined : node;
}

/**
 * yaml.v3's decoding of a node into a Go `string`: any non-null scalar gives its text, null gives
 * "" and a collection is a type error (undefined).
 */
export function decodeString(node: unknown): string | undefined {
  if (node === undefined || node === null) return "";
  if (!isScalar(node)) return undefined;
  if (goTag(node) === "!!null") return "";
  return scalarText(node);
}

/** yaml.v3's decoding into `[]string`: undefined when the node is no sequence or an item no scalar. */
export function decodeStrings(node: unknown): string[] | undefined {
  if (!isSeq(node)) return undefined;
  const out: string[] = [];
  for (const item of node.items) {
    const text = decodeString(item);
    if (text === undefined) return undefined;
    out.push(text);
  }
  return out;
}

/**
 * Go's `fmt.Sprint` of a float64 (`%v`, strconv's shortest `%g`): the shortest digits that read
 * back, in exponent form when the decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`,
 * `123456`, `0.5`).
 */
export function goFormatFloat(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const [mantissa, expText] = value.toExponential().split("e");
  const exp = Number.parseInt(expText, 10);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return value.toString();
}
