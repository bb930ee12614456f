/**
 * The scalar writers: yaml.v3's `yaml_emitter_write_plain_scalar`, `..._single_quoted_scalar`,
 * `..._double_quoted_scalar`, `..._literal_scalar`, `..._folded_scalar` and
 * `yaml_emitter_write_block_scalar_hints` (emitterc.go), with kyaml's unlimited width (no folding).
 */
import { isBreakCode, isPrintable } from "./analyze.js";
import { processLineComment } from "./comments.js";
import {
  breakAndSpaces,
  type Emitter,
  put,
  putBreak,
  writeBreakChar,
  writeIndent,
  writeIndicator,
} from "./output.js";

/** yaml.v3's line break characters (`is_break`), searched from `lastIndex`. */
const BREAK = /[\n\r\x85\u2028\u2029]/g;

/** Writes `value` line by line: each line at the indentation, breaks as `write_break` writes them. */
function writeLines(em: Emitter, value: string, breaks: boolean, doubleBreak: boolean): void {
  const n = value.length;
  let i = 0;
  while (i < n) {
    const c = value.charCodeAt(i);
    if (isBreakCode(c)) {
      if (doubleBreak && !breaks && c === 10) putBreak(em);
      writeBreakChar(em, value, i);
      i++;
      breaks = true;
    } else {
      if (breaks) writeIndent(em);
      BREAK.lastIndex = i + 1;
      const j = BREAK.test(value) ? BREAK.lastIndex - 1 : n;
      put(em, value.slice(i, j));
      i = j;
      em.indention = false;
      breaks = false;
    }
  }
}

/** yaml.v3's `yaml_emitter_write_plain_scalar` (`multiline`: the analysis saw a line break). */
export function writePlain(em: Emitter, value: string, multiline: boolean): void {
  if (value.length > 0 && !em.whitespace) put(em, " ");
  if (!multiline) put(em, value);
  else writeLines(em, value, false, true);
  if (value.length > 0) em.whitespace = false;
  em.indention = false;
}

/** A line of a single-quoted scalar with each `'` doubled. */
function singleQuotedLine(line: string): string {
  return line.includes("'") ? line.replaceAll("'", "''") : line;
}

/** yaml.v3's `yaml_emitter_write_single_quoted_scalar` (no folding). */
export function writeSingle(em: Emitter, value: string): void {
  writeIndicator(em, "'", true, false, false);
  let breaks = false;
  const n = value.length;
  let i = 0;
  while (i < n) {
    const c = value.charCodeAt(i);
    if (isBreakCode(c)) {
      if (!breaks && c === 10) putBreak(em);
      writeBreakChar(em, value, i);
      i++;
      breaks = true;
    } else {
      if (breaks) writeIndent(em);
      BREAK.lastIndex = i + 1;
      const j = BREAK.test(value) ? BREAK.lastIndex - 1 : n;
      put(em, singleQuotedLine(value.slice(i, j)));
      i = j;
      em.indention = false;
      breaks = false;
    }
  }
  writeIndicator(em, "'", false, false, false);
  em.whitespace = false;
  em.indention = false;
}

/** yaml.v3's `yaml_emitter_write_double_quoted_scalar` (no folding). */
export function writeDouble(em: Emitter, value: string): void {
  writeIndicator(em, '"', true, false, false);
  put(em, escapeDoubleQuoted(value));
  writeIndicator(em, '"', false, false, false);
  em.whitespace = false;
  em.indention = false;
}

/** yaml.v3's `yaml_emitter_write_block_scalar_hints`: the indentation and chomping indicators. */
function blockHints(em: Emitter, value: string): void {
  const c0 = value.charCodeAt(0);
  if (value.length > 0 && (c0 === 32 || isBreakCode(c0))) {
    writeIndicator(em, String(em.bestIndent), false, false, false);
  }
  let chomp = "";
  if (value.length === 0) chomp = "-";
  else {
    const last = value.charCodeAt(value.length - 1);
    if (!isBreakCode(last)) chomp = "-";
    else if (value.length === 1 || isBreakCode(value.charCodeAt(value.length - 2))) chomp = "+";
  }
  if (chomp) writeIndicator(em, chomp, false, false, false);
}

