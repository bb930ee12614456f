/**
 * The YAML writer: a node tree to text exactly as kyaml writes it — yaml.v3's encoder (`encode.go`
 * node walk, `emit/events.ts`) feeding yaml.v3's emitter (`emitterc.go` state machine, `emit/`) in
 * kyaml's fork, with an indent of 2, no line folding, and kyaml's compact sequence indentation when
 * asked. This file holds the document states and the dispatch (`yaml_emitter_emit`,
 * `yaml_emitter_state_machine`).
 */

import { blockMappingKey, blockMappingValue, blockSequenceItem } from "./emit/block.js";
import { processFootComment, processHeadComment, processLineComment } from "./emit/comments.js";
import { emitDirect } from "./emit/direct.js";
import { E, type Ev, EventCursor } from "./emit/events.js";
import { flowMappingKey, flowMappingValue, flowSequenceItem } from "./emit/flow.js";
import { analyzeEvent, emitNode } from "./emit/node.js";
import {
  type EmitOptions,
  Emitter,
  emittedText,
  putBreak,
  S,
  writeIndent,
  writeIndicator,
} from "./emit/output.js";
import type { YNode } from "./node.js";

export type { EmitOptions } from "./emit/output.js";

/** yaml.v3's `yaml_emitter_emit_document_start` (kyaml writes no `---` for the first document). */
function documentStart(em: Emitter, e: Ev): void {
  if (e.type !== E.DocumentStart) throw new Error("expected DOCUMENT-START");
  const implicit = e.implicit && em.first;
  em.first = false;
  if (!implicit) {
    writeIndent(em);
    writeIndicator(em, "---", true, false, false);
    writeIndent(em);
  }
  if (em.headComment.length > 0) {
    processHeadComment(em);
    putBreak(em);
  }
  em.state = S.DocumentContent;
}

/** yaml.v3's `yaml_emitter_emit_document_content`. */
function documentContent(em: Emitter, e: Ev): void {
  em.states.push(S.DocumentEnd);
  processHeadComment(em);
  emitNode(em, e, false, false);
  processLineComment(em, false);
  processFootComment(em);
}

/** yaml.v3's `yaml_emitter_emit_document_end`: the document's foot comment at column 0. */
function documentEnd(em: Emitter, e: Ev): void {
  if (e.type !== E.DocumentEnd) throw new Error("expected DOCUMENT-END");
  em.footIndent = 0;
  processFootComment(em);
  em.footIndent = -1;
  writeIndent(em);
  if (!e.implicit) {
    writeIndicator(em, "...", true, false, false);
    writeIndent(em);
  }
  em.state = S.DocumentStart;
}

/** yaml.v3's `yaml_emitter_state_machine`: the current state's function on one event. */
function machine(em: Emitter, e: Ev): void {
  switch (em.state) {
    case S.BlockMappingKey:
      blockMappingKey(em, e, false);
      return;
    case S.BlockMappingSimpleValue:
      blockMappingValue(em, e, true);
      return;
    case S.BlockSequenceItem:
      blockSequenceItem(em, e, false);
      return;
    case S.BlockMappingFirstKey:
      blockMappingKey(em, e, true);
      return;
    case S.BlockSequenceFirstItem:
      blockSequenceItem(em, e, true);
      return;
    case S.BlockMappingValue:
      blockMappingValue(em, e, false);
      return;
    case S.DocumentStart:
      documentStart(em, e);
      return;
    case S.DocumentContent:
      documentContent(em, e);
      return;
    case S.DocumentEnd:
      documentEnd(em, e);
      return;
    default:
      flowMachine(em, e);
      return;
  }
}

function flowMachine(em: Emitter, e: Ev): void {
  switch (em.state) {
    case S.FlowSequenceFirstItem:
      flowSequenceItem(em, e, true, false);
      return;
    case S.FlowSequenceTrailItem:
      flowSequenceItem(em, e, false, true);
      return;
    case S.FlowSequenceItem:
      flowSequenceItem(em, e, false, false);
      return;
    case S.FlowMappingFirstKey:
      flowMappingKey(em, e, true, false);
      return;
    case S.FlowMappingTrailKey:
      flowMappingKey(em, e, false, true);
      return;
    case S.FlowMappingKey:
      flowMappingKey(em, e, false, false);
      return;
    case S.FlowMappingSimpleValue:
      flowMappingValue(em, e, true);
      return;
    case S.FlowMappingValue:
      flowMappingValue(em, e, false);
      return;
    default:
      throw new Error("expected nothing after the document end");
  }
}

/**
 * Writes one document node as kyaml's encoder writes it (no `---` line; the caller joins documents
 * with `---\n`). A non-document node is written as the content of an implicit document. The common
 * document (block collections, untagged scalars, comments) goes the direct way (`emit/direct.ts`),
 * the rest through yaml.v3's event machine (`emitDocumentEvents`); the bytes are the same.
 */
export function emitDocument(doc: YNode, options: EmitOptions = {}): string {
  return emitDirect(doc, options) ?? emitDocumentEvents(doc, options);
}

/**
 * The same document through yaml.v3's encoder events and emitter state machine for every node:
 * what `emitDocument` falls back to, and the reference its direct way is checked against.
 */
export function emitDocumentEvents(doc: YNode, options: EmitOptions = {}): string {
  const cursor = new EventCursor(doc);
  const em = new Emitter(cursor, options);
  while (cursor.next()) {
    analyzeEvent(em, cursor.ev);
    machine(em, cursor.ev);
  }
  return emittedText(em);
}
