/**
 * The fast reader's quoted scalars (yaml.v3's `scan_flow_scalar` in block context): single quotes
 * with `''`, double quotes with escapes, line breaks folded.
 */
import { Kind, Style, type YNode } from "../node.js";
import { STR } from "../resolve.js";
import { BAIL, type Codes, type Cursor, LF, SP } from "./cursor.js";

const SQUOTE = 39;
const DQUOTE = 34;
const BACKSLASH = 92;

/** A quoted scalar's text up to a quote, a line break (or, double-quoted, a backslash). */
const SINGLE_RUN = /[^'\n]*/y;
const DOUBLE_RUN = /[^"\\\n]*/y;

/**
 * A single- or double-quoted scalar at `pos` (yaml.v3's `scan_flow_scalar`: escapes, line breaks
 * folded to a space or kept as the blank lines between); `pos` moves past the closing quote.
 */
export function quoted(c: Cursor): YNode {
  const s = c.src;
  const b = c.code;
  const single = b[c.pos] === SQUOTE;
  const n = c.node(Kind.Scalar, STR, "", c.pos, c.line, c.lineStart);
  n.style = single ? Style.SingleQuoted : Style.DoubleQuoted;
  // The common case, text on one line without escapes up to the closing quote: one native search.
  const text = single ? SINGLE_RUN : DOUBLE_RUN;
  text.lastIndex = c.pos + 1;
  text.test(s);
  const close = text.lastIndex;
  if (b[close] === (single ? SQUOTE : DQUOTE) && !(single && b[close + 1] === SQUOTE)) {
    n.value = s.slice(c.pos + 1, close);
    c.pos = close + 1;
    return n;
  }
  let p = c.pos + 1;
  let run = p;
  let value = "";
  for (;;) {
    if (p >= c.len) throw BAIL;
    const ch = b[p];
    if (single && ch === SQUOTE) {
      value += s.slice(run, p + 1);
      if (b[p + 1] !== SQUOTE) {
        value = value.slice(0, -1);
        p++;
        break;
      }
      p += 2;
      run = p;
    } else if (!single && ch === DQUOTE) {
      value += s.slice(run, p);
      p++;
      break;
    } else if (!single && ch === BACKSLASH) {
      value += s.slice(run, p);
      if (b[p + 1] === LF) {
        p = fold(c, p + 1, true);
        value += FOLDED;
      } else {
        value += escapeText(b, p);
        p += ESCAPE_LENGTH;
      }
      run = p;
    } else if (ch === LF || (ch === SP && spacesToBreak(b, p))) {
      value += s.slice(run, p);
      while (b[p] === SP) p++;
      p = fold(c, p, false);
      value += FOLDED;
      run = p;
    } else p++;
  }
  c.pos = p;
  n.value = value;
  return n;
}

function spacesToBreak(b: Codes, p: number): boolean {
  while (b[p] === SP) p++;
  return b[p] === LF;
}

/** What the last `fold` joined with. */
let FOLDED = "";

/**
 * From a line break at `p` inside a quoted scalar: skips the blank lines and the next line's
 * indentation, sets FOLDED (" " or one "\n" per blank line; after an escaped break only the
 * "\n"s) and returns where the text goes on.
 */
function fold(c: Cursor, p: number, escaped: boolean): number {
  const b = c.code;
  let breaks = 0;
  while (b[p] === LF) {
    p++;
    c.line++;
    c.lineStart = p;
    breaks++;
    while (b[p] === SP) p++;
  }
  if (p >= c.len) throw BAIL;
  FOLDED = escaped ? "\n".repeat(breaks - 1) : breaks === 1 ? " " : "\n".repeat(breaks - 1);
  return p;
}

let ESCAPE_LENGTH = 2;

const SIMPLE_ESCAPES: Record<number, string> = {
  48: "\0",
  97: "\x07",
  98: "\b",
  116: "\t",
  110: "\n",
  118: "\v",
  102: "\f",
  114: "\r",
  101: "\x1b",
  32: " ",
  34: '"',
  39: "'",
  92: "\\",
  78: "\x85",
  95: "\xa0",
  76: "\u2028",
  80: "\u2029",
};

/** The text of the escape at `p` (a backslash); sets ESCAPE_LENGTH. Bails on bad escapes. */
function escapeText(b: Codes, p: number): string {
  const e = b[p + 1];
  const simple = SIMPLE_ESCAPES[e];
  if (simple !== undefined) {
    ESCAPE_LENGTH = 2;
    return simple;
  }
  const digits = e === 120 ? 2 : e === 117 ? 4 : e === 85 ? 8 : 0;
  if (digits === 0) throw BAIL;
  let value = 0;
  for (let k = 0; k < digits; k++) {
    const h = b[p + 2 + k];
    const d = h >= 48 && h <= 57 ? h - 48 : h >= 65 && h <= 70 ? h - 55 : h >= 97 && h <= 102 ? h - 87 : -1;
    if (d < 0) throw BAIL;
    value = value * 16 + d;
  }
  if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) throw BAIL;
  ESCAPE_LENGTH = 2 + digits;
  return String.fromCodePoint(value);
}
