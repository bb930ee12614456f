/**
 * Comments and the blanks between tokens (go-yaml v3's `yaml_parser_scan_to_next_token`,
 * `yaml_parser_scan_line_comment`, `yaml_parser_scan_comments`): comments are collected beside
 * the tokens as head, line and foot text tied to token positions, as yaml.v3 ties them.
 */
import { isBlank, isBreak, isBreakZ, NUL, SP, TAB } from "./chars.js";
import type { ScanState } from "./state.js";
import { type Mark, T } from "./tokens.js";

/**
 * Moves past blanks, line breaks and comments to the next token, collecting the comments; a
 * sequence entry's line comment becomes its head comment when the entry goes on below
 * (`yaml_parser_scan_to_next_token`).
 */
export function scanToNextToken(s: ScanState): void {
  let scanMark: Mark | undefined;
  const scanIndex = s.pos;
  const scanLine = s.line;
  const scanColumn = s.column;
  const src = s.src;
  for (;;) {
    if (s.column === 0 && src.charCodeAt(s.pos) === 0xfeff) s.skip();
    const tabs = s.flowLevel > 0 || !s.simpleKeyAllowed;
    let p = s.pos;
    for (let c = src.charCodeAt(p); c === SP || (tabs && c === TAB); c = src.charCodeAt(++p));
    if (p > s.pos) {
      s.column += p - s.pos;
      s.pos = p;
    }
    const n = s.tokens.length;
    if (s.comments.length > 0 && n > 1) {
      const a = s.tokens[n - 2];
      const b = s.tokens[n - 1];
      const comment = s.comments[s.comments.length - 1];
      if (
        a.type === T.BlockSequenceStart &&
        b.type === T.BlockEntry &&
        comment.line.length > 0 &&
        !isBreak(s.c())
      ) {
        comment.head = comment.line;
        comment.line = "";
        if (comment.start.line === s.line - 1) comment.token = s.mark();
      }
    }
    if (s.c() === 35) {
      scanMark ??= { index: scanIndex, line: scanLine, column: scanColumn };
      scanComments(s, scanMark);
    }
    if (isBreak(s.c())) {
      s.skipLine();
      if (s.flowLevel === 0) s.simpleKeyAllowed = true;
    } else break;
  }
}

/**
 * Moves on to `seen` (where a `#` is), then through the comment to its line break; returns the
 * comment's text from `#` on.
 */
function consumeComment(s: ScanState, seen: number): string {
  let text = "";
  for (;;) {
    const c = s.c();
    if (isBreakZ(c) && !(c === NUL && s.pos < s.len)) {
      if (s.pos >= seen) break;
      s.skipLine();
    } else if (s.pos >= seen) {
      const from = s.pos;
      for (let d = s.c(); !isBreakZ(d) || (d === NUL && s.pos < s.len); d = s.c()) {
        s.pos++;
        s.column++;
      }
      text += s.src.slice(from, s.pos);
      s.newlines = 0;
    } else s.skip();
  }
  return text;
}

/**
 * A comment on the line of the token just scanned, tied to `tokenMark` (`yaml_parser_scan_line_comment`).
 */
export function scanLineComment(s: ScanState, tokenMark: Mark): void {
  if (s.newlines > 0) return;
  let peek = 0;
  while (isBlank(s.c(peek))) peek++;
  if (s.c(peek) !== 35) return;
  const seen = s.pos + peek;
  while (s.pos < seen) s.skip();
  const startMark = s.mark();
  const text = consumeComment(s, seen);
  if (text.length > 0) {
    s.comments.push({
      scan: tokenMark,
      token: tokenMark,
      start: startMark,
      end: s.mark(),
      head: "",
      line: text,
      foot: "",
    });
  }
}

/** A run of comment lines being split into foot and head comments (`yaml_parser_scan_comments`' locals). */
class CommentRun {
  scanMark: Mark;
  tokenMark: Mark;
  /** The kind of the token the comments follow (a flow entry's previous token). */
  tokenType: T;
  startMark: Mark = { index: 0, line: 0, column: 0 };
  nextIndent: number;
  recentEmpty = false;
  firstEmpty: boolean;
  line: number;
  column: number;
  text = "";
  footLine = -1;
  peek = 0;

