/**
 * The event parser: tokens to events, a state machine over the scanner (go-yaml v3's
 * `parserc.go`, `yaml_parser_parse` and `yaml_parser_state_machine`), comments unfolded onto the
 * events as it does. The states' handlers live beside it: documents (`document.ts`), nodes
 * (`node.ts`), block collections (`block.ts`), flow collections (`flow.ts`).
 */
import { blockMappingKey, blockMappingValue, blockSequenceEntry, indentlessSequenceEntry } from "./block.js";
import { documentContent, documentEnd, documentStart, streamStart } from "./document.js";
import { type Event, P } from "./events.js";
import {
  flowMappingKey,
  flowMappingValue,
  flowSequenceEntry,
  flowSequenceEntryMappingEnd,
  flowSequenceEntryMappingKey,
  flowSequenceEntryMappingValue,
} from "./flow.js";
import { node } from "./node.js";
import { ParseState } from "./state.js";

/** The stream, document and block states. */
function blockStates(p: ParseState): Event {
  switch (p.state) {
    case P.StreamStart:
      return streamStart(p);
    case P.ImplicitDocumentStart:
      return documentStart(p, true);
    case P.DocumentStart:
      return documentStart(p, false);
    case P.DocumentContent:
      return documentContent(p);
    case P.DocumentEnd:
      return documentEnd(p);
    case P.BlockNode:
      return node(p, true, false);
    case P.FlowNode:
      return node(p, false, false);
    case P.BlockSequenceFirstEntry:
      return blockSequenceEntry(p, true);
    case P.BlockSequenceEntry:
      return blockSequenceEntry(p, false);
    case P.IndentlessSequenceEntry:
      return indentlessSequenceEntry(p);
    case P.BlockMappingFirstKey:
      return blockMappingKey(p, true);
    case P.BlockMappingKey:
      return blockMappingKey(p, false);
    case P.BlockMappingValue:
      return blockMappingValue(p);
    default:
      throw new Error("invalid parser state");
  }
}

/** The flow collection states. */
function flowStates(p: ParseState): Event {
  switch (p.state) {
    case P.FlowSequenceFirstEntry:
      return flowSequenceEntry(p, true);
    case P.FlowSequenceEntry:
      return flowSequenceEntry(p, false);
    case P.FlowSequenceEntryMappingKey:
      return flowSequenceEntryMappingKey(p);
    case P.FlowSequenceEntryMappingValue:
      return flowSequenceEntryMappingValue(p);
    case P.FlowSequenceEntryMappingEnd:
      return flowSequenceEntryMappingEnd(p);
    case P.FlowMappingFirstKey:
      return flowMappingKey(p, true);
    case P.FlowMappingKey:
      return flowMappingKey(p, false);
    case P.FlowMappingValue:
      return flowMappingValue(p, false);
    case P.FlowMappingEmptyValue:
      return flowMappingValue(p, true);
    default:
      throw new Error("invalid parser state");
  }
}

/** yaml.v3's event parser over our scanner. */
export class Parser extends ParseState {
  /** The next event, or undefined after the stream's end (`yaml_parser_parse`). @throws YamlError on bad YAML. */
  next(): Event | undefined {
    if (this.done || this.s.streamEndProduced || this.state === P.End) return undefined;
    return this.state < P.FlowSequenceFirstEntry ? blockStates(this) : flowStates(this);
  }
}
