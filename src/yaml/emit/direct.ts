/**
 * The writer's direct way for the common document: yaml.v3's encoder walk (`encode.go` `node`) and
 * emitter states (`yaml_emitter_emit_block_mapping_key`, `..._value`, `..._block_sequence_item`,
 * the document states, the empty flow collections) run as one recursion over the node tree, with no
 * event objects, state dispatch or per-event copying. Every step is the state function's, in its
 * order, on the same `Emitter` fields and writing primitives, so the bytes are the full writer's.
 * What it does not handle (anchors, aliases, explicit tags, flow collections holding collections,
 * complex keys, nesting deeper than `MAX_DEPTH`) makes it give up: `emitDirect` returns undefined and the
 * caller writes the document through the event machine.
 */

import { Kind, Style, YNode } from "../node.js";
import {
  A_BLOCK,
  A_BLOCK_PLAIN,
  A_FLOW_PLAIN,
  A_MULTILINE,
  A_SINGLE,
  analyzeBlock,
  analyzeScalar,
  analyzeSingle,
} from "./analyze.js";
import { moveKeyLineComment, valueIndicator } from "./block.js";
import { processFootComment, processHeadComment, processLineComment } from "./comments.js";
import { askedStyle, eventTag, SS } from "./events.js";
import { closeFlowMapping, closeFlowSequence, hasPendingTrail, openFlow } from "./flow.js";
import { processScalar, scalarKeyFits, utf8Length } from "./node.js";
import {
  type EmitOptions,
  Emitter,
  emittedText,
  flushLarge,
  increaseIndent,
  popIndent,
  popState,
  putBreak,
  S,
  writeIndent,
  writeIndicator,
} from "./output.js";

/** Collections nested deeper than this go through the event machine (as they did before). */
const MAX_DEPTH = 200;

/** Thrown (one shared value) when the direct way meets a node it does not write. */
const GIVE_UP = new Error("not written directly");

/**
 * One document written the direct way, or undefined when it holds something the direct way leaves
 * to the event machine. Same options and output as `emitDocument`.
 */
export function emitDirect(doc: YNode, options: EmitOptions): string | undefined {
  const root = doc.kind === Kind.Document ? doc : new YNode(Kind.Document, "", "", [doc]);
  if (root.content.length !== 1) return undefined;
  const em = new Emitter(null, options);
  try {
    writeDocument(em, root);
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  }
  return emittedText(em);
}

/** The per-event reset and comments of yaml.v3's `yaml_emitter_analyze_event` (no anchor, no tag). */
function analyzeComments(em: Emitter, head: string, line: string, foot: string, tail: string): void {
  em.value = "";
  if (head.length > 0) em.headComment = head;
  if (line.length > 0) em.lineComment = line;
  if (foot.length > 0) em.footComment = foot;
  if (tail.length > 0) em.tailComment = tail;
}

/**
 * A node's first event analysed (`yaml_emitter_analyze_event`): its comments, and for a scalar its
 * text, analysis and asked style (returned; -1 for a collection). Gives up on what is not handled.
 */
function analyzeEnter(em: Emitter, n: YNode, tail: string, noFoot: boolean): number {
  if (n.anchor.length > 0) throw GIVE_UP;
  const kind = n.kind;
  if (kind === Kind.Scalar) {
    const tag = eventTag(n);
    if (tag.length > 0 && tag !== "\0") throw GIVE_UP;
    analyzeComments(em, n.headComment, n.lineComment, noFoot ? "" : n.footComment, tail);
    const v = n.value;
    em.value = v;
    const asked = askedStyle(n, tag === "\0");
    // Outside a key the style asked decides which bits of the analysis its style selection reads:
    // `block_allowed` for a block scalar, `single_quoted_allowed` for single quotes, none for double.
    if (noFoot || asked === SS.Plain) em.analysis = analyzeScalar(v);
    else if (asked === SS.Double) em.analysis = 0;
    else if (asked === SS.Single) em.analysis = analyzeSingle(v);
    else em.analysis = analyzeBlock(v);
    return asked;
  }
  if (kind !== Kind.Mapping && kind !== Kind.Sequence) throw GIVE_UP;
  if (eventTag(n).length > 0) throw GIVE_UP;
  analyzeComments(em, n.headComment, "", "", kind === Kind.Mapping ? tail : "");
  return -1;
}

/** Whether no comment waits to be written (what the short ways below need). */
function nothingPending(em: Emitter): boolean {
  return (
    (em.headComment.length |
      em.lineComment.length |
      em.footComment.length |
      em.tailComment.length |
      em.keyLineComment.length) ===
    0
  );
}

