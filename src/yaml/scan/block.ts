/**
 * Literal (`|`) and folded (`>`) block scalars (go-yaml v3's `yaml_parser_scan_block_scalar` and
 * `yaml_parser_scan_block_scalar_breaks`).
 */
import { isBlank, isBreak, isBreakZ, NUL, SP, TAB } from "./chars.js";
import { scanLineComment } from "./comments.js";
import type { ScanState } from "./state.js";
import { type Mark, SS, T, type Token } from "./tokens.js";

/** One block scalar's header and the breaks read so far. */
class BlockScalar {
  /** -1 strip (`-`), 0 clip, 1 keep (`+`). */
  chomping = 0;
  /** The indentation indicator, 0 for none. */
  increment = 0;
  /** The content's indentation, 0 until known. */
  indent = 0;
  /** The line breaks after the last content line. */
  trailingBreaks = "";
  /** Where the token ends: after the last line break read. */
  end: Mark;
  constructor(readonly start: Mark) {
    this.end = start;
  }
}

/** A chomping indicator (`+` or `-`) at the position, moved past; 0 for none. */
function scanChomping(s: ScanState): number {
  const c = s.c();
  if (c !== 43 && c !== 45) return 0;
  s.skip();
  return c === 43 ? 1 : -1;
}

/** An indentation indicator (1-9) at the position, moved past; 0 for none. @throws YamlError on 0. */
function scanIncrement(s: ScanState, start: Mark): number {
  const c = s.c();
  if (c < 48 || c > 57) return 0;
  if (c === 48) s.error("found an indentation indicator equal to 0", start, "while scanning a block scalar");
  s.skip();
  return c - 48;
}

/** The header after `|` or `>`: indicators in either order, a comment, the line break. */
function scanHeader(s: ScanState, b: BlockScalar): void {
  const start = b.start;
  b.chomping = scanChomping(s);
  b.increment = scanIncrement(s, start);
  if (b.chomping === 0 && b.increment > 0) b.chomping = scanChomping(s);
  while (isBlank(s.c())) s.skip();
  if (s.c() === 35) {
    scanLineComment(s, start);
    while (!isBreakZ(s.c())) s.skip();
  }
  if (!isBreakZ(s.c()))
    s.error("did not find expected comment or line break", start, "while scanning a block scalar");
  if (isBreak(s.c())) s.skipLine();
}

/**
 * The indentation and empty lines before a content line, the breaks added to `b.trailingBreaks`;
 * fixes the indentation from the first content line when no indicator gave it
 * (`yaml_parser_scan_block_scalar_breaks`). @throws YamlError on a tab in the indentation.
 */
function scanBreaks(s: ScanState, b: BlockScalar): void {
  b.end = s.mark();
  let maxIndent = 0;
  for (;;) {
    while ((b.indent === 0 || s.column < b.indent) && s.c() === SP) s.skip();
    if (s.column > maxIndent) maxIndent = s.column;
    if ((b.indent === 0 || s.column < b.indent) && s.c() === TAB) {
      s.error(
        "found a tab character where an indentation space is expected",
        b.start,
        "while scanning a block scalar",
      );
    }
    if (!isBreak(s.c())) break;
    b.trailingBreaks += s.readLine();
    b.end = s.mark();
  }
  if (b.indent === 0) {
    b.indent = maxIndent;
    if (b.indent < s.indent + 1) b.indent = s.indent + 1;
    if (b.indent < 1) b.indent = 1;
  }
}

/**
 * A literal (`literal`) or folded block scalar at the position (`|` or `>`), chomped as its header
 * says (`yaml_parser_scan_block_scalar`). @throws YamlError on a bad header or indentation.
 */
export function scanBlockScalar(s: ScanState, literal: boolean): Token {
  const b = new BlockScalar(s.mark());
  s.skip();
  scanHeader(s, b);
  b.end = s.mark();
  if (b.increment > 0) b.indent = s.indent >= 0 ? s.indent + b.increment : b.increment;
  let text = "";
  let leadingBreak = "";
  scanBreaks(s, b);
  let leadingBlank = false;
  const src = s.src;
  while (s.column === b.indent && !(s.c() === NUL && s.pos >= s.len)) {
    const trailingBlank = isBlank(s.c());
    if (!literal && !leadingBlank && !trailingBlank && leadingBreak.length > 0 && leadingBreak[0] === "\n") {
      if (b.trailingBreaks.length === 0) text += " ";
    } else text += leadingBreak;
    leadingBreak = "";
    text += b.trailingBreaks;
    b.trailingBreaks = "";
    leadingBlank = isBlank(s.c());
    const from = s.pos;
    let p = from;
    for (let d = src.charCodeAt(p); !(isBreak(d) || (d === NUL && p >= s.len)); d = src.charCodeAt(++p));
    s.column += p - from;
    s.pos = p;
    text += src.slice(from, p);
    s.newlines = 0;
    leadingBreak = s.readLine();
    scanBreaks(s, b);
  }
  if (b.chomping !== -1) text += leadingBreak;
  if (b.chomping === 1) text += b.trailingBreaks;
  return s.tok(T.Scalar, b.start, b.end, text, literal ? SS.Literal : SS.Folded);
}
