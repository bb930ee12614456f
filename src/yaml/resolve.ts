/**
 * yaml.v3's implicit tag resolution of plain scalars (`resolve.go`): which of !!null, !!bool,
 * !!int, !!float, !!timestamp, !!merge or !!str a plain text reads as.
 */

export const STR = "!!str";
export const NULL = "!!null";
export const BOOL = "!!bool";
export const INT = "!!int";
export const FLOAT = "!!float";
export const TIMESTAMP = "!!timestamp";
export const MAP = "!!map";
export const SEQ = "!!seq";
export const MERGE = "!!merge";
export const BINARY = "!!binary";

const LONG_PREFIX = "tag:yaml.org,2002:";

const MAPPED = new Map<string, string>([
  ["true", BOOL],
  ["True", BOOL],
  ["TRUE", BOOL],
  ["false", BOOL],
  ["False", BOOL],
  ["FALSE", BOOL],
  ["", NULL],
  ["~", NULL],
  ["null", NULL],
  ["Null", NULL],
  ["NULL", NULL],
  [".nan", FLOAT],
  [".NaN", FLOAT],
  [".NAN", FLOAT],
  [".inf", FLOAT],
  [".Inf", FLOAT],
  [".INF", FLOAT],
  ["+.inf", FLOAT],
  ["+.Inf", FLOAT],
  ["+.INF", FLOAT],
  ["-.inf", FLOAT],
  ["-.Inf", FLOAT],
  ["-.INF", FLOAT],
  ["<<", MERGE],
]);

const INT_RE = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const DOT_FLOAT_RE = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
const TIMESTAMP_RE =
  /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]|[ \t]+)\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d{1,2}(?::?\d{2})?))?)?$/;

/** The short tag a plain scalar's text resolves to (yaml.v3 `resolve("", text)`). */
export function resolvePlain(text: string): string {
  const first = text.length === 0 ? -1 : text.charCodeAt(0);
  // Only texts starting with a sign, digit, `.`, `<`, `~` or one of yYnNtTfFoO can resolve to a non-string.
  if (
    first >= 97 &&
    first <= 122 &&
    first !== 121 &&
    first !== 110 &&
    first !== 116 &&
    first !== 102 &&
    first !== 111
  )
    return STR;
  if (
    first >= 65 &&
    first <= 90 &&
    first !== 89 &&
    first !== 78 &&
    first !== 84 &&
    first !== 70 &&
    first !== 79
  )
    return STR;
  const mapped = MAPPED.get(text);
  if (mapped !== undefined) return mapped;
  if (first === 46 /* . */) return DOT_FLOAT_RE.test(text) ? FLOAT : STR;
  const digit = first >= 48 && first <= 57;
  if (!digit && first !== 43 && first !== 45) return STR;
  if (digit && TIMESTAMP_RE.test(text)) return TIMESTAMP;
  const plain = text.includes("_") ? text.replace(/_/g, "") : text;
  if (INT_RE.test(plain)) return INT;
  if (FLOAT_RE.test(plain)) return FLOAT;
  if (/^-0[bBoO]/.test(plain) && INT_RE.test(plain)) return INT;
  return STR;
}

/** `tag:yaml.org,2002:x` → `!!x`. */
export function shortTag(tag: string): string {
  return tag.startsWith(LONG_PREFIX) ? `!!${tag.slice(LONG_PREFIX.length)}` : tag;
}

/** `!!x` → `tag:yaml.org,2002:x`. */
export function longTag(tag: string): string {
  return tag.startsWith("!!") ? LONG_PREFIX + tag.slice(2) : tag;
}
