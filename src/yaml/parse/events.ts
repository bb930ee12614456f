/**
 * The parser's vocabulary: event kinds and events (go-yaml v3's `yaml_event_type_t`,
 * `yaml_event_t`) and the parser's states (`yaml_parser_state_t`).
 */
import { type Mark, SS } from "../scanner.js";

/** Event kinds (yaml.v3's `yaml_event_type_t`). */
export enum E {
  None,
  StreamStart,
  StreamEnd,
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

/** An event (yaml.v3's `yaml_event_t`), with the head, line and foot comments unfolded onto it. */
export interface Event {
  type: E;
  start: Mark;
  end: Mark;
  anchor: string;
  tag: string;
  value: string;
  implicit: boolean;
  quotedImplicit: boolean;
  /** Scalar style (SS) or, for collections, whether flow. */
  style: number;
  flow: boolean;
  head: string;
  line: string;
  foot: string;
}

/** The parser's states (yaml.v3's `yaml_parser_state_t`); the flow ones come last. */
export enum P {
  StreamStart,
  ImplicitDocumentStart,
  DocumentStart,
  DocumentContent,
  DocumentEnd,
  BlockNode,
  FlowNode,
  BlockSequenceFirstEntry,
  BlockSequenceEntry,
  IndentlessSequenceEntry,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingValue,
  FlowSequenceFirstEntry,
  FlowSequenceEntry,
  FlowSequenceEntryMappingKey,
  FlowSequenceEntryMappingValue,
  FlowSequenceEntryMappingEnd,
  FlowMappingFirstKey,
  FlowMappingKey,
  FlowMappingValue,
  FlowMappingEmptyValue,
  End,
}

/** A bare event of kind `type` (every field set, so that all events share one shape). */
export function ev(type: E, start: Mark, end: Mark): Event {
  return {
    type,
    start,
    end,
    anchor: "",
    tag: "",
    value: "",
    implicit: false,
    quotedImplicit: false,
    style: 0,
    flow: false,
    head: "",
    line: "",
    foot: "",
  };
}

/** An empty plain scalar at `mark` (yaml.v3's `yaml_parser_process_empty_scalar`). */
export function emptyScalar(mark: Mark): Event {
  const e = ev(E.Scalar, mark, mark);
  e.implicit = true;
  e.style = SS.Plain;
  return e;
}
