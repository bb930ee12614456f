/**
 * Simple keys, flow levels and block indentation (go-yaml v3's `yaml_parser_simple_key_is_valid`,
 * `save_simple_key`, `remove_simple_key`, `increase_flow_level`, `decrease_flow_level`,
 * `roll_indent`, `unroll_indent`): where a `key:` without `?` may start, and the block
 * collection starts and ends that indentation implies.
 */
import type { ScanState, SimpleKey } from "./state.js";
import { type Mark, T } from "./tokens.js";

/**
 * Whether a possible simple key still is one: on the current line and within 1024 characters
 * (`yaml_parser_simple_key_is_valid`). @throws YamlError when a required key went stale.
 */
export function simpleKeyIsValid(s: ScanState, key: SimpleKey): boolean {
  if (!key.possible) return false;
  if (key.mark.line < s.line || key.mark.index + 1024 < s.pos) {
    if (key.required) s.error("could not find expected ':'", key.mark, "while scanning a simple key");
    key.possible = false;
    return false;
  }
  return true;
}

/** Records that the next token may be a simple key (`yaml_parser_save_simple_key`). */
export function saveSimpleKey(s: ScanState): void {
  const required = s.flowLevel === 0 && s.indent === s.column;
  if (s.simpleKeyAllowed) {
    const key: SimpleKey = {
      possible: true,
      required,
      tokenNumber: s.parsed + (s.tokens.length - s.head),
      mark: s.mark(),
    };
    removeSimpleKey(s);
    s.simpleKeys[s.simpleKeys.length - 1] = key;
    s.simpleKeysByTok.set(key.tokenNumber, s.simpleKeys.length - 1);
  }
}

/** Drops the current level's possible simple key (`yaml_parser_remove_simple_key`). @throws YamlError if it was required. */
export function removeSimpleKey(s: ScanState): void {
  const key = s.simpleKeys[s.simpleKeys.length - 1];
  if (key.possible) {
    if (key.required) s.error("could not find expected ':'", key.mark, "while scanning a simple key");
    key.possible = false;
    s.simpleKeysByTok.delete(key.tokenNumber);
  }
}

/** Enters a flow collection (`yaml_parser_increase_flow_level`). @throws YamlError past depth 10000. */
export function increaseFlowLevel(s: ScanState): void {
  s.simpleKeys.push({
    possible: false,
    required: false,
    tokenNumber: s.parsed + (s.tokens.length - s.head),
    mark: s.mark(),
  });
  s.flowLevel++;
  if (s.flowLevel > 10000) s.error("exceeded max depth of 10000", s.mark());
}

/** Leaves a flow collection (`yaml_parser_decrease_flow_level`). */
export function decreaseFlowLevel(s: ScanState): void {
  if (s.flowLevel > 0) {
    s.flowLevel--;
    const last = s.simpleKeys.pop()!;
    s.simpleKeysByTok.delete(last.tokenNumber);
  }
}

/**
 * Opens a block collection when `column` is deeper than the current indentation, inserting its
 * start token at token `number` (or at the end for -1) (`yaml_parser_roll_indent`).
 */
export function rollIndent(s: ScanState, column: number, number: number, type: T, mark: Mark): void {
  if (s.flowLevel > 0) return;
  if (s.indent < column) {
    s.indents.push(s.indent);
    s.indent = column;
    if (s.indents.length > 10000) s.error("exceeded max depth of 10000", mark);
    s.insert(number > -1 ? number - s.parsed : -1, s.tok(type, mark, mark));
  }
}

/**
 * Closes every block collection deeper than `column` with a block end token, marked as yaml.v3
 * marks it: at the scan start, or at a foot comment's start one column in (`yaml_parser_unroll_indent`).
 */
export function unrollIndent(
  s: ScanState,
  column: number,
  scanIndex: number,
  scanLine = s.line,
  scanColumn = s.column,
): void {
  if (s.flowLevel > 0 || s.indent <= column) return;
  // The block end's mark: the scan start's, its index less one.
  let blockMark: Mark = { index: scanIndex - 1, line: scanLine, column: scanColumn };
  while (s.indent > column) {
    let stop = blockMark.index;
    for (let i = s.comments.length - 1; i >= 0; i--) {
      const comment = s.comments[i];
      if (comment.end.index < stop) break;
      if (comment.start.column === s.indent + 1) blockMark = comment.start;
      stop = comment.scan.index;
    }
    s.insert(-1, s.tok(T.BlockEnd, blockMark, blockMark));
    s.indent = s.indents.pop()!;
  }
}
