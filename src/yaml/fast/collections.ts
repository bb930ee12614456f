/**
 * The fast reader's block collections: mappings of one-line keys and block sequences, nested by
 * column as go-yaml v3's scanner nests them, with head comments given to the node yaml.v3's
 * parser gives them to (a sequence entry's comment heads its mapping when the entry is one).
 */
import { Kind, Style, type YNode } from "../node.js";
import { MAP, NULL, SEQ } from "../resolve.js";
import { blockScalar } from "./block-scalar.js";
import { BAIL, type Cursor, DASH, HASH, LF } from "./cursor.js";
import { flowCollection } from "./flow.js";
import { quoted } from "./quoted.js";
import { blankAt, isKeyLine, key, plainStart, plainValue } from "./scalars.js";

/** A block mapping whose first key is at `pos`, at column `col`. */
export function mapping(c: Cursor, col: number): YNode {
  const b = c.code;
  const map = c.node(Kind.Mapping, MAP, "", c.pos, c.line, c.lineStart);
  const mark = c.mark();
  for (;;) {
    const k = key(c);
    k.headComment = c.head;
    c.head = "";
    const v = mappingValue(c, col, k);
    c.add(k);
    c.add(v);
    // yaml.v3 moves a value's foot comment to its key.
    if (c.foot !== "") k.footComment = footOf(c, v);
    if (c.atEnd) break;
    const next = c.column;
    if (next < col) break;
    if (next > col || (b[c.pos] === DASH && blankAt(b, c.pos + 1))) throw BAIL;
  }
  map.content = c.children(mark);
  return map;
}

/** The value after a key's `:` (at `pos`), the mapping at column `col`. */
function mappingValue(c: Cursor, col: number, k: YNode): YNode {
  const b = c.code;
  const at = c.pos;
  const line = c.line;
  const ls = c.lineStart;
  let ch = c.skipSpaces();
  if (ch === HASH) {
    k.lineComment = c.lineComment();
    ch = LF;
  }
  if (ch !== LF && ch !== -1) {
    const v = inlineValue(c, col);
    c.gap(col, false);
    return v;
  }
  c.gap(col, true);
  if (!c.atEnd) {
    const next = c.column;
    if (next > col) return block(c, next, col);
    if (next === col && b[c.pos] === DASH && blankAt(b, c.pos + 1)) return sequence(c, col);
  }
  return c.node(Kind.Scalar, NULL, "", at, line, ls);
}

/**
 * A key's value starting on its own line at `pos`, column `col` (past `indent`, the key's): a
 * collection, or a scalar or flow collection, which takes the comment above it as its head.
 */
function block(c: Cursor, col: number, indent: number): YNode {
  const b = c.code;
  if (b[c.pos] === DASH && blankAt(b, c.pos + 1)) return sequence(c, col);
  if (isKeyLine(c)) return mapping(c, col);
  const head = c.head;
  c.head = "";
  const v = inlineValue(c, indent);
  v.headComment = head;
  c.gap(indent, false);
  return v;
}

/** A scalar on the line of its key or `- ` (at `pos`), its collection at column `col`. */
function inlineValue(c: Cursor, col: number): YNode {
  const b = c.code;
  const ch = b[c.pos];
  let n: YNode;
  if (ch === 39 || ch === 34) n = quoted(c);
  else if (ch === 123 || ch === 91) n = flowCollection(c);
  else if (ch === 124 || ch === 62) return blockScalar(c, col);
  else if (plainStart(b, c.pos)) return plainValue(c, col);
  else throw BAIL;
  // After a quoted scalar or a flow collection: a line comment or the line's end.
  const at = c.pos;
  const next = c.skipSpaces();
  if (next === HASH && c.pos > at) n.lineComment = c.lineComment();
  else if (next !== LF && next !== -1) throw BAIL;
  return n;
}

/**
 * The foot comment the last gap found, taken for `n`, the node read before it (a scalar or flow
 * collection; after a block scalar yaml.v3 finds it later, at another token).
 */
function footOf(c: Cursor, n: YNode): string {
  if (n.style & (Style.Literal | Style.Folded)) throw BAIL;
  const foot = c.foot;
  c.foot = "";
  return foot;
}

/** A block sequence whose first `-` is at `pos`, column `col`. */
export function sequence(c: Cursor, col: number): YNode {
  const b = c.code;
  const seq = c.node(Kind.Sequence, SEQ, "", c.pos, c.line, c.lineStart);
  const mark = c.mark();
  for (;;) {
    c.pos++;
    const ch = c.skipSpaces();
    if (ch === LF || ch === -1 || ch === HASH || (ch === DASH && blankAt(b, c.pos + 1))) throw BAIL;
    const head = c.head;
    c.head = "";
    let item: YNode;
    if (isKeyLine(c)) item = mapping(c, c.column);
    else {
      item = inlineValue(c, col);
      c.gap(col, false);
    }
    item.headComment = head;
    if (c.foot !== "") item.footComment = footOf(c, item);
    c.add(item);
    if (c.atEnd) break;
    const next = c.column;
    if (next !== col || b[c.pos] !== DASH || !blankAt(b, c.pos + 1)) {
      if (next > col) throw BAIL;
      break;
    }
  }
  seq.content = c.children(mark);
  return seq;
}
