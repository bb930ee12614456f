/**
 * One node of the writer: yaml.v3's `yaml_emitter_analyze_event`, `yaml_emitter_emit_node`,
 * `yaml_emitter_check_simple_key`, `yaml_emitter_select_scalar_style` and the anchor, tag and scalar
 * processors (emitterc.go).
 */
import { A_BLOCK, A_BLOCK_PLAIN, A_FLOW_PLAIN, A_MULTILINE, A_SINGLE, analyzeScalar } from "./analyze.js";
import { E, type Ev, SS } from "./events.js";
import { type Emitter, increaseIndent, popIndent, popState, put, S, writeIndicator } from "./output.js";
import { writeDouble, writeFolded, writeLiteral, writePlain, writeSingle } from "./scalars.js";

/** yaml.v3's `yaml_emitter_analyze_event`: the event's comments, anchor, tag and scalar analysis. */
export function analyzeEvent(em: Emitter, e: Ev): void {
  em.anchor = "";
  em.tagHandle = "";
  em.tagSuffix = "";
  em.value = "";
  if (e.head.length > 0) em.headComment = e.head;
  if (e.line.length > 0) em.lineComment = e.line;
  if (e.foot.length > 0) em.footComment = e.foot;
  if (e.tail.length > 0) em.tailComment = e.tail;
  switch (e.type) {
    case E.Alias:
      em.anchor = e.anchor;
      em.alias = true;
      break;
    case E.Scalar:
      if (e.anchor) {
        em.anchor = e.anchor;
        em.alias = false;
      }
      if (e.tag.length > 0 && !e.implicit && !e.quotedImplicit) analyzeTag(em, e.tag);
      em.value = e.value;
      em.analysis = analyzeScalar(e.value);
      break;
    case E.SequenceStart:
    case E.MappingStart:
      if (e.anchor) {
        em.anchor = e.anchor;
        em.alias = false;
      }
      if (e.tag.length > 0 && !e.implicit) analyzeTag(em, e.tag);
      break;
  }
}

const TAG_PREFIX = "tag:yaml.org,2002:";

/** yaml.v3's `yaml_emitter_analyze_tag` with the default tag directives (`!` and `!!`). */
function analyzeTag(em: Emitter, tag: string): void {
  if (tag.startsWith("!")) {
    em.tagHandle = "!";
    em.tagSuffix = tag.slice(1);
  } else if (tag.startsWith(TAG_PREFIX)) {
    em.tagHandle = "!!";
    em.tagSuffix = tag.slice(TAG_PREFIX.length);
  } else em.tagSuffix = tag;
}

/** yaml.v3's `yaml_emitter_emit_node`: a scalar or alias written, a collection's first state set. */
export function emitNode(em: Emitter, e: Ev, mapping: boolean, simpleKey: boolean): void {
  em.mappingContext = mapping;
  em.simpleKeyContext = simpleKey;
  switch (e.type) {
    case E.Alias:
      processAnchor(em);
      popState(em);
      return;
    case E.Scalar:
      selectScalarStyle(em, e);
      processAnchor(em);
      processTag(em);
      increaseIndent(em, true, false);
      processScalar(em);
      popIndent(em);
      popState(em);
      return;
    case E.SequenceStart:
      processAnchor(em);
      processTag(em);
      em.state = em.flowLevel > 0 || e.flow || e.empty ? S.FlowSequenceFirstItem : S.BlockSequenceFirstItem;
      return;
    case E.MappingStart:
      processAnchor(em);
      processTag(em);
      em.state = em.flowLevel > 0 || e.flow || e.empty ? S.FlowMappingFirstKey : S.BlockMappingFirstKey;
      return;
    default:
      throw new Error("expected SCALAR, SEQUENCE-START, MAPPING-START, or ALIAS");
  }
}

/** yaml.v3's `yaml_emitter_check_simple_key`: whether the key fits `key: value` (128 bytes at most). */
export function checkSimpleKey(em: Emitter): boolean {
  const e = em.event;
  let length = 0;
  switch (e.type) {
    case E.Alias:
      length += em.anchor.length;
      break;
    case E.Scalar:
      return scalarKeyFits(em);
    case E.SequenceStart:
    case E.MappingStart:
      if (!e.empty) return false;
      length += em.anchor.length + em.tagHandle.length + em.tagSuffix.length;
      break;
    default:
      return false;
  }
  return length <= 128;
}