/** yaml.v3's `yaml_emitter_write_literal_scalar`. */
export function writeLiteral(em: Emitter, value: string): void {
  writeIndicator(em, "|", true, false, false);
  blockHints(em, value);
  processLineComment(em, true);
  em.whitespace = true;
  if (OTHER_BREAK.test(value)) writeLines(em, value, true, false);
  else writeLinesLF(em, value);
}

/**
 * The same scalar with every line through the line loop (`writeLines`): the reference
 * `writeLiteral` is checked against.
 */
export function writeLiteralGeneral(em: Emitter, value: string): void {
  writeIndicator(em, "|", true, false, false);
  blockHints(em, value);
  processLineComment(em, true);
  em.whitespace = true;
  writeLines(em, value, true, false);
}

/** Line breaks other than "\n" (which `write_break` copies as they are). */
const OTHER_BREAK = /[\r\x85\u2028\u2029]/;

/** A "\n" that a line of text follows (where `writeLines` writes the indentation). */
const LF_BEFORE_TEXT = /\n(?=[^\n])/g;

/**
 * `writeLines(em, value, true, false)` for a text whose only break is "\n": the breaks before the
 * first line, the first line's indentation, then the rest at once with each later line's
 * indentation put after its break (after the first `writeIndent` every line's is just the spaces).
 */
function writeLinesLF(em: Emitter, value: string): void {
  const n = value.length;
  let i = 0;
  while (i < n && value.charCodeAt(i) === 10) {
    putBreak(em);
    i++;
  }
  if (i === n) return;
  writeIndent(em);
  const rest = i === 0 ? value : value.slice(i);
  const last = rest.lastIndexOf("\n");
  if (last < 0) {
    put(em, rest);
    em.indention = false;
    return;
  }
  const indent = Math.max(em.indent, 0);
  em.out += rest.replace(LF_BEFORE_TEXT, breakAndSpaces(indent));
  if (last === rest.length - 1) {
    em.column = 0;
    em.indention = true;
  } else {
    em.column = indent + rest.length - last - 1;
    em.indention = false;
  }
}

/** yaml.v3's `yaml_emitter_write_folded_scalar` (no folding of long lines). */
export function writeFolded(em: Emitter, value: string): void {
  writeIndicator(em, ">", true, false, false);
  blockHints(em, value);
  processLineComment(em, true);
  em.whitespace = true;
  let breaks = true;
  let leadingSpaces = true;
  const n = value.length;
  let i = 0;
  while (i < n) {
    const c = value.charCodeAt(i);
    if (isBreakCode(c)) {
      if (!breaks && !leadingSpaces && c === 10) {
        let k = 0;
        while (k < n && isBreakCode(value.charCodeAt(k))) k++;
        const d = k < n ? value.charCodeAt(k) : 0;
        if (!(d === 32 || d === 9 || d === 0 || isBreakCode(d))) putBreak(em);
      }
      writeBreakChar(em, value, i);
      i++;
      breaks = true;
    } else {
      if (breaks) {
        writeIndent(em);
        leadingSpaces = c === 32 || c === 9;
      }
      put(em, value[i]);
      i++;
      em.indention = false;
      breaks = false;
    }
  }
}

const ESCAPES: Record<number, string> = {
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
 * The inside of a double-quoted scalar as yaml.v3 writes it (kpt's writer never folds lines): line
 * breaks, `"`, `\\` and what libyaml cannot print escaped (`\\n`, `\\x7F`, `\\U0001F600`).
 */
export function escapeDoubleQuoted(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  let out = "";
  const n = value.length;
  let run = 0;
  for (let i = 0; i < n; ) {
    const c = value.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 34 && c !== 92) {
      i++;
      continue;
    }
    const cp = value.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    if (!isPrintable(cp) || isBreakCode(cp) || cp === 34 || cp === 92) {
      out += value.slice(run, i) + escapeChar(cp);
      run = i + w;
    }
    i += w;
  }
  return run === 0 ? value : out + value.slice(run);
}

/** A character other than printable ASCII, or `"` or `\\`: where escaping may be needed. */
const NEEDS_ESCAPE = /[^ !#-[\]-~]/;

function escapeChar(cp: number): string {
  const known = ESCAPES[cp];
  if (known) return known;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}
