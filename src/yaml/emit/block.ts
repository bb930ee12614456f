/**
 * Block collections in the writer: yaml.v3's `yaml_emitter_emit_block_sequence_item`,
 * `yaml_emitter_emit_block_mapping_key` and `yaml_emitter_emit_block_mapping_value` (emitterc.go),
 * with kyaml's compact sequence indentation.
 */
import { processFootComment, processHeadComment, processLineComment } from "./comments.js";
import { E, type Ev } from "./events.js";
import { checkSimpleKey, emitNode } from "./node.js";
import {
  type Emitter,
  increaseIndent,
  popIndent,
  popState,
  S,
  writeIndent,
  writeIndicator,
} from "./output.js";

/** yaml.v3's `yaml_emitter_emit_block_sequence_item`. */
export function blockSequenceItem(em: Emitter, e: Ev, first: boolean): void {
  if (first) {
    const compact = em.mappingContext && (em.column === 0 || !em.indention) && em.compactSeq;
    increaseIndent(em, false, false, compact);
  }
  if (e.type === E.SequenceEnd) {
    popIndent(em);
    popState(em);
    return;
  }
  processHeadComment(em);
  writeIndent(em);
  writeIndicator(em, "-", true, false, true);
  em.states.push(S.BlockSequenceItem);
  emitNode(em, e, false, false);
  processLineComment(em, false);
  processFootComment(em);
}

/** yaml.v3's `yaml_emitter_emit_block_mapping_key` (a key's line comment held for its value). */
export function blockMappingKey(em: Emitter, e: Ev, first: boolean): void {
  if (first) increaseIndent(em, false, false);
  processHeadComment(em);
  if (e.type === E.MappingEnd) {
    popIndent(em);
    popState(em);
    return;
  }
  writeIndent(em);
  if (em.lineComment.length > 0) {
    em.keyLineComment = em.lineComment;
    em.lineComment = "";
  }
  if (checkSimpleKey(em)) {
    em.states.push(S.BlockMappingSimpleValue);
    emitNode(em, e, true, true);
    return;
  }
  writeIndicator(em, "?", true, false, true);
  em.states.push(S.BlockMappingValue);
  emitNode(em, e, true, false);
}

/** A block mapping value's `:` (after a simple key on its line, else on a line of its own). */
export function valueIndicator(em: Emitter, simple: boolean): void {
  if (simple) writeIndicator(em, ":", false, false, false);
  else {
    writeIndent(em);
    writeIndicator(em, ":", true, false, true);
  }
}

/** yaml.v3's `yaml_emitter_emit_block_mapping_value`. */
export function blockMappingValue(em: Emitter, e: Ev, simple: boolean): void {
  valueIndicator(em, simple);
  if (em.keyLineComment.length > 0)
    moveKeyLineComment(
      em,
      e.type === E.Scalar,
      (e.type === E.MappingStart || e.type === E.SequenceStart) && !e.flow,
    );
  em.states.push(S.BlockMappingKey);
  emitNode(em, e, true, false);
  processLineComment(em, false);
  processFootComment(em);
}

/**
 * The key's line comment goes after a scalar value, or before a block collection's content
 * (`collection`: a block mapping or sequence starts). Before a flow collection it stays pending, as
 * in yaml.v3, whose test reads a mapping's style as a sequence style (both flow styles are 2): kpt
 * writes it after a later scalar, or loses it to the next key's comment.
 */
export function moveKeyLineComment(em: Emitter, scalar: boolean, collection: boolean): void {
  if (scalar) {
    if (em.lineComment.length === 0) {
      em.lineComment = em.keyLineComment;
      em.keyLineComment = "";
    }
  } else if (collection) {
    const own = em.lineComment;
    em.lineComment = em.keyLineComment;
    em.keyLineComment = own;
    processLineComment(em, false);
    em.lineComment = em.keyLineComment;
    em.keyLineComment = "";
  }
}
