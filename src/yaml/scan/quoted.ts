/**
 * Single- and double-quoted scalars and double-quoted escapes (go-yaml v3's
 * `yaml_parser_scan_flow_scalar`).
 */
import { asHex, isBlank, isBlankZ, isBreak, isDocumentMarker, isHex, NUL } from "./chars.js";
import { foldBreaks } from "./plain.js";
import type { ScanState } from "./state.js";
import { type Mark, SS, T, type Token } from "./tokens.js";

/** The one-character escapes of double-quoted scalars by the escape's char code ("" for none). */
const ESCAPES: string[] = new Array<string>(128).fill("");
for (const [ch, out] of [
  ["0", "\0"],
  ["a", "\x07"],
  ["b", "\b"],
  ["t", "\t"],
  ["\t", "\t"],
  ["n", "\n"],
  ["v", "\v"],
  ["f", "\f"],
  ["r", "\r"],
  ["e", "\x1b"],
  [" ", " "],
  ['"', '"'],
  ["'", "'"],
  ["\\", "\\"],
  ["N", "\x85"],
  ["_", "\xa0"],
  ["L", "\u2028"],
  ["P", "\u2029"],
]) {
  ESCAPES[ch.charCodeAt(0)] = out;
}

/** The number of hex digits of a `\x`, `\u` or `\U` escape, else 0. */
function codeLength(e: number): number {
  return e === 120 ? 2 : e === 117 ? 4 : e === 85 ? 8 : 0;
}

/**
 * The escape at the position (a backslash), decoded, the position moved past it.
 * @throws YamlError on an unknown escape, a bad hex digit or an invalid code point.
 */
function scanEscape(s: ScanState, start: Mark): string {
  const e = s.c(1);
  const simple = e < 128 ? ESCAPES[e] : "";
  const length = codeLength(e);
  if (simple === "" && length === 0)
    s.error("found unknown escape character", start, "while parsing a quoted scalar");
  s.skip();
  s.skip();
  if (length === 0) return simple;
  let value = 0;
  for (let k = 0; k < length; k++) {
    if (!isHex(s.c(k)))
      s.error("did not find expected hexdecimal number", start, "while parsing a quoted scalar");
    value = value * 16 + asHex(s.c(k));
  }
  if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
    s.error("found invalid Unicode character escape code", start, "while parsing a quoted scalar");
  }
  for (let k = 0; k < length; k++) s.skip();
  return String.fromCodePoint(value);
}

/**
 * The text of one line of a quoted scalar up to its closing quote, a blank or a line break,
 * appended to `text`; an escaped line break is skipped and ends the line.
 */
function scanQuotedLine(s: ScanState, text: string, single: boolean, start: Mark): string {
  let out = text;
  for (let c = s.c(); !isBlankZ(c) || (c === NUL && s.pos < s.len); c = s.c()) {
    if (single && c === 39 && s.c(1) === 39) {
      out += "'";
      s.skip();
      s.skip();
    } else if (single ? c === 39 : c === 34) break;
    else if (!single && c === 92 && isBreak(s.c(1))) {
      s.skip();
      s.skipLine();
      break;
    } else if (!single && c === 92) {
      out += scanEscape(s, start);
    } else {
      // A run of ordinary characters at once.
      const from = s.pos;
      s.skip();
      for (let d = s.c(); !(isBlankZ(d) || d === 39 || d === 34 || d === 92); d = s.c()) {
        s.pos++;
        s.column++;
      }
      out += s.src.slice(from, s.pos);
    }
  }
  return out;
}

/**
 * A single- (`single`) or double-quoted scalar, its lines folded (`yaml_parser_scan_flow_scalar`).
 * @throws YamlError on a document marker or the end of the stream inside it, or a bad escape.
 */
export function scanFlowScalar(s: ScanState, single: boolean): Token {
  const start = s.mark();
  s.skip();
  let text = "";
  let leadingBreak = "";
  let trailingBreaks = "";
  let whitespaces = "";
  for (;;) {
    if (s.column === 0 && (isDocumentMarker(s.src, s.pos, 45) || isDocumentMarker(s.src, s.pos, 46))) {
      s.error("found unexpected document indicator", start, "while scanning a quoted scalar");
    }
    if (s.c() === NUL && s.pos >= s.len)
      s.error("found unexpected end of stream", start, "while scanning a quoted scalar");
    const line = s.line;
    text = scanQuotedLine(s, text, single, start);
    // Only an escaped line break moves a line on: the breaks after it are kept, not folded.
    let leadingBlanks = s.line !== line;
    const q = s.c();
    if (single ? q === 39 : q === 34) break;
    for (let c = q; isBlank(c) || isBreak(c); c = s.c()) {
      if (isBlank(c)) {
        if (!leadingBlanks) whitespaces += s.src[s.pos];
        s.skip();
      } else if (!leadingBlanks) {
        whitespaces = "";
        leadingBreak = s.readLine();
        leadingBlanks = true;
      } else trailingBreaks += s.readLine();
    }
    if (leadingBlanks) {
      text += foldBreaks(leadingBreak, trailingBreaks);
      trailingBreaks = "";
      leadingBreak = "";
    } else {
      text += whitespaces;
      whitespaces = "";
    }
  }
  s.skip();
  return s.tok(T.Scalar, start, s.mark(), text, single ? SS.Single : SS.Double);
}
