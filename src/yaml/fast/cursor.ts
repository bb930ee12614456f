/**
 * The fast reader's cursor over one document's text: position, 0-based line and the index where
 * the line starts (a column is `pos - lineStart`, in UTF-16 code units as the full scanner counts),
 * the comment gap between two lines of content, and the bail-out signal.
 */
import { type Kind, YNode } from "../node.js";

/** Thrown (one shared instance) when the text leaves the fast reader's subset. */
export const BAIL = new Error("outside the fast reader's subset");

export const LF = 10;
export const SP = 32;
export const HASH = 35;
export const COLON = 58;
export const DASH = 45;
export const TAB = 9;

/**
 * A text's UTF-16 code units, read by index: an element load where `charCodeAt` costs a check of
 * the string's representation on every call. Past the end an element is undefined, which
 * compares with a char code as `charCodeAt`'s NaN does (equal to none, neither less nor greater).
 */
export type Codes = Uint16Array;

/** Whether this platform stores a Uint16Array's elements little-endian (as "utf16le" writes them). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Texts up to this many chars share one buffer (a read is synchronous, so one at a time). */
const SHARED_MAX = 1 << 16;
let shared = new Uint16Array(0);

/**
 * The code units of `text` (`text.charCodeAt(i)` is element i), copied natively where it can; a
 * short text's view is into a buffer the next read reuses (the nodes keep none of it).
 */
