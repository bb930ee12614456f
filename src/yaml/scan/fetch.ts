/**
 * Token fetching (go-yaml v3's `yaml_parser_fetch_next_token` and the `yaml_parser_fetch_*`
 * functions): which token starts at the position, with the simple-key and indentation
 * bookkeeping each kind needs; the scanning itself is in `tags.ts`, `plain.ts`, `quoted.ts`,
 * `block.ts` and `comments.ts`.
 */

import { scanBlockScalar } from "./block.js";
import { isBlank, isBlankZ, isDocumentMarker, isIndicator, NUL } from "./chars.js";
import { scanLineComment, scanToNextToken } from "./comments.js";
import { scanPlainScalar } from "./plain.js";
import { scanFlowScalar } from "./quoted.js";
import {
  decreaseFlowLevel,
  increaseFlowLevel,
  removeSimpleKey,
  rollIndent,
  saveSimpleKey,
  simpleKeyIsValid,
  unrollIndent,
} from "./simple-keys.js";
import type { ScanState } from "./state.js";
import { scanAnchor, scanDirective, scanTag } from "./tags.js";
import { type Mark, T } from "./tokens.js";

/**
 * Queues the next token (and the block starts, ends and keys it implies), then the comment on its
 * line (`yaml_parser_fetch_next_token`). @throws YamlError on bad YAML.
 */
export function fetchNext(s: ScanState): void {
  if (!s.streamStartProduced) {
    fetchStreamStart(s);
    return;
  }
  const scanIndex = s.pos;
  const scanLine = s.line;
  const scanColumn = s.column;
  scanToNextToken(s);
  unrollIndent(s, s.column, scanIndex, scanLine, scanColumn);
  const c = s.c();
  if (s.pos >= s.len && c === NUL) {
    fetchStreamEnd(s);
    return;
  }
  if (s.column === 0 && c === 37 /* % */) {
    fetchDirective(s);
    return;
  }
  if (s.column === 0 && isDocumentMarker(s.src, s.pos, 45)) {
    fetchDocumentIndicator(s, T.DocumentStart);
    return;
  }
  if (s.column === 0 && isDocumentMarker(s.src, s.pos, 46)) {
    fetchDocumentIndicator(s, T.DocumentEnd);
    return;
  }
  let commentMark: Mark | undefined;
  if (s.tokens.length > 0 && ((s.flowLevel === 0 && c === 58) || (s.flowLevel > 0 && c === 44))) {
    commentMark = s.tokens[s.tokens.length - 1].start;
  }
  const at = s.pos;
  const line = s.line;
  const column = s.column;
  fetchToken(s, c);
  if (s.tokens.length > 0 && s.tokens[s.tokens.length - 1].type === T.BlockEntry) return;
  if (s.newlines > 0) return;
  scanLineComment(s, commentMark ?? { index: at, line, column });
}

/** The token that starts with `c`: an indicator's, a node property's, a scalar. */
function fetchToken(s: ScanState, c: number): void {
  if (fetchIndicator(s, c) || fetchNodeStart(s, c)) return;
  const next = s.c(1);
  const flow = s.flowLevel > 0;
  if (
    !isIndicator(c) ||
    (c === 45 && !isBlank(next)) ||
    (!flow && (c === 63 || c === 58) && !isBlankZ(next))
  ) {
    fetchPlainScalar(s);
    return;
  }
  s.error("found character that cannot start any token", s.mark(), "while scanning for the next token");
}

/** A flow bracket, `,`, `- `, `? ` or `: ` (in flow: `?` and `:` alone); whether `c` was one. */
function fetchIndicator(s: ScanState, c: number): boolean {
  switch (c) {
    case 91: // [
      fetchFlowCollectionStart(s, T.FlowSequenceStart);
      return true;
    case 123: // {
      fetchFlowCollectionStart(s, T.FlowMappingStart);
      return true;
    case 93:
      fetchFlowCollectionEnd(s, T.FlowSequenceEnd);
      return true;
    case 125:
      fetchFlowCollectionEnd(s, T.FlowMappingEnd);
      return true;
    case 44:
      fetchFlowEntry(s);
      return true;
  }
  const wide = isBlankZ(s.c(1));
  if (c === 45 && wide) fetchBlockEntry(s);
  else if (c === 63 && (s.flowLevel > 0 || wide)) fetchKey(s);
  else if (c === 58 && (s.flowLevel > 0 || wide)) fetchValue(s);
  else return false;
  return true;
}

/** An alias, anchor, tag, block scalar (outside flow) or quoted scalar; whether `c` starts one. */
function fetchNodeStart(s: ScanState, c: number): boolean {
  switch (c) {
    case 42: // *
      fetchAnchor(s, T.Alias);
      return true;
    case 38: // &
      fetchAnchor(s, T.Anchor);
      return true;
    case 33: // !
      saveSimpleKey(s);
      s.simpleKeyAllowed = false;
      s.insert(-1, scanTag(s));
      return true;
    case 124: // |
    case 62: // >
      if (s.flowLevel > 0) return false;
      removeSimpleKey(s);
      s.simpleKeyAllowed = true;
      s.insert(-1, scanBlockScalar(s, c === 124));
      return true;
    case 39: // '
    case 34: // "
      saveSimpleKey(s);
      s.simpleKeyAllowed = false;
      s.insert(-1, scanFlowScalar(s, c === 39));
      return true;
    default:
      return false;
  }
}

