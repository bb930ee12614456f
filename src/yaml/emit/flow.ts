/**
 * Flow collections in the writer: yaml.v3's `yaml_emitter_emit_flow_sequence_item`,
 * `yaml_emitter_emit_flow_mapping_key` and `yaml_emitter_emit_flow_mapping_value` (emitterc.go),
 * with the trailing-comment states of yaml.v3's fork kyaml uses.
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

/** Whether a line, foot or tail comment waits (an item's `,` then goes before it). */
export function hasPendingTrail(em: Emitter): boolean {
  return em.lineComment.length + em.footComment.length + em.tailComment.length > 0;
}

/** The opening `[` or `{` of a flow collection (its first state). */
export function openFlow(em: Emitter, indicator: string): void {
  writeIndicator(em, indicator, true, true, false);
  increaseIndent(em, true, false);
  em.flowLevel++;
}

/** A flow sequence's SEQUENCE-END: `]`, the line and foot comments, the enclosing state. */
export function closeFlowSequence(em: Emitter): void {
  em.flowLevel--;
  popIndent(em);
  if (em.column === 0) writeIndent(em);
  writeIndicator(em, "]", false, false, false);
  processLineComment(em, false);
  processFootComment(em);
  popState(em);
}

/** A flow mapping's MAPPING-END after its comma: pending comments, `}`, the enclosing state. */
export function closeFlowMapping(em: Emitter): void {
  processHeadComment(em);
  em.flowLevel--;
  popIndent(em);
  writeIndicator(em, "}", false, false, false);
  processLineComment(em, false);
  processFootComment(em);
  popState(em);
}

/** yaml.v3's `yaml_emitter_emit_flow_sequence_item` (`trail`: a comment closed the previous item). */
export function flowSequenceItem(em: Emitter, e: Ev, first: boolean, trail: boolean): void {
  if (first) openFlow(em, "[");
  if (e.type === E.SequenceEnd) {
    closeFlowSequence(em);
    return;
  }
  if (!first && !trail) writeIndicator(em, ",", false, false, false);
  processHeadComment(em);
  if (em.column === 0) writeIndent(em);
  em.states.push(hasPendingTrail(em) ? S.FlowSequenceTrailItem : S.FlowSequenceItem);
  emitNode(em, e, false, false);
  if (hasPendingTrail(em)) writeIndicator(em, ",", false, false, false);
  processLineComment(em, false);
  processFootComment(em);
}

/** yaml.v3's `yaml_emitter_emit_flow_mapping_key`. */
export function flowMappingKey(em: Emitter, e: Ev, first: boolean, trail: boolean): void {
  if (first) openFlow(em, "{");
  if (e.type === E.MappingEnd) {
    const pending = em.headComment.length + em.footComment.length + em.tailComment.length > 0;
    if (pending && !first && !trail) writeIndicator(em, ",", false, false, false);
    closeFlowMapping(em);
    return;
  }
  if (!first && !trail) writeIndicator(em, ",", false, false, false);
  processHeadComment(em);
  if (em.column === 0) writeIndent(em);
  if (checkSimpleKey(em)) {
    em.states.push(S.FlowMappingSimpleValue);
    emitNode(em, e, true, true);
    return;
  }
  writeIndicator(em, "?", true, false, false);
  em.states.push(S.FlowMappingValue);
  emitNode(em, e, true, false);
}

/** yaml.v3's `yaml_emitter_emit_flow_mapping_value`. */
export function flowMappingValue(em: Emitter, e: Ev, simple: boolean): void {
  writeIndicator(em, ":", !simple, false, false);
  em.states.push(hasPendingTrail(em) ? S.FlowMappingTrailKey : S.FlowMappingKey);
  emitNode(em, e, true, false);
  if (hasPendingTrail(em)) writeIndicator(em, ",", false, false, false);
  processLineComment(em, false);
  processFootComment(em);
}
