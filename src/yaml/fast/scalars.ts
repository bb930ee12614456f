/**
 * The fast reader's scalars, read the way go-yaml v3's scanner reads them in block context: plain
 * (multi-line folded), single- and double-quoted (escapes, multi-line folded) and keys on one line.
 * Each leaves the cursor right after the scalar's text; each bails where it is unsure.
 */
import { Kind, type YNode } from "../node.js";
import { resolvePlain, STR } from "../resolve.js";
import { BAIL, COLON, type Codes, type Cursor, DASH, HASH, LF, SP } from "./cursor.js";
import { quoted } from "./quoted.js";

const SQUOTE = 39;
const DQUOTE = 34;
const BACKSLASH = 92;

/**
 * `resolvePlain(text)`, the commonest case answered here: a text starting with a letter resolves
 * to !!str unless it is one of true/false/null in their three spellings (4 or 5 chars).
 */
export function plainTag(text: string): string {
  const n = text.length;
  if (n > 5 || n < 4) {
    const f = text.charCodeAt(0) | 32;
    if (f >= 97 && f <= 122) return STR;
  }
  return resolvePlain(text);
}

/** Whether `c` at `p` is a blank or a line's end (the end of the text counts). */
export function blankAt(b: Codes, p: number): boolean {
  const c = b[p];
  return c === SP || c === LF || p >= b.length;
}

/** Whether a plain scalar may start with `ch` followed by the char at `p + 1` (block context). */
export function plainStart(b: Codes, p: number): boolean {
  switch (b[p]) {
    case DASH:
    case 63: // ?
    case COLON:
      return !blankAt(b, p + 1);
    case SP:
    case LF:
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case SQUOTE:
    case DQUOTE:
    case 37: // %
    case 64: // @
    case 96: // `
      return false;
    default:
      return p < b.length;
  }
}

/**
 * Where the plain text on one line from `p` stops: a line break or the end, `:` before a blank or
 * the end, or ` #` (the regex `(?:[^\n: ]|:(?=[^ \n])| (?!#))*` from `p`, as a loop over the codes).
 */
function plainRun(b: Codes, p: number): number {
  const n = b.length;
  for (; p < n; p++) {
    const ch = b[p];
    if (ch === LF) return p;
    if (ch === COLON) {
      const d = b[p + 1];
      if (p + 1 === n || d === SP || d === LF) return p;
    } else if (ch === SP && b[p + 1] === HASH) return p;
  }
  return p;
}

/**
 * The end (exclusive, trailing spaces cut) of plain text on one line from `p`, stopping at the
 * line's end or at ` #`; bails on `: ` (a mapping value yaml.v3 would refuse or read as a key).
 */
function plainLineEnd(b: Codes, p: number): number {
  let end = plainRun(b, p);
  if (b[end] === COLON) throw BAIL;
  while (end > p && b[end - 1] === SP) end--;
  return end;
}

/**
 * A plain scalar value from `pos`; continuation lines (indented past `indent`, the enclosing
 * collection's column) fold as yaml.v3 folds them. A line comment after one-line text is kept.
 */
export function plainValue(c: Cursor, indent: number): YNode {
  const s = c.src;
  const b = c.code;
  const start = c.pos;
  const n = c.node(Kind.Scalar, "", "", start, c.line, c.lineStart);
  let end = plainLineEnd(b, start);
  let value = s.slice(start, end);
  let p = end;
  while (b[p] === SP) p++;
  if (b[p] === HASH) {
    c.pos = p;
    n.lineComment = c.lineComment();
  } else {
    c.pos = p;
    for (;;) {
      // p at a line break: is the next non-blank line a continuation?
      let q = p;
      let blanks = 0;
      let ls = q + 1;
      for (;;) {
        if (q >= c.len) break;
        q++;
        ls = q;
        while (b[q] === SP) q++;
        if (b[q] !== LF) break;
        blanks++;
      }
      if (q >= c.len || q - ls <= indent || b[q] === HASH) {
        if (blanks === 0 && q < c.len) c.peek(p, q, ls);
        break;
      }
      end = plainLineEnd(b, q);
      let r = end;
      while (b[r] === SP) r++;
      if (r < c.len && b[r] !== LF) throw BAIL;
      value += blanks === 0 ? " " : "\n".repeat(blanks);
      value += s.slice(q, end);
      c.line += blanks + 1;
      c.lineStart = ls;
      p = r;
      c.pos = r;
    }
  }
  n.value = value;
  n.tag = plainTag(value);
  return n;
}

