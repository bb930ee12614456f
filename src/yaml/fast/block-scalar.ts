/**
 * The fast reader's block scalars (`|` and `>` with chomping and indentation indicators), read as
 * go-yaml v3's `scan_block_scalar` reads them.
 */
import { Kind, Style, type YNode } from "../node.js";
import { STR } from "../resolve.js";
import { BAIL, type Codes, type Cursor, HASH, LF, SP, TAB } from "./cursor.js";

const PLUS = 43;
const MINUS = 45;

/** Chomping (-1 strip, 0 clip, 1 keep) and indentation increment of the header at `p`; sets HEADER_END. */
function header(b: Codes, p: number): [number, number] {
  let chomping = 0;
  let increment = 0;
  let ch = b[p];
  if (ch === PLUS || ch === MINUS) {
    chomping = ch === PLUS ? 1 : -1;
    ch = b[++p];
    if (ch >= 48 && ch <= 57) {
      if (ch === 48) throw BAIL;
      increment = ch - 48;
      p++;
    }
  } else if (ch >= 48 && ch <= 57) {
    if (ch === 48) throw BAIL;
    increment = ch - 48;
    ch = b[++p];
    if (ch === PLUS || ch === MINUS) {
      chomping = ch === PLUS ? 1 : -1;
      p++;
    }
  }
  HEADER_END = p;
  return [chomping, increment];
}

let HEADER_END = 0;

/**
 * A block scalar at `pos` (its `|` or `>`), `indent` the enclosing collection's column. The cursor
 * is left at the line break ending its last content line, so the gap after it reads the rest.
 */
export function blockScalar(c: Cursor, indent: number): YNode {
  const b = c.code;
  const literal = b[c.pos] === 124;
  const n = c.node(Kind.Scalar, STR, "", c.pos, c.line, c.lineStart);
  n.style = literal ? Style.Literal : Style.Folded;
  const [chomping, increment] = header(b, c.pos + 1);
  let p = HEADER_END;
  while (b[p] === SP) p++;
  if (b[p] === HASH) {
    if (p === HEADER_END) throw BAIL;
    c.pos = p;
    n.lineComment = c.lineComment();
    p = c.pos;
  }
  if (p >= c.len || b[p] !== LF) throw BAIL;
  c.pos = p;
  n.value = body(
    c,
    literal,
    chomping,
    increment > 0 ? (indent >= 0 ? indent + increment : increment) : 0,
    indent,
  );
  return n;
}

/** The content lines after the header's line break at `pos` (yaml.v3's breaks and folding). */
function body(c: Cursor, literal: boolean, chomping: number, fixed: number, context: number): string {
  const s = c.src;
  const b = c.code;
  const len = c.len;
  let indent = fixed;
  let p = c.pos + 1;
  let line = c.line + 1;
  let ls = p;
  let value = "";
  let leading = "";
  let trailing = 0;
  let leadingBlank = false;
  for (;;) {
    let maxIndent = 0;
    for (;;) {
      while ((indent === 0 || p - ls < indent) && b[p] === SP) p++;
      // yaml.v3 refuses a tab where the indentation is still being found.
      if (indent === 0 && b[p] === TAB) throw BAIL;
      if (p - ls > maxIndent) maxIndent = p - ls;
      if (p >= len || b[p] !== LF) break;
      trailing++;
      p++;
      line++;
      ls = p;
    }
    if (indent === 0) indent = Math.max(maxIndent, context + 1, 1);
    if (p - ls !== indent || p >= len) break;
    // yaml.v3's is_blank: a line starting with a space or a tab is "more indented".
    const first = b[p];
    const trailingBlank = first === SP || first === TAB;
    if (!literal && !leadingBlank && !trailingBlank && leading === "\n") {
      if (trailing === 0) value += " ";
    } else value += leading;
    if (trailing > 0) value += "\n".repeat(trailing);
    trailing = 0;
    leadingBlank = trailingBlank;
    let e = s.indexOf("\n", p);
    if (e < 0) e = len;
    value += s.slice(p, e);
    c.tabRanges?.push(p, e);
    c.pos = e;
    c.line = line;
    c.lineStart = ls;
    p = e;
    leading = "";
    if (p < len) {
      leading = "\n";
      p++;
      line++;
      ls = p;
    }
  }
  if (chomping !== -1) value += leading;
  if (chomping === 1 && trailing > 0) value += "\n".repeat(trailing);
  return value;
}
