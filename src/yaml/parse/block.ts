/**
 * Block collections (go-yaml v3's `yaml_parser_parse_block_sequence_entry`,
 * `yaml_parser_parse_indentless_sequence_entry`, `yaml_parser_parse_block_mapping_key`,
 * `yaml_parser_parse_block_mapping_value`, and `yaml_parser_split_stem_comment`).
 */
import { T } from "../scanner.js";
import { E, type Event, emptyScalar, ev, P } from "./events.js";
import { node } from "./node.js";
import type { ParseState } from "./state.js";

/**
 * After a `- ` entry that opens a collection, the head comment pending before the entry (its first
 * `stemLen` characters) heads that collection rather than its first item (`yaml_parser_split_stem_comment`).
 */
function splitStemComment(p: ParseState, stemLen: number): void {
  if (stemLen === 0) return;
  const t = p.peek();
  if (t.type !== T.BlockSequenceStart && t.type !== T.BlockMappingStart) return;
  p.stemComment = p.headComment.slice(0, stemLen);
  p.headComment = p.headComment.length === stemLen ? "" : p.headComment.slice(stemLen + 1);
}

/** An entry of a block sequence, or its end (`yaml_parser_parse_block_sequence_entry`). */
export function blockSequenceEntry(p: ParseState, first: boolean): Event {
  if (first) {
    p.marks.push(p.peek().start);
    p.s.skipToken();
  }
  let t = p.peek();
  if (t.type === T.BlockEntry) {
    const mark = t.end;
    const priorHeadLen = p.headComment.length;
    p.s.skipToken();
    splitStemComment(p, priorHeadLen);
    t = p.peek();
    if (t.type !== T.BlockEntry && t.type !== T.BlockEnd) {
      p.states.push(P.BlockSequenceEntry);
      return node(p, true, false);
    }
    p.state = P.BlockSequenceEntry;
    return emptyScalar(mark);
  }
  if (t.type === T.BlockEnd) {
    p.pop();
    p.marks.pop();
    const e = ev(E.SequenceEnd, t.start, t.end);
    p.s.skipToken();
    return e;
  }
  return p.fail(
    "while parsing a block collection",
    p.marks.pop(),
    "did not find expected '-' indicator",
    t.start,
  );
}

/** An entry of a sequence at its mapping key's indentation, or its end (`yaml_parser_parse_indentless_sequence_entry`). */
export function indentlessSequenceEntry(p: ParseState): Event {
  let t = p.peek();
  if (t.type === T.BlockEntry) {
    const mark = t.end;
    const priorHeadLen = p.headComment.length;
    p.s.skipToken();
    splitStemComment(p, priorHeadLen);
    t = p.peek();
    if (t.type !== T.BlockEntry && t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
      p.states.push(P.IndentlessSequenceEntry);
      return node(p, true, false);
    }
    p.state = P.IndentlessSequenceEntry;
    return emptyScalar(mark);
  }
  p.pop();
  return ev(E.SequenceEnd, t.start, t.start);
}

/** A block mapping's key, or its end (`yaml_parser_parse_block_mapping_key`). */
export function blockMappingKey(p: ParseState, first: boolean): Event {
  if (first) {
    p.marks.push(p.peek().start);
    p.s.skipToken();
  }
  let t = p.peek();
  if (t.type === T.Key) {
    const mark = t.end;
    p.s.skipToken();
    t = p.peek();
    if (t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
      p.states.push(P.BlockMappingValue);
      return node(p, true, true);
    }
    p.state = P.BlockMappingValue;
    return emptyScalar(mark);
  }
  if (t.type === T.BlockEnd) {
    p.pop();
    p.marks.pop();
    const e = ev(E.MappingEnd, t.start, t.end);
    p.setEventComments(e);
    p.s.skipToken();
    return e;
  }
  return p.fail("while parsing a block mapping", p.marks.pop(), "did not find expected key", t.start);
}

/** A block mapping's value, empty when there is none (`yaml_parser_parse_block_mapping_value`). */
export function blockMappingValue(p: ParseState): Event {
  let t = p.peek();
  if (t.type === T.Value) {
    const mark = t.end;
    p.s.skipToken();
    t = p.peek();
    if (t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
      p.states.push(P.BlockMappingKey);
      return node(p, true, true);
    }
    p.state = P.BlockMappingKey;
    return emptyScalar(mark);
  }
  p.state = P.BlockMappingKey;
  return emptyScalar(t.start);
}