  constructor(s: ScanState, scanMark: Mark) {
    let token = s.tokens[s.tokens.length - 1];
    if (token.type === T.FlowEntry && s.tokens.length > 1) token = s.tokens[s.tokens.length - 2];
    this.scanMark = scanMark;
    this.tokenMark = token.start;
    this.tokenType = token.type;
    this.nextIndent = Math.max(s.indent, 0);
    this.firstEmpty = s.newlines <= 1;
    this.line = s.line;
    this.column = s.column;
    if (scanMark.line > 0) {
      this.footLine = s.line - s.newlines + 1;
      if (s.newlines === 0 && s.column > 1) this.footLine++;
    }
  }
}

/** Ends the run's text as a foot comment at the look position; the next run starts there. */
function pushFoot(s: ScanState, r: CommentRun): void {
  const endMark = { index: s.pos + r.peek, line: r.line, column: r.column };
  s.comments.push({
    scan: r.scanMark,
    token: r.tokenMark,
    start: r.startMark,
    end: endMark,
    head: "",
    line: "",
    foot: r.text,
  });
  r.scanMark = endMark;
  r.tokenMark = endMark;
  r.text = "";
}

/**
 * A line break, the end, or a closing flow bracket at the look position: a blank line (or the
 * bracket) after comments that end at or left of the indentation ends them as a foot comment;
 * else the text goes on. Returns whether the look goes on to the next line.
 */
function runBreak(s: ScanState, r: CommentRun, c: number, closeFlow: boolean): boolean {
  if (closeFlow || !r.recentEmpty) {
    if (
      closeFlow ||
      (r.firstEmpty &&
        ((r.startMark.line === r.footLine && r.tokenType !== T.Value) ||
          r.startMark.column - 1 < r.nextIndent))
    ) {
      if (r.text.length > 0) {
        if (r.startMark.column - 1 < r.nextIndent) r.tokenMark = r.startMark;
        pushFoot(s, r);
      }
    } else if (r.text.length > 0 && c !== NUL) {
      r.text += "\n";
    }
  }
  if (!isBreak(c)) return false;
  r.firstEmpty = false;
  r.recentEmpty = true;
  r.column = 0;
  r.line++;
  return true;
}

/** Reads the comment at the look position into the run; the next look starts past its line break. */
function runComment(s: ScanState, r: CommentRun): void {
  if (r.text.length === 0) r.startMark = { index: s.pos + r.peek, line: r.line, column: r.column };
  else r.text += "\n";
  r.recentEmpty = false;
  r.text += consumeComment(s, s.pos + r.peek);
  // As yaml.v3 does, the next look starts one past the comment's line break.
  r.peek = 0;
  r.column = 0;
  r.line = s.line;
  r.nextIndent = Math.max(s.indent, 0);
}

/**
 * The comment lines at the position: those that end a block (a blank line after them, or a dedent)
 * become foot comments, the rest the head comment of the next token (`yaml_parser_scan_comments`).
 */
export function scanComments(s: ScanState, scanMark: Mark): void {
  const r = new CommentRun(s, scanMark);
  for (; r.peek < 512; r.peek++) {
    r.column++;
    const c = s.c(r.peek);
    if (isBlank(c)) continue;
    const closeFlow = s.flowLevel > 0 && (c === 93 || c === 125);
    if (closeFlow || isBreakZ(c)) {
      if (runBreak(s, r, c, closeFlow)) continue;
      break;
    }
    if (r.text.length > 0 && r.column - 1 < r.nextIndent && r.column !== r.startMark.column) pushFoot(s, r);
    if (c !== 35) break;
    runComment(s, r);
  }
  if (r.text.length > 0) {
    const endMark = { index: s.pos + r.peek - 1, line: r.line, column: r.column };
    s.comments.push({
      scan: r.scanMark,
      token: r.startMark,
      start: r.startMark,
      end: endMark,
      head: r.text,
      line: "",
      foot: "",
    });
  }
}