/**
 * Whether yaml.v3 writes a scalar plain on one line with nothing around it: no comments, anchor,
 * tag or style asked, a non-empty one-line text its analysis allows plain in block context.
 * Such a node's events come to `put(text)` after the indicator and its space.
 */
function plainLine(n: YNode): boolean {
  if (n.kind !== Kind.Scalar || n.style !== 0 || n.anchor.length > 0) return false;
  if ((n.headComment.length | n.lineComment.length | n.footComment.length) !== 0) return false;
  const v = n.value;
  if (v.length === 0) return false;
  const quick = plainInBlock(v);
  if (quick === 0) return false;
  if (quick < 0 && (analyzeScalar(v) & (A_MULTILINE | A_BLOCK_PLAIN)) !== A_BLOCK_PLAIN) return false;
  return eventTag(n).length === 0;
}

/**
 * yaml.v3's analysis asked one question for a printable-ASCII text: may it be written plain in block
 * context (`block_plain_allowed`) — 1 yes, 0 no; -1 for any other character (ask `analyzeScalar`).
 * Printable ASCII has no break, tab or special character, so only the edges' spaces, `---`/`...`,
 * the first character's indicators, `: ` / a final `:` and ` #` matter.
 */
function plainInBlock(v: string): number {
  const n = v.length;
  const c0 = v.charCodeAt(0);
  if (c0 <= 32 || c0 >= 127) return c0 === 32 ? 0 : -1;
  const c1 = n > 1 ? v.charCodeAt(1) : 32;
  if (FIRST_BLOCK_IND[c0] === 1 || (FIRST_BLOCK_IND[c0] === 2 && c1 === 32)) return 0;
  if (n >= 3 && (c0 === 45 || c0 === 46) && c1 === c0 && v.charCodeAt(2) === c0) return 0;
  let prev = c0;
  for (let i = 1; i < n; i++) {
    const c = v.charCodeAt(i);
    if (c <= 32 || c >= 127) {
      if (c !== 32) return -1;
      if (i === n - 1) return 0;
    } else if (c === 58) {
      if (i === n - 1 || v.charCodeAt(i + 1) === 32) return 0;
    } else if (c === 35 && prev === 32) return 0;
    prev = c;
  }
  return 1;
}

/** First characters that are block indicators always (1) or before a space or the end (2). */
const FIRST_BLOCK_IND = (() => {
  const t = new Uint8Array(128);
  for (const c of "#,[]{}&*!|>'\"%@`") t[c.charCodeAt(0)] = 1;
  for (const c of "?:-") t[c.charCodeAt(0)] = 2;
  return t;
})();

/** A plain scalar's text (after its indicator) put on the line, and the emitter's state as after it. */
function plainWritten(em: Emitter, text: string, mapping: boolean, simpleKey: boolean): void {
  em.out += text;
  em.column += text.length;
  em.whitespace = false;
  em.indention = false;
  em.mappingContext = mapping;
  em.simpleKeyContext = simpleKey;
  em.scalarStyle = SS.Plain;
}

/** yaml.v3 encoder's `empty` collection: a flow `{}` or `[]`. */
function isEmpty(n: YNode): boolean {
  return n.kind === Kind.Mapping ? n.content.length < 2 : n.content.length === 0;
}

/** yaml.v3's `yaml_emitter_select_scalar_style` for an implicit, untagged scalar. */
function selectStyle(em: Emitter, asked: number): SS {
  let style = asked as SS;
  const a = em.analysis;
  const flow = em.flowLevel > 0;
  if (em.simpleKeyContext && a & A_MULTILINE) style = SS.Double;
  if (style === SS.Plain) {
    if (!(a & (flow ? A_FLOW_PLAIN : A_BLOCK_PLAIN))) style = SS.Single;
    if (em.value.length === 0 && (flow || em.simpleKeyContext)) style = SS.Single;
  }
  if (style === SS.Single && !(a & A_SINGLE)) style = SS.Double;
  if ((style === SS.Literal || style === SS.Folded) && (!(a & A_BLOCK) || flow || em.simpleKeyContext))
    style = SS.Double;
  return style;
}

/**
 * yaml.v3's `yaml_emitter_emit_node` on an analysed node: a scalar written (state popped), a
 * collection's first state set. The caller then finishes its own state function and, for a
 * collection, calls `writeBody`.
 */
function emitNode(em: Emitter, n: YNode, asked: number, mapping: boolean, simpleKey: boolean): void {
  em.mappingContext = mapping;
  em.simpleKeyContext = simpleKey;
  if (asked >= 0) {
    em.scalarStyle = selectStyle(em, asked);
    increaseIndent(em, true, false);
    processScalar(em);
    popIndent(em);
    popState(em);
    return;
  }
  const flow = isEmpty(n) || (n.style & Style.Flow) !== 0;
  if (n.kind === Kind.Sequence) em.state = flow ? S.FlowSequenceFirstItem : S.BlockSequenceFirstItem;
  else em.state = flow ? S.FlowMappingFirstKey : S.BlockMappingFirstKey;
}

