/**
 * Plain scalars (go-yaml v3's `yaml_parser_scan_plain_scalar`), and the folding of line breaks
 * that plain and quoted scalars share.
 */
import { CR, isBlank, isBlankZ, isBreak, isDocumentMarker, LF, NUL, SP, TAB } from "./chars.js";
import type { ScanState } from "./state.js";
import { SS, T, type Token } from "./tokens.js";

/** Whether `c` ends a plain scalar inside a flow collection: `, ? [ ] { }`. */
function isFlowIndicator(c: number): boolean {
  return c === 44 || c === 63 || c === 91 || c === 93 || c === 123 || c === 125;
}

/** Where the run of characters at `from` that cannot end a plain scalar stops. */
function plainRunEnd(src: string, from: number, flow: boolean): number {
  for (let p = from; ; p++) {
    const d = src.charCodeAt(p);
    if (
      d <= 32
        ? d === SP || d === TAB || d === LF || d === CR || d === NUL
        : d === 58 || d === 0x85 || d === 0x2028 || d === 0x2029 || (flow && isFlowIndicator(d))
    )
      return p;
  }
}

/**
 * What a scalar's line break adds before its next text (`leading` the first break, `trailing` the
 * rest): a "\n" folds to a space, or to the breaks after it; LS/PS are kept with them.
 */
export function foldBreaks(leading: string, trailing: string): string {
  if (leading[0] !== "\n") return leading + trailing;
  return trailing.length === 0 ? " " : trailing;
}

/**
 * A plain scalar: its lines folded, ended by `: `, ` #`, a document marker, a dedent, or a flow
 * indicator inside a flow collection (`yaml_parser_scan_plain_scalar`). The token ends after its
 * last non-blank character. @throws YamlError on a tab that violates indentation.
 */
export function scanPlainScalar(s: ScanState): Token {
  let text = "";
  let leadingBreak = "";
  let trailingBreaks = "";
  let whitespaces = "";
  let leadingBlanks = false;
  const indent = s.indent + 1;
  const start = s.mark();
  let endPos = -1;
  let endLine = 0;
  let endColumn = 0;
  const flow = s.flowLevel > 0;
  const src = s.src;
  for (;;) {
    if (s.column === 0 && (isDocumentMarker(src, s.pos, 45) || isDocumentMarker(src, s.pos, 46))) break;
    if (s.c() === 35) break;
    for (let c = s.c(); !isBlankZ(c); c = s.c()) {
      if ((c === 58 && isBlankZ(s.c(1))) || (flow && isFlowIndicator(c))) break;
      if (leadingBlanks) {
        text += foldBreaks(leadingBreak, trailingBreaks);
        trailingBreaks = "";
        leadingBreak = "";
        leadingBlanks = false;
      } else if (whitespaces.length > 0) {
        text += whitespaces;
        whitespaces = "";
      }
      // A run of characters that cannot end the scalar.
      const from = s.pos;
      s.skip();
      const p = plainRunEnd(src, s.pos, flow);
      s.column += p - s.pos;
      s.pos = p;
      text = text.length === 0 ? src.slice(from, p) : text + src.slice(from, p);
      endPos = p;
      endLine = s.line;
      endColumn = s.column;
    }
    if (!(isBlank(s.c()) || isBreak(s.c()))) break;
    for (let c = s.c(); isBlank(c) || isBreak(c); c = s.c()) {
      if (isBlank(c)) {
        if (leadingBlanks && s.column < indent && c === TAB) {
          s.error("found a tab character that violates indentation", start, "while scanning a plain scalar");
        }
        if (!leadingBlanks) whitespaces += src[s.pos];
        s.skip();
      } else if (!leadingBlanks) {
        whitespaces = "";
        leadingBreak = s.readLine();
        leadingBlanks = true;
      } else trailingBreaks += s.readLine();
    }
    if (!flow && s.column < indent) break;
  }
  if (leadingBlanks) s.simpleKeyAllowed = true;
  const end = endPos < 0 ? start : { index: endPos, line: endLine, column: endColumn };
  return s.tok(T.Scalar, start, end, text, SS.Plain);
}
