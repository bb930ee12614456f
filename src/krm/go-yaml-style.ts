/**
 * How Go's yaml.v3 (used by kpt's kyaml) chooses a scalar style when it marshals a string: plain when
 * the text reads back as the same string, double quotes when plain would read as another type
 * (`"True"`, `"0"`), single quotes when plain is not allowed (`'set annotations: {"a":"b"}'`), a
 * literal block for multi-line text.
 */
import { Scalar } from "yaml";

const OLD_BOOLS = new Set([
  "y",
  "Y",
  "yes",
  "Yes",
  "YES",
  "n",
  "N",
  "no",
  "No",
  "NO",
  "on",
  "On",
  "ON",
  "off",
  "Off",
  "OFF",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
]);

/** Whether the text, written plain, would resolve to a non-string (yaml.v3 `resolve` + old bools). */
export function resolvesAsNonString(text: string): boolean {
  if (OLD_BOOLS.has(text)) return true;
  if (text === "" || text === "~" || /^(null|Null|NULL)$/.test(text)) return true;
  if (/^[-+]?(\.inf|\.Inf|\.INF)$/.test(text) || /^(\.nan|\.NaN|\.NAN)$/.test(text)) return true;
  if (/^[-+]?(0|[1-9][0-9_]*)$/.test(text)) return true;
  if (/^[-+]?0[0-7_]+$/.test(text) || /^[-+]?0o[0-7_]+$/.test(text)) return true;
  if (/^[-+]?0x[0-9a-fA-F_]+$/.test(text) || /^[-+]?0b[01_]+$/.test(text)) return true;
  if (/^[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+]?[0-9]+)?$/.test(text) && /[0-9]/.test(text)) return true;
  if (/^[-+]?[0-9][0-9_]*([eE][-+]?[0-9]+)$/.test(text)) return true;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(text)) return true; // base 60
  if (/^\d{4}-\d\d?-\d\d?([Tt ]|$)/.test(text)) return true; // timestamps
  return false;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return true;
  }
  return false;
}

/** libyaml's analysis: may this text be written as a plain scalar in block context? */
export function plainAllowed(text: string): boolean {
  if (text === "") return false;
  if (/^\s|\s$/.test(text)) return false;
  if (hasControlCharacter(text)) return false;
  const first = text[0];
  if ("#,[]{}&*!|>'\"%@`".includes(first)) return false;
  if ((first === "-" || first === "?" || first === ":") && (text.length === 1 || /\s/.test(text[1])))
    return false;
  if (text.startsWith("---") || text.startsWith("...")) return false;
  if (text.includes(": ") || text.includes(" #") || text.endsWith(":")) return false;
  return true;
}

/** The yaml.v3 style for a string value, as a `yaml` package scalar type. */
export function goStringStyle(text: string): Scalar.Type {
  // Control characters (other than tab and line breaks) only fit in double quotes.
  if (hasControlCharacter(text.replace(/[\t\r\n]/g, ""))) return Scalar.QUOTE_DOUBLE;
  if (text.includes("\n")) {
    // libyaml refuses a literal block when a line ends with a space (or the text does).
    return / \n/.test(text) || / $/.test(text) ? Scalar.QUOTE_DOUBLE : Scalar.BLOCK_LITERAL;
  }
  if (resolvesAsNonString(text)) return Scalar.QUOTE_DOUBLE;
  if (plainAllowed(text)) return Scalar.PLAIN;
  if (/[^\x20-\x7e\u00a0-\uffff]/.test(text)) return Scalar.QUOTE_DOUBLE;
  return Scalar.QUOTE_SINGLE;
}

/** libyaml's printable set (yaml.v3 `is_printable`): 4-byte characters are not in it. */
function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

const DOUBLE_QUOTE_ESCAPES: Readonly<Record<number, string>> = {
  0: "\\0",
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  27: "\\e",
  34: '\\"',
  92: "\\\\",
  133: "\\N",
  160: "\\_",
  8232: "\\L",
  8233: "\\P",
};

/**
 * A double-quoted scalar as yaml.v3 writes it (kpt's writer never folds lines): one line, line
 * breaks and non-printable characters escaped (`\n`, `\t`, `\x7F`, `\U0001F600`), spaces as they are.
 */
export function goDoubleQuoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const isBreak = cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
    if (isPrintable(cp) && !isBreak && cp !== 0x22 && cp !== 0x5c) {
      out += ch;
      continue;
    }
    const known = DOUBLE_QUOTE_ESCAPES[cp];
    if (known) out += known;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).toUpperCase().padStart(2, "0")}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
    else out += `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}`;
  }
  return `${out}"`;
}