/** The events after a collection's start (its children and end) through the states they reach. */
function writeBody(em: Emitter, n: YNode, noFoot: boolean, depth: number): void {
  if (depth > MAX_DEPTH) throw GIVE_UP;
  const mapping = n.kind === Kind.Mapping;
  if (isEmpty(n)) {
    analyzeComments(em, "", n.lineComment, noFoot ? "" : n.footComment, "");
    if (mapping) emptyMapping(em);
    else emptySequence(em);
    return;
  }
  if ((n.style & Style.Flow) !== 0) {
    if (mapping) writeFlowMapping(em, n, noFoot);
    else writeFlowSequence(em, n, noFoot);
  } else if (mapping) writeMapping(em, n, noFoot, depth);
  else writeSequence(em, n, noFoot, depth);
}

/**
 * A flow sequence of scalars (`yaml_emitter_emit_flow_sequence_item` on each item and the end):
 * `[a, b]`, a `,` before an item unless a comment closed the previous one.
 */
function writeFlowSequence(em: Emitter, s: YNode, noFoot: boolean): void {
  const c = s.content;
  openFlow(em, "[");
  let trail = false;
  for (let i = 0; i < c.length; i++) {
    const x = c[i];
    if (x.kind !== Kind.Scalar) throw GIVE_UP;
    const asked = analyzeEnter(em, x, "", false);
    flowEntryStart(em, i > 0 && !trail);
    trail = hasPendingTrail(em);
    em.states.push(trail ? S.FlowSequenceTrailItem : S.FlowSequenceItem);
    emitNode(em, x, asked, false, false);
    flowEntryEnd(em);
  }
  analyzeComments(em, "", s.lineComment, noFoot ? "" : s.footComment, "");
  closeFlowSequence(em);
}

/**
 * A flow mapping of scalar keys and values (`yaml_emitter_emit_flow_mapping_key` / `_value`, then
 * the end): `{a: b, c: d}`.
 */
function writeFlowMapping(em: Emitter, m: YNode, noFoot: boolean): void {
  const c = m.content;
  openFlow(em, "{");
  let trail = false;
  let tail = "";
  for (let i = 0; i + 1 < c.length; i += 2) {
    const k = c[i];
    const v = c[i + 1];
    if (k.kind !== Kind.Scalar || v.kind !== Kind.Scalar) throw GIVE_UP;
    const keyAsked = analyzeEnter(em, k, tail, true);
    tail = k.footComment;
    flowEntryStart(em, i > 0 && !trail);
    const simple = scalarKeyFits(em);
    if (!simple) writeIndicator(em, "?", true, false, false);
    em.states.push(simple ? S.FlowMappingSimpleValue : S.FlowMappingValue);
    emitNode(em, k, keyAsked, true, simple);
    const asked = analyzeEnter(em, v, "", false);
    writeIndicator(em, ":", !simple, false, false);
    trail = hasPendingTrail(em);
    em.states.push(trail ? S.FlowMappingTrailKey : S.FlowMappingKey);
    emitNode(em, v, asked, true, false);
    flowEntryEnd(em);
  }
  analyzeComments(em, "", m.lineComment, noFoot ? "" : m.footComment, tail);
  const pending = em.headComment.length + em.footComment.length + em.tailComment.length > 0;
  if (pending && !trail) writeIndicator(em, ",", false, false, false);
  closeFlowMapping(em);
}

/** A flow entry's start: the `,` after the previous entry (`comma`), its head comment, the indent. */
function flowEntryStart(em: Emitter, comma: boolean): void {
  if (comma) writeIndicator(em, ",", false, false, false);
  processHeadComment(em);
  if (em.column === 0) writeIndent(em);
}

/** A flow entry's end: its `,` before a comment that waits, then its line and foot comments. */
function flowEntryEnd(em: Emitter): void {
  if (hasPendingTrail(em)) writeIndicator(em, ",", false, false, false);
  processLineComment(em, false);
  processFootComment(em);
}

/** yaml.v3's `yaml_emitter_emit_flow_mapping_key` (first) on MAPPING-END: `{}`. */
function emptyMapping(em: Emitter): void {
  openFlow(em, "{");
  closeFlowMapping(em);
}

/** yaml.v3's `yaml_emitter_emit_flow_sequence_item` (first) on SEQUENCE-END: `[]`. */
function emptySequence(em: Emitter): void {
  openFlow(em, "[");
  closeFlowSequence(em);
}