/** `yaml_emitter_check_simple_key` on the current scalar: one line, 128 bytes at most with anchor and tag. */
export function scalarKeyFits(em: Emitter): boolean {
  if (em.analysis & A_MULTILINE) return false;
  const length = em.anchor.length + em.tagHandle.length + em.tagSuffix.length;
  // At most 3 UTF-8 bytes per code unit: a short key needs no count.
  return length + (length + 3 * em.value.length <= 128 ? em.value.length : utf8Length(em.value)) <= 128;
}

/** The UTF-8 length yaml.v3 counts (a lone surrogate as 2 bytes). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && !(c >= 0xd800 && c <= 0xdfff) ? 2 : 1;
  }
  return n;
}

/** yaml.v3's `yaml_emitter_select_scalar_style`. */
function selectScalarStyle(em: Emitter, e: Ev): void {
  const noTag = em.tagHandle.length === 0 && em.tagSuffix.length === 0;
  if (noTag && !e.implicit && !e.quotedImplicit)
    throw new Error("neither tag nor implicit flags are specified");
  let style = e.style === SS.Any ? SS.Plain : e.style;
  const a = em.analysis;
  if (em.simpleKeyContext && a & A_MULTILINE) style = SS.Double;
  if (style === SS.Plain) {
    if ((em.flowLevel > 0 && !(a & A_FLOW_PLAIN)) || (em.flowLevel === 0 && !(a & A_BLOCK_PLAIN)))
      style = SS.Single;
    if (em.value.length === 0 && (em.flowLevel > 0 || em.simpleKeyContext)) style = SS.Single;
    if (noTag && !e.implicit) style = SS.Single;
  }
  if (style === SS.Single && !(a & A_SINGLE)) style = SS.Double;
  if (
    (style === SS.Literal || style === SS.Folded) &&
    (!(a & A_BLOCK) || em.flowLevel > 0 || em.simpleKeyContext)
  ) {
    style = SS.Double;
  }
  if (noTag && !e.quotedImplicit && style !== SS.Plain) em.tagHandle = "!";
  em.scalarStyle = style;
}

/** yaml.v3's `yaml_emitter_process_anchor`: `&name` or `*name`. */
function processAnchor(em: Emitter): void {
  if (em.anchor.length === 0) return;
  writeIndicator(em, em.alias ? "*" : "&", true, false, false);
  put(em, em.anchor);
  em.whitespace = false;
  em.indention = false;
}

/** yaml.v3's `yaml_emitter_process_tag`: `!!suffix`, `!suffix` or `!<verbatim>`. */
function processTag(em: Emitter): void {
  if (em.tagHandle.length === 0 && em.tagSuffix.length === 0) return;
  if (em.tagHandle.length > 0) {
    if (!em.whitespace) put(em, " ");
    put(em, em.tagHandle);
    em.whitespace = false;
    em.indention = false;
    if (em.tagSuffix.length > 0) writeTagContent(em, em.tagSuffix);
  } else {
    writeIndicator(em, "!<", true, false, false);
    writeTagContent(em, em.tagSuffix);
    writeIndicator(em, ">", false, false, false);
  }
}

const TAG_CHAR = /[0-9A-Za-z_\-;/?:@&=+$,.~*'()[\]]/;

/** yaml.v3's `yaml_emitter_write_tag_content`: URI characters as they are, the rest `%XX`. */
function writeTagContent(em: Emitter, value: string): void {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const ch = String.fromCharCode(byte);
    if (TAG_CHAR.test(ch)) out += ch;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  put(em, out);
  em.whitespace = false;
  em.indention = false;
}

/** yaml.v3's `yaml_emitter_process_scalar`: the writer of the selected style. */
export function processScalar(em: Emitter): void {
  const v = em.value;
  switch (em.scalarStyle) {
    case SS.Plain:
      writePlain(em, v, (em.analysis & A_MULTILINE) !== 0);
      return;
    case SS.Single:
      writeSingle(em, v);
      return;
    case SS.Double:
      writeDouble(em, v);
      return;
    case SS.Literal:
      writeLiteral(em, v);
      return;
    default:
      writeFolded(em, v);
      return;
  }
}
