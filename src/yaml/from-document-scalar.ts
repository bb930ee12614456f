/**
 * Scalars and comments of the adapter from the `yaml` package's Document to our node tree
 * (from-document.ts): a scalar's text, tag and style as yaml.v3's encoder would hold them for the
 * value (kyaml's `yaml.Node` after `Encode`), a comment as yaml.v3 holds it.
 */
import type { Scalar } from "yaml";
import { goStringStyle } from "./go-style.js";
import { Kind, Style, YNode } from "./node.js";
import { resolvePlain } from "./resolve.js";

/** A `yaml` comment (lines without `#`) as yaml.v3 holds it (`#` on each line, blank lines kept). */
export function goComment(comment: string | null | undefined): string {
  if (!comment) return "";
  const trimmed = comment.replace(/^\n+|\n+$/g, "");
  if (trimmed === "") return "";
  let out = "";
  let start = 0;
  for (;;) {
    const end = trimmed.indexOf("\n", start);
    const line = end < 0 ? trimmed.slice(start) : trimmed.slice(start, end);
    if (start > 0) out += "\n";
    // The `yaml` package's own rule: an empty line stays blank, a lone space is a bare `#`.
    if (line !== "") out += line === " " ? "#" : `#${line}`;
    if (end < 0) break;
    start = end + 1;
  }
  return out;
}

/** Two comments as one, `a` above `b` (either may be empty). */
export function joinComments(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `${a}\n${b}`;
}

/**
 * yaml.v3's emitter refuses the block styles for a value ending with a space, with a space before a
 * line break, or holding a character it cannot print.
 */
function blockAllowed(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters yaml.v3 cannot print
  return !/ $| [\n\r]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]/.test(value);
}

const TAG_PREFIX = "tag:yaml.org,2002:";

/** A `yaml` tag in yaml.v3's short form (`tag:yaml.org,2002:x` → `!!x`), "" for none. */
export function shortTagOf(tag: string | undefined): string {
  if (!tag) return "";
  return tag.startsWith(TAG_PREFIX) ? `!!${tag.slice(TAG_PREFIX.length)}` : tag;
}

/** The text of a non-string scalar value as the `yaml` package writes it (kept source text first). */
function scalarText(node: Scalar): string {
  const value = node.value;
  const source = (node as { source?: unknown }).source;
  if (
    typeof source === "string" &&
    (node.type === undefined || node.type === "PLAIN") &&
    sourceMatches(source, value)
  ) {
    return source;
  }
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return ".nan";
    if (value === Number.POSITIVE_INFINITY) return ".inf";
    if (value === Number.NEGATIVE_INFINITY) return "-.inf";
    return Object.is(value, -0) ? "-0" : String(value);
  }
  if (typeof value === "bigint") return String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Date) return value.toISOString().replace(/\.000Z$/, "Z");
  return String(value);
}

/** Whether a scalar's source text still reads as its value (a function may have changed the value). */
function sourceMatches(source: string, value: unknown): boolean {
  switch (typeof value) {
    case "number": {
      const tag = resolvePlain(source);
      if (tag !== "!!int" && tag !== "!!float") return false;
      const read = readNumber(source);
      return Object.is(read, value) || (Number.isNaN(read) && Number.isNaN(value));
    }
    case "boolean":
      return resolvePlain(source) === "!!bool" && (source.toLowerCase() === "true") === value;
    case "bigint":
      return resolvePlain(source) === "!!int" && safeBigInt(source) === value;
    case "object":
      if (value === null) return resolvePlain(source) === "!!null";
      if (value instanceof Uint8Array) return Buffer.from(source.replace(/\s+/g, ""), "base64").equals(value);
      if (value instanceof Date) return true;
      return false;
    default:
      return false;
  }
}

function safeBigInt(text: string): bigint | undefined {
  try {
    return BigInt(text.replace(/_/g, ""));
  } catch {
    return undefined;
  }
}

function readNumber(text: string): number {
  const t = text.replace(/_/g, "");
  const lower = t.toLowerCase();
  if (lower === ".nan") return Number.NaN;
  if (lower === ".inf" || lower === "+.inf") return Number.POSITIVE_INFINITY;
  if (lower === "-.inf") return Number.NEGATIVE_INFINITY;
  const sign = t.startsWith("-") ? -1 : 1;
  const body = t.replace(/^[-+]/, "");
  if (/^0x/i.test(body)) return sign * Number.parseInt(body.slice(2), 16);
  if (/^0o/i.test(body)) return sign * Number.parseInt(body.slice(2), 8);
  if (/^0b/i.test(body)) return sign * Number.parseInt(body.slice(2), 2);
  return Number(t);
}

/**
 * A scalar node for a `yaml` Scalar: strings keep their style (Go's quoting for new ones, folded
 * blocks double-quoted), other values their source text (yaml.v3 encoder's `stringv`/`intv`...).
 * The package's style names (`Scalar.PLAIN` ...) are written out as the strings they are, so that
 * {@link stringScalar} needs no `yaml` package (the CLI loads it only once it is used).
 */
export function fromScalar(node: Scalar): YNode {
  const n = new YNode(Kind.Scalar);
  const value = node.value;
  const explicitTag = shortTagOf(node.tag);
  if (typeof value === "string") {
    setString(n, value, node.type, explicitTag);
  } else {
    n.value = scalarText(node);
    if (explicitTag) {
      n.tag = explicitTag;
      n.style = Style.Tagged;
    } else n.tag = resolvePlain(n.value);
    if (node.type === "QUOTE_DOUBLE") n.style |= Style.DoubleQuoted;
    else if (node.type === "QUOTE_SINGLE") n.style |= Style.SingleQuoted;
  }
  if (node.anchor) n.anchor = node.anchor;
  n.lineComment = goComment(node.comment);
  return n;
}

/** The node of `fromScalar(new Scalar(text))`: a new string, in Go's quoting. */
export function stringScalar(text: string): YNode {
  const n = new YNode(Kind.Scalar);
  setString(n, text, undefined, "");
  return n;
}

/** Sets a string scalar node's text, style and tag from a `yaml` Scalar's type and short tag. */
function setString(n: YNode, value: string, scalarType: Scalar.Type | undefined, explicitTag: string): void {
  n.value = value;
  let type = scalarType;
  if (type === undefined) type = goStringStyle(value);
  if (type === "BLOCK_FOLDED") type = "QUOTE_DOUBLE";
  if (type === "BLOCK_LITERAL" && !blockAllowed(value)) type = "QUOTE_DOUBLE";
  switch (type) {
    case "QUOTE_DOUBLE":
      n.style = Style.DoubleQuoted;
      break;
    case "QUOTE_SINGLE":
      n.style = Style.SingleQuoted;
      break;
    case "BLOCK_LITERAL":
      n.style = Style.Literal;
      break;
    default:
      n.style = 0;
  }
  n.tag = explicitTag && explicitTag !== "!!str" ? explicitTag : "!!str";
  if (explicitTag && explicitTag !== "!!str") n.style |= Style.Tagged;
  // A plain string that would read as another type gets double quotes (yaml.v3's encoder).
  if (n.style === 0 && resolvePlain(value) !== "!!str") n.style = Style.DoubleQuoted;
}