/** `yaml_parser_fetch_stream_start`. */
function fetchStreamStart(s: ScanState): void {
  s.indent = -1;
  s.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: s.mark() });
  s.simpleKeyAllowed = true;
  s.streamStartProduced = true;
  const m = s.mark();
  s.insert(-1, s.tok(T.StreamStart, m, m));
}

/** `yaml_parser_fetch_stream_end`: closes every open block. */
function fetchStreamEnd(s: ScanState): void {
  if (s.column !== 0) {
    s.column = 0;
    s.line++;
  }
  unrollIndent(s, -1, s.pos);
  removeSimpleKey(s);
  s.simpleKeyAllowed = false;
  const m = s.mark();
  s.insert(-1, s.tok(T.StreamEnd, m, m));
}

/** `yaml_parser_fetch_directive`. */
function fetchDirective(s: ScanState): void {
  unrollIndent(s, -1, s.pos);
  removeSimpleKey(s);
  s.simpleKeyAllowed = false;
  s.insert(-1, scanDirective(s));
}

/** `---` or `...` (`yaml_parser_fetch_document_indicator`). */
function fetchDocumentIndicator(s: ScanState, type: T): void {
  unrollIndent(s, -1, s.pos);
  removeSimpleKey(s);
  s.simpleKeyAllowed = false;
  const start = s.mark();
  s.skip();
  s.skip();
  s.skip();
  s.insert(-1, s.tok(type, start, s.mark()));
}

/** `[` or `{` (`yaml_parser_fetch_flow_collection_start`). */
function fetchFlowCollectionStart(s: ScanState, type: T): void {
  saveSimpleKey(s);
  increaseFlowLevel(s);
  s.simpleKeyAllowed = true;
  const start = s.mark();
  s.skip();
  s.insert(-1, s.tok(type, start, s.mark()));
}

/** `]` or `}` (`yaml_parser_fetch_flow_collection_end`). */
function fetchFlowCollectionEnd(s: ScanState, type: T): void {
  removeSimpleKey(s);
  decreaseFlowLevel(s);
  s.simpleKeyAllowed = false;
  const start = s.mark();
  s.skip();
  s.insert(-1, s.tok(type, start, s.mark()));
}

/** `,` (`yaml_parser_fetch_flow_entry`). */
function fetchFlowEntry(s: ScanState): void {
  removeSimpleKey(s);
  s.simpleKeyAllowed = true;
  const start = s.mark();
  s.skip();
  s.insert(-1, s.tok(T.FlowEntry, start, s.mark()));
}

/** `- ` (`yaml_parser_fetch_block_entry`); opens a block sequence. */
function fetchBlockEntry(s: ScanState): void {
  if (s.flowLevel === 0) {
    if (!s.simpleKeyAllowed) s.error("block sequence entries are not allowed in this context", s.mark());
    rollIndent(s, s.column, -1, T.BlockSequenceStart, s.mark());
  }
  removeSimpleKey(s);
  s.simpleKeyAllowed = true;
  const start = s.mark();
  s.skip();
  s.insert(-1, s.tok(T.BlockEntry, start, s.mark()));
}

/** `? ` (`yaml_parser_fetch_key`); opens a block mapping. */
function fetchKey(s: ScanState): void {
  if (s.flowLevel === 0) {
    if (!s.simpleKeyAllowed) s.error("mapping keys are not allowed in this context", s.mark());
    rollIndent(s, s.column, -1, T.BlockMappingStart, s.mark());
  }
  removeSimpleKey(s);
  s.simpleKeyAllowed = s.flowLevel === 0;
  const start = s.mark();
  s.skip();
  s.insert(-1, s.tok(T.Key, start, s.mark()));
}

/**
 * `: ` (`yaml_parser_fetch_value`): a pending simple key gets its key token (and the block mapping
 * start) inserted where it began.
 */
function fetchValue(s: ScanState): void {
  const key = s.simpleKeys[s.simpleKeys.length - 1];
  if (simpleKeyIsValid(s, key)) {
    s.insert(key.tokenNumber - s.parsed, s.tok(T.Key, key.mark, key.mark));
    rollIndent(s, key.mark.column, key.tokenNumber, T.BlockMappingStart, key.mark);
    key.possible = false;
    s.simpleKeysByTok.delete(key.tokenNumber);
    s.simpleKeyAllowed = false;
  } else {
    if (s.flowLevel === 0) {
      if (!s.simpleKeyAllowed) s.error("mapping values are not allowed in this context", s.mark());
      rollIndent(s, s.column, -1, T.BlockMappingStart, s.mark());
    }
    s.simpleKeyAllowed = s.flowLevel === 0;
  }
  const start = s.mark();
  s.skip();
  s.insert(-1, s.tok(T.Value, start, s.mark()));
}

/** `*name` or `&name` (`yaml_parser_fetch_anchor`). */
function fetchAnchor(s: ScanState, type: T): void {
  saveSimpleKey(s);
  s.simpleKeyAllowed = false;
  s.insert(-1, scanAnchor(s, type));
}

/** `yaml_parser_fetch_plain_scalar`. */
function fetchPlainScalar(s: ScanState): void {
  saveSimpleKey(s);
  s.simpleKeyAllowed = false;
  s.insert(-1, scanPlainScalar(s));
}
