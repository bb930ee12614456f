/**
 * The fast reader's flow collections in their simple forms: `[a, "b", 'c']` and `{k: v, "q": w}` on
 * one line, of plain and quoted scalars only (go-yaml v3's flow sequence and flow mapping
 * productions, each entry a scalar; a trailing `,` before the end as yaml.v3 allows). Anything
 * else — nesting, a line break, a comment, `?`, `:` or `#` inside a plain scalar, an empty entry
 * or value — is left to the full parser.
 */
import { Kind, Style, type YNode } from "../node.js";
import { MAP, resolvePlain, SEQ } from "../resolve.js";
import { BAIL, COLON, type Cursor, LF, SP } from "./cursor.js";
import { quoted } from "./quoted.js";

const COMMA = 44;
const RBRACKET = 93;
const RBRACE = 125;

/** yaml.v3 looks for a simple key's `:` at most 1024 chars on: collections longer are the parser's. */
const MAX_SPAN = 1000;

/** A flow sequence or mapping at `pos` (its `[` or `{`); `pos` moves past its closing bracket. */
export function flowCollection(c: Cursor): YNode {
  const b = c.code;
  const start = c.pos;
  const isMap = b[start] === 123;
  const close = isMap ? RBRACE : RBRACKET;
  const n = c.node(isMap ? Kind.Mapping : Kind.Sequence, isMap ? MAP : SEQ, "", start, c.line, c.lineStart);
  n.style = Style.Flow;
  const content = n.content;
  c.pos++;
  let ch = c.skipSpaces();
  while (ch !== close) {
    content.push(flowScalar(c, isMap ? COLON : close));
    if (isMap) {
      if (b[c.pos] !== COLON || b[c.pos + 1] !== SP) throw BAIL;
      c.pos += 2;
      ch = c.skipSpaces();
      if (ch === COMMA || ch === close) throw BAIL;
      content.push(flowScalar(c, close));
    }
    ch = c.skipSpaces();
    if (ch === COMMA) {
      c.pos++;
      ch = c.skipSpaces();
      if (ch === COMMA) throw BAIL;
    } else if (ch !== close) throw BAIL;
  }
  c.pos++;
  if (c.pos - start > MAX_SPAN) throw BAIL;
  return n;
}

/** A quoted or plain scalar entry at `pos` on this line; `stop` is the char that may end a plain one. */
function flowScalar(c: Cursor, stop: number): YNode {
  const s = c.src;
  const b = c.code;
  const ch = b[c.pos];
  if (ch === 39 || ch === 34) {
    const line = c.line;
    const n = quoted(c);
    if (c.line !== line) throw BAIL;
    return n;
  }
  const start = c.pos;
  let p = start;
  let end = start;
  for (;;) {
    // An unclosed collection: the text ends inside it.
    if (p >= c.len) throw BAIL;
    const d = b[p];
    if (d === COMMA || d === stop || d === RBRACKET || d === RBRACE) break;
    if (d === SP) {
      p++;
      continue;
    }
    // Indicators and what the scanner reads differently in flow context.
    if (!plainInFlow(d) || (p === start && d === 45)) throw BAIL;
    p++;
    end = p;
  }
  if (end === start) throw BAIL;
  const value = s.slice(start, end);
  const n = c.node(Kind.Scalar, resolvePlain(value), value, start, c.line, c.lineStart);
  c.pos = end;
  return n;
}

/** Whether `d` may stand inside a plain scalar of a simple flow collection (conservatively). */
function plainInFlow(d: number): boolean {
  switch (d) {
    case LF:
    case COLON:
    case 63: // ?
    case 35: // #
    case 91: // [
    case 123: // {
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 39: // '
    case 34: // "
    case 37: // %
    case 64: // @
    case 96: // `
      return false;
    default:
      return true;
  }
}
