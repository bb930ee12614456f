/**
 * How Go's yaml.v3 (used by kpt's kyaml) chooses a scalar style when it marshals a string: plain when
 * the text reads back as the same string, double quotes when plain would read as another type
 * (`"True"`, `"0"`), single quotes when plain is not allowed (`'set annotations: {"a":"b"}'`), a
 * literal block for multi-line text.
 */
import type { Scalar } from "yaml";
import { escapeDoubleQuoted } from "./emit/scalars.js";

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

/** yaml.v3's `yamlStyleFloat` (resolve.go). */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** Whether the text, written plain, would resolve to a non-string (yaml.v3 `resolve` + old bools). */
export function resolvesAsNonString(text: string): boolean {
  if (text === "") return true;
  // Only a digit, sign or `.` first can make a number or timestamp (yaml.v3's resolve table); any
  // other text is a bool or null word, or a string.
  const first = text.charCodeAt(0);
  if (!((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46)) {
    return OLD_BOOLS.has(text) || text === "~" || text === "null" || text === "Null" || text === "NULL";
  }
  if (/^[-+]?(\.inf|\.Inf|\.INF)$/.test(text) || /^(\.nan|\.NaN|\.NAN)$/.test(text)) return true;
  if (/^[-+]?(0|[1-9][0-9_]*)$/.test(text)) return true;
  if (/^[-+]?0[0-7_]+$/.test(text) || /^[-+]?0o[0-7_]+$/.test(text)) return true;
  if (/^[-+]?0x[0-9a-fA-F_]+$/.test(text) || /^[-+]?0b[01_]+$/.test(text)) return true;
  if (/^[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+]?[0-9]+)?$/.test(text) && /[0-9]/.test(text)) return true;
  if (/^[-+]?[0-9][0-9_]*([eE][-+]?[0-9]+)$/.test(text)) return true;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(text)) return true; // base 60
  if (/^\d{4}-\d\d?-\d\d?([Tt ]|$)/.test(text)) return true; // timestamps
  // yaml.v3's float syntax once underscores are gone: `08`, `0_9`, `1_0.5`.
  return first !== 46 && YAML_STYLE_FLOAT.test(text.replaceAll("_", ""));
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
  // Characters beyond the BMP are not in libyaml's printable set: such text is double-quoted.
  if (/[\u{10000}-\u{10ffff}]/u.test(text)) return false;
  const first = text[0];
  if ("#,[]{}&*!|>'\"%@`".includes(first)) return false;
  if ((first === "-" || first === "?" || first === ":") && (text.length === 1 || /\s/.test(text[1])))
    return false;
  if (text.startsWith("---") || text.startsWith("...")) return false;
  if (text.includes(": ") || text.includes(" #") || text.endsWith(":")) return false;
  return true;
}

/**
 * The yaml.v3 style for a string value, as a `yaml` package scalar type (`Scalar.PLAIN` ... are these
 * strings; written out, so the CLI need not load the package to read them).
 */
export function goStringStyle(text: string): Scalar.Type {
  // Control characters (other than tab and line breaks) only fit in double quotes.
  if (hasControlCharacter(text.replace(/[\t\r\n]/g, ""))) return "QUOTE_DOUBLE";
  if (text.includes("\n")) {
    // libyaml refuses a literal block when a line ends with a space (or the text does).
    return / \n/.test(text) || / $/.test(text) ? "QUOTE_DOUBLE" : "BLOCK_LITERAL";
  }
  if (resolvesAsNonString(text)) return "QUOTE_DOUBLE";
  if (plainAllowed(text)) return "PLAIN";
  if (/[^\x20-\x7e\u00a0-\uffff]/u.test(text)) return "QUOTE_DOUBLE";
  return "QUOTE_SINGLE";
}

/** A double-quoted scalar as yaml.v3 writes it: one line, escapes as our emitter writes them. */
export function goDoubleQuoted(text: string): string {
  return `"${escapeDoubleQuoted(text)}"`;
}