/** Slots of the table of plain keys read so far (a power of two; at most half are filled). */
const KEY_SLOTS = 1 << 14;
/** Plain keys read so far, each text once (the same few keys recur in every resource), by hash. */
const keyTable: (string | undefined)[] = new Array(KEY_SLOTS).fill(undefined);
let keysKept = 0;

/**
 * The text `s.slice(start, end)`, as the equal string read as a key before where there is one (one
 * copy of `metadata` for all resources). Found by a hash of the codes, so a known key costs no new
 * string; keys over 64 chars, and any past 8,192 kept, are their own copies.
 */
function sharedKey(s: string, b: Codes, start: number, end: number): string {
  const len = end - start;
  if (len > 64) return s.slice(start, end);
  let h = len;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + b[i]) | 0;
  let slot = h & (KEY_SLOTS - 1);
  for (let probe = 0; probe < 8; probe++) {
    const known = keyTable[slot];
    if (known === undefined) {
      const text = s.slice(start, end);
      if (keysKept < KEY_SLOTS / 2) {
        keyTable[slot] = text;
        keysKept++;
      }
      return text;
    }
    if (known.length === len && s.startsWith(known, start)) return known;
    slot = (slot + 1) & (KEY_SLOTS - 1);
  }
  return s.slice(start, end);
}

/** A one-line plain or quoted key at `pos` and the `:` after it; `pos` moves past the `:`. */
export function key(c: Cursor): YNode {
  const s = c.src;
  const b = c.code;
  const keyStart = c.pos;
  const ch = b[c.pos];
  let n: YNode;
  if (ch === SQUOTE || ch === DQUOTE) {
    const line = c.line;
    n = quoted(c);
    if (c.line !== line) throw BAIL;
    while (b[c.pos] === SP) c.pos++;
  } else {
    if (!plainStart(b, c.pos)) throw BAIL;
    const start = c.pos;
    const p = plainRun(b, start);
    if (b[p] !== COLON) throw BAIL;
    let end = p;
    while (b[end - 1] === SP) end--;
    const value = sharedKey(s, b, start, end);
    n = c.node(Kind.Scalar, plainTag(value), value, start, c.line, c.lineStart);
    c.pos = p;
  }
  // yaml.v3 looks for a simple key's `:` at most 1024 chars after the key starts: leave the edge to it.
  if (c.pos - keyStart > 1000) throw BAIL;
  if (b[c.pos] !== COLON || !blankAt(b, c.pos + 1)) throw BAIL;
  c.pos++;
  return n;
}

/** Whether the line at `pos` holds a key and its `:` (what `key` would read). */
export function isKeyLine(c: Cursor): boolean {
  const b = c.code;
  let p = c.pos;
  const ch = b[p];
  if (ch === SQUOTE || ch === DQUOTE) {
    p++;
    for (;;) {
      const d = b[p];
      if (d === LF || p >= c.len) return false;
      if (d === ch) {
        if (ch === SQUOTE && b[p + 1] === SQUOTE) p++;
        else break;
      } else if (d === BACKSLASH && ch === DQUOTE) p++;
      p++;
    }
    p++;
    while (b[p] === SP) p++;
    return b[p] === COLON && blankAt(b, p + 1);
  }
  if (!plainStart(b, p)) return false;
  return b[plainRun(b, p)] === COLON;
}