export function codesOf(text: string): Codes {
  const n = text.length;
  let out: Uint16Array;
  if (n <= SHARED_MAX) {
    if (shared.length < n) shared = new Uint16Array(Math.max(n, 4096));
    out = shared.subarray(0, n);
  } else out = new Uint16Array(n);
  if (LITTLE_ENDIAN) Buffer.from(out.buffer, out.byteOffset, 2 * n).write(text, 0, "utf16le");
  else for (let i = 0; i < n; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** The state of one document's read. */
export class Cursor {
  readonly src: string;
  /** The code units of `src`, where the reader looks at chars. */
  readonly code: Codes;
  readonly len: number;
  readonly lineOffset: number;
  pos = 0;
  line = 0;
  lineStart = 0;
  /** The head comment waiting for the next node (yaml.v3's comment text, lines joined by "\n"). */
  head = "";
  /** The foot comment the last gap found for the node read before it (its caller places it). */
  foot = "";
  /** The comments after the document's last node, its foot comment. */
  tail = "";
  /** Whether the last gap ran to the end of the text. */
  atEnd = false;
  /**
   * Where tabs may be, when the text has any: the content of each block scalar line (start, end
   * pairs, past the scalar's indentation), the one place a tab cannot change what yaml.v3 reads.
   */
  tabRanges: number[] | null = null;
  /**
   * A line already looked at: the break before it (-2 for none, as -1 stands for the document's
   * start), its first non-space char, its start.
   */
  private peekFrom = -2;
  private peekAt = 0;
  private peekStart = 0;
  /**
   * The children of the collections being read, innermost last (`top` of them in use): each
   * collection's content is cut from it at its end, an array of exactly its length, where pushing
   * one by one leaves room for 16 more in every small mapping.
   */
  private readonly stack: YNode[] = [];
  private top = 0;

  constructor(src: string, lineOffset: number) {
    this.src = src;
    this.code = codesOf(src);
    this.len = src.length;
    this.lineOffset = lineOffset;
  }

  get column(): number {
    return this.pos - this.lineStart;
  }

  /** A node placed at `pos` (1-based line and column, as the composer places nodes). */
  node(kind: Kind, tag: string, value: string, at: number, atLine: number, atLineStart: number): YNode {
    const n = new YNode(kind, tag, value);
    n.line = atLine + 1 + this.lineOffset;
    n.column = at - atLineStart + 1;
    return n;
  }

  /** Where the children of a collection begin on the stack (see {@link Cursor.children}). */
  mark(): number {
    return this.top;
  }

  /** Puts a child of the innermost collection on the stack. */
  add(child: YNode): void {
    this.stack[this.top++] = child;
  }

  /** The children added since `mark`, taken off the stack (an array of exactly their number). */
  children(mark: number): YNode[] {
    const out = this.stack.slice(mark, this.top);
    this.top = mark;
    return out;
  }

  /** Remembers that the line after the break at `from` starts at `start`, its content at `at`. */
  peek(from: number, at: number, start: number): void {
    this.peekFrom = from;
    this.peekAt = at;
    this.peekStart = start;
  }

  /** Skips spaces from `pos`; returns the char code there (-1 at the end). */
  skipSpaces(): number {
    const b = this.code;
    let p = this.pos;
    while (b[p] === SP) p++;
    this.pos = p;
    return p < this.len ? b[p] : -1;
  }

  /** The comment from `pos` (at `#`) to the line's end; `pos` moves to the line break. */
  lineComment(): string {
    const from = this.pos;
    let end = this.src.indexOf("\n", from);
    if (end < 0) end = this.len;
    this.pos = end;
    return this.src.slice(from, end);
  }

  /**
   * After a node's last line (`pos` at its line break or the end): reads the blank and comment
   * lines up to the next content, leaving `pos` at its first char, the comment text for the next
   * node in `head` (yaml.v3's head comment: a blank line after a comment line adds one "\n"), and
   * what yaml.v3 splits off as the foot comment of the node just read in `foot`: the comments
   * before a line left of both `indent` (the innermost collection's column) and their own column.
   * At the end of the text the comments left are the document's foot (`tail`). Bails on the other
   * feet of `yaml_parser_scan_comments` (comments directly below a node ended by a blank line or
   * the end, a second foot, one after a key's `:`), which yaml.v3 ties by line numbers and marks.
   */
  gap(indent: number, afterValue: boolean): void {
    const s = this.src;
    const b = this.code;
    const len = this.len;
    let p = this.pos;
    if (p >= 0 && p < len && b[p] !== LF) throw BAIL;
    let text = "";
    // yaml.v3's first_empty (no blank line yet), recent_empty (the last line was blank).
    let firstEmpty = true;
    let recentEmpty = false;
    // The column of the text's first comment, and whether that comment is the node's next line.
    let startCol = -1;
    let startsBelow = false;
    let below = true;
    let line = this.line;
    let ls = this.lineStart;
    for (;;) {
      if (p + 1 >= len) {
        p = len;
        break;
      }
      line++;
      if (p === this.peekFrom) {
        ls = this.peekStart;
        p = this.peekAt;
      } else {
        ls = ++p;
        while (b[p] === SP) p++;
      }
      if (p >= len) break;
      const c = b[p];
      if (c === LF) {
        if (text !== "" && !recentEmpty) {
          // A foot yaml.v3 ties by the lines' numbers, to the node or to a later token.
          if (firstEmpty && ((startsBelow && !afterValue) || startCol < indent)) throw BAIL;
          text += "\n";
        }
        firstEmpty = false;
        recentEmpty = true;
        below = false;
        continue;
      }
      const col = p - ls;
      if (text !== "" && col < indent && col !== startCol) text = this.footOf(text, afterValue);
      if (c !== HASH) break;
      let end = s.indexOf("\n", p);
      if (end < 0) end = len;
      if (text === "") {
        startCol = col;
        startsBelow = below;
        text = s.slice(p, end);
      } else text = `${text}\n${s.slice(p, end)}`;
      recentEmpty = false;
      below = false;
      p = end;
    }
    this.pos = p;
    this.line = line;
    this.lineStart = ls;
    if (p >= len) {
      // The end: comments directly below the node, with no blank line, are a foot tied as above.
      if (text !== "" && !recentEmpty && firstEmpty && ((startsBelow && !afterValue) || startCol < indent))
        throw BAIL;
      this.atEnd = true;
      this.tail = text;
    } else this.head = text;
  }

  /**
   * Takes `text` as the foot comment of the node just read (yaml.v3 ties the first foot of a gap
   * to the token before it; after a key's `:` that is the `:`, left to the full parser).
   */
  private footOf(text: string, afterValue: boolean): string {
    if (afterValue || this.foot !== "") throw BAIL;
    this.foot = text;
    return "";
  }
}