/** A block mapping's keys and values (`yaml_emitter_emit_block_mapping_key` / `_value`), then its end. */
function writeMapping(em: Emitter, m: YNode, noFoot: boolean, depth: number): void {
  const c = m.content;
  let tail = "";
  let i = 0;
  for (; i + 1 < c.length; i += 2) {
    const k = c[i];
    const v = c[i + 1];
    if (tail.length === 0 && nothingPending(em)) {
      const kv = k.value;
      if (plainLine(k) && (3 * kv.length <= 128 || utf8Length(kv) <= 128)) {
        // The key's and (when plain too) the value's events: `key` or `key: value` on the line.
        if (i === 0) increaseIndent(em, false, false);
        writeIndent(em);
        if (plainLine(v)) {
          const vv = v.value;
          plainWritten(em, `${kv}: ${vv}`, true, false);
          continue;
        }
        plainWritten(em, kv, true, true);
        writeValue(em, v, true, depth);
        continue;
      }
    }
    if (k.kind !== Kind.Scalar) throw GIVE_UP;
    const keyAsked = analyzeEnter(em, k, tail, true);
    tail = k.footComment;
    if (i === 0) increaseIndent(em, false, false);
    processHeadComment(em);
    writeIndent(em);
    if (em.lineComment.length > 0) {
      em.keyLineComment = em.lineComment;
      em.lineComment = "";
    }
    const simple = scalarKeyFits(em);
    if (simple) em.states.push(S.BlockMappingSimpleValue);
    else {
      writeIndicator(em, "?", true, false, true);
      em.states.push(S.BlockMappingValue);
    }
    emitNode(em, k, keyAsked, true, simple);
    writeValue(em, v, simple, depth);
  }
  analyzeComments(em, "", m.lineComment, noFoot ? "" : m.footComment, tail);
  processHeadComment(em);
  popIndent(em);
  popState(em);
}

/** yaml.v3's `yaml_emitter_emit_block_mapping_value` on a value's events (`simple`: after a simple key). */
function writeValue(em: Emitter, v: YNode, simple: boolean, depth: number): void {
  const asked = analyzeEnter(em, v, "", false);
  valueIndicator(em, simple);
  if (em.keyLineComment.length > 0)
    moveKeyLineComment(em, asked >= 0, asked < 0 && (v.style & Style.Flow) === 0);
  em.states.push(S.BlockMappingKey);
  emitNode(em, v, asked, true, false);
  processLineComment(em, false);
  processFootComment(em);
  if (asked < 0) {
    writeBody(em, v, false, depth + 1);
    flushLarge(em);
  }
}

/** A block sequence's items (`yaml_emitter_emit_block_sequence_item`), then its end. */
function writeSequence(em: Emitter, s: YNode, noFoot: boolean, depth: number): void {
  const c = s.content;
  for (let i = 0; i < c.length; i++) {
    const x = c[i];
    if (nothingPending(em) && plainLine(x)) {
      // The item's events: `- text` on the line.
      if (i === 0) {
        const compact = em.mappingContext && (em.column === 0 || !em.indention) && em.compactSeq;
        increaseIndent(em, false, false, compact);
      }
      writeIndent(em);
      plainWritten(em, `- ${x.value}`, false, false);
      continue;
    }
    const asked = analyzeEnter(em, x, "", false);
    if (i === 0) {
      const compact = em.mappingContext && (em.column === 0 || !em.indention) && em.compactSeq;
      increaseIndent(em, false, false, compact);
    }
    processHeadComment(em);
    writeIndent(em);
    writeIndicator(em, "-", true, false, true);
    em.states.push(S.BlockSequenceItem);
    emitNode(em, x, asked, false, false);
    processLineComment(em, false);
    processFootComment(em);
    if (asked < 0) {
      writeBody(em, x, false, depth + 1);
      flushLarge(em);
    }
  }
  analyzeComments(em, "", s.lineComment, noFoot ? "" : s.footComment, "");
  popIndent(em);
  popState(em);
}

/** yaml.v3's document states on an implicit document (kyaml writes no `---`). */
function writeDocument(em: Emitter, root: YNode): void {
  analyzeComments(em, root.headComment, "", "", "");
  em.first = false;
  if (em.headComment.length > 0) {
    processHeadComment(em);
    putBreak(em);
  }
  const c = root.content[0];
  const asked = analyzeEnter(em, c, "", false);
  em.states.push(S.DocumentEnd);
  processHeadComment(em);
  emitNode(em, c, asked, false, false);
  processLineComment(em, false);
  processFootComment(em);
  if (asked < 0) writeBody(em, c, false, 1);
  analyzeComments(em, "", "", root.footComment, "");
  em.footIndent = 0;
  processFootComment(em);
  em.footIndent = -1;
  writeIndent(em);
}
