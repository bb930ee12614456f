/**
 * Flow collections (go-yaml v3's `yaml_parser_parse_flow_sequence_entry`,
 * `yaml_parser_parse_flow_sequence_entry_mapping_key` / `_value` / `_end`,
 * `yaml_parser_parse_flow_mapping_key`, `yaml_parser_parse_flow_mapping_value`).
 */
import { T } from "../scanner.js";
import { E, type Event, emptyScalar, ev, P } from "./events.js";
import { node } from "./node.js";
import type { ParseState } from "./state.js";

/**
 * Past the `,` before a flow collection's next entry (none before the first).
 * @throws YamlError when neither `,` nor the collection's end follows an entry.
 */
function skipFlowEntry(p: ParseState, first: boolean, context: string, problem: string): void {
  if (first) return;
  const t = p.peek();
  if (t.type === T.FlowEntry) p.s.skipToken();
  else p.fail(context, p.marks.pop(), problem, t.start);
}

/** The end event of a flow collection at `]` or `}`, with its comments. */
function flowCollectionEnd(p: ParseState, type: E): Event {
  const t = p.peek();
  p.pop();
  p.marks.pop();
  const e = ev(type, t.start, t.end);
  p.setEventComments(e);
  p.s.skipToken();
  return e;
}

/** An entry of a flow sequence, or its end (`yaml_parser_parse_flow_sequence_entry`). */
export function flowSequenceEntry(p: ParseState, first: boolean): Event {
  if (first) {
    p.marks.push(p.peek().start);
    p.s.skipToken();
  }
  if (p.peek().type !== T.FlowSequenceEnd) {
    skipFlowEntry(p, first, "while parsing a flow sequence", "did not find expected ',' or ']'");
    const t = p.peek();
    if (t.type === T.Key) {
      p.state = P.FlowSequenceEntryMappingKey;
      const e = ev(E.MappingStart, t.start, t.end);
      e.implicit = true;
      e.flow = true;
      p.s.skipToken();
      return e;
    }
    if (t.type !== T.FlowSequenceEnd) {
      p.states.push(P.FlowSequenceEntry);
      return node(p, false, false);
    }
  }
  return flowCollectionEnd(p, E.SequenceEnd);
}

/** The key of a single-pair mapping in a flow sequence (`yaml_parser_parse_flow_sequence_entry_mapping_key`). */
export function flowSequenceEntryMappingKey(p: ParseState): Event {
  const t = p.peek();
  if (t.type !== T.Value && t.type !== T.FlowEntry && t.type !== T.FlowSequenceEnd) {
    p.states.push(P.FlowSequenceEntryMappingValue);
    return node(p, false, false);
  }
  const mark = t.end;
  p.s.skipToken();
  p.state = P.FlowSequenceEntryMappingValue;
  return emptyScalar(mark);
}

/** Its value (`yaml_parser_parse_flow_sequence_entry_mapping_value`). */
export function flowSequenceEntryMappingValue(p: ParseState): Event {
  let t = p.peek();
  if (t.type === T.Value) {
    p.s.skipToken();
    t = p.peek();
    if (t.type !== T.FlowEntry && t.type !== T.FlowSequenceEnd) {
      p.states.push(P.FlowSequenceEntryMappingEnd);
      return node(p, false, false);
    }
  }
  p.state = P.FlowSequenceEntryMappingEnd;
  return emptyScalar(t.start);
}

/** Its end (`yaml_parser_parse_flow_sequence_entry_mapping_end`). */
export function flowSequenceEntryMappingEnd(p: ParseState): Event {
  const t = p.peek();
  p.state = P.FlowSequenceEntry;
  return ev(E.MappingEnd, t.start, t.start);
}

/** A flow mapping's key, or its end (`yaml_parser_parse_flow_mapping_key`). */
export function flowMappingKey(p: ParseState, first: boolean): Event {
  if (first) {
    p.marks.push(p.peek().start);
    p.s.skipToken();
  }
  if (p.peek().type !== T.FlowMappingEnd) {
    skipFlowEntry(p, first, "while parsing a flow mapping", "did not find expected ',' or '}'");
    let t = p.peek();
    if (t.type === T.Key) {
      p.s.skipToken();
      t = p.peek();
      if (t.type !== T.Value && t.type !== T.FlowEntry && t.type !== T.FlowMappingEnd) {
        p.states.push(P.FlowMappingValue);
        return node(p, false, false);
      }
      p.state = P.FlowMappingValue;
      return emptyScalar(t.start);
    }
    if (t.type !== T.FlowMappingEnd) {
      p.states.push(P.FlowMappingEmptyValue);
      return node(p, false, false);
    }
  }
  return flowCollectionEnd(p, E.MappingEnd);
}

/** A flow mapping's value, empty for a key alone (`empty`) (`yaml_parser_parse_flow_mapping_value`). */
export function flowMappingValue(p: ParseState, empty: boolean): Event {
  let t = p.peek();
  if (empty) {
    p.state = P.FlowMappingKey;
    return emptyScalar(t.start);
  }
  if (t.type === T.Value) {
    p.s.skipToken();
    t = p.peek();
    if (t.type !== T.FlowEntry && t.type !== T.FlowMappingEnd) {
      p.states.push(P.FlowMappingKey);
      return node(p, false, false);
    }
  }
  p.state = P.FlowMappingKey;
  return emptyScalar(t.start);
}
