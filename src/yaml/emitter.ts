/**
 * The YAML writer: a node tree to text exactly as kyaml writes it — yaml.v3's encoder (`encode.go`
 * node walk) feeding yaml.v3's emitter (`emitterc.go` state machine) in kyaml's fork, with an
 * indent of 2, no line folding, and kyaml's compact sequence indentation when asked.
 */
import { Kind, Style, type YNode } from "./node.js";
import { longTag, resolvePlain, STR, shortTag } from "./resolve.js";

enum E {
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

enum SS {
  Any = 0,
  Plain = 1,
  Single = 2,
  Double = 3,
  Literal = 4,
  Folded = 5,
}

interface Ev {
  type: E;
  anchor: string;
  tag: string;
  value: string;
  implicit: boolean;
  quotedImplicit: boolean;
  style: number;
  flow: boolean;
  head: string;
  line: string;
  foot: string;
  tail: string;
}

enum S {
  DocumentStart,
  DocumentContent,
  DocumentEnd,
  FlowSequenceFirstItem,
  FlowSequenceTrailItem,
  FlowSequenceItem,
  FlowMappingFirstKey,
  FlowMappingTrailKey,
  FlowMappingKey,
  FlowMappingSimpleValue,
  FlowMappingValue,
  BlockSequenceFirstItem,
  BlockSequenceItem,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingSimpleValue,
  BlockMappingValue,
  End,
}

function mk(type: E): Ev {
  return {
    type,
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
    tail: "",
  };
}

/** yaml.v3's encoder `node` walk: the events of one document node. */
function encodeEvents(node: YNode, tail: string, out: Ev[]): void {
  const { tag, forceQuoting } = eventTag(node);
  switch (node.kind) {
    case Kind.Document:
      encodeDocument(node, out);
      return;
    case Kind.Sequence:
      encodeSequence(node, tag, out);
      return;
    case Kind.Mapping:
      encodeMapping(node, tag, tail, out);
      return;
    case Kind.Alias: {
      const e = mk(E.Alias);
      e.anchor = node.value;
      e.head = node.headComment;
      e.line = node.lineComment;
      e.foot = node.footComment;
      out.push(e);
      return;
    }
    default:
      out.push(scalarEvent(node, tag, tail, forceQuoting));
  }
}

/** The tag an event carries ("" when implicit) and whether a string must be quoted to stay one. */
function eventTag(node: YNode): { tag: string; forceQuoting: boolean } {
  let tag = node.tag;
  const stag = shortTag(tag);
  let forceQuoting = false;
  if (tag !== "" && (node.style & Style.Tagged) === 0) {
    if (node.kind === Kind.Scalar) {
      if (
        stag === STR &&
        (node.style & (Style.SingleQuoted | Style.DoubleQuoted | Style.Literal | Style.Folded)) !== 0
      ) {
        tag = "";
      } else {
        const rtag = resolvePlain(node.value);
        if (rtag === stag) tag = "";
        else if (stag === STR) {
          tag = "";
          forceQuoting = true;
        }
      }
    } else {
      const rtag = node.kind === Kind.Mapping ? "!!map" : node.kind === Kind.Sequence ? "!!seq" : "";
      if (rtag === stag) tag = "";
    }
  }
  return { tag, forceQuoting };
}

function encodeDocument(node: YNode, out: Ev[]): void {
  const e = mk(E.DocumentStart);
  e.implicit = true;
  e.head = node.headComment;
  out.push(e);
  for (const c of node.content) encodeEvents(c, "", out);
  const end = mk(E.DocumentEnd);
  end.implicit = true;
  end.foot = node.footComment;
  out.push(end);
}

function encodeSequence(node: YNode, tag: string, out: Ev[]): void {
  const e = mk(E.SequenceStart);
  e.anchor = node.anchor;
  e.tag = longTag(tag);
  e.implicit = tag === "";
  e.flow = (node.style & Style.Flow) !== 0;
  e.head = node.headComment;
  out.push(e);
  for (const c of node.content) encodeEvents(c, "", out);
  const end = mk(E.SequenceEnd);
  end.line = node.lineComment;
  end.foot = node.footComment;
  out.push(end);
}

/** A mapping's events: each key's foot comment becomes the next key's tail (yaml.v3's encoder). */
function encodeMapping(node: YNode, tag: string, tail: string, out: Ev[]): void {
  const e = mk(E.MappingStart);
  e.anchor = node.anchor;
  e.tag = longTag(tag);
  e.implicit = tag === "";
  e.flow = (node.style & Style.Flow) !== 0;
  e.tail = tail;
  e.head = node.headComment;
  out.push(e);
  let t = "";
  const c = node.content;
  for (let i = 0; i + 1 < c.length; i += 2) {
    const k = c[i];
    const foot = k.footComment;
    if (foot !== "") {
      k.footComment = "";
      encodeEvents(k, t, out);
      k.footComment = foot;
    } else encodeEvents(k, t, out);
    t = foot;
    encodeEvents(c[i + 1], "", out);
  }
  const end = mk(E.MappingEnd);
  end.tail = t;
  end.line = node.lineComment;
  end.foot = node.footComment;
  out.push(end);
}

function scalarEvent(node: YNode, tag: string, tail: string, forceQuoting: boolean): Ev {
  const value = node.value;
  let style = SS.Plain;
  const st = node.style;
  if (st & Style.DoubleQuoted) style = SS.Double;
  else if (st & Style.SingleQuoted) style = SS.Single;
  else if (st & Style.Literal) style = SS.Literal;
  else if (st & Style.Folded) style = SS.Folded;
  else if (value.includes("\n")) style = SS.Literal;
  else if (forceQuoting) style = SS.Double;
  const e = mk(E.Scalar);
  e.anchor = node.anchor;
  e.implicit = tag === "";
  e.quotedImplicit = tag === "";
  e.tag = tag === "" ? "" : longTag(tag);
  e.value = value;
  e.style = style;
  e.head = node.headComment;
  e.line = node.lineComment;
  e.foot = node.footComment;
  e.tail = tail;
  return e;
}

function isSpace(c: number): boolean {
  return c === 32;
}
function isBreakCode(c: number): boolean {
  return c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;
}
function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}

interface Analysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

/** yaml.v3's `yaml_emitter_analyze_scalar` (unicode output allowed). */
const SIMPLE: Analysis = Object.freeze({
  multiline: false,
  flowPlain: true,
  blockPlain: true,
  single: true,
  block: true,
});
const EMPTY: Analysis = Object.freeze({
  multiline: false,
  flowPlain: false,
  blockPlain: true,
  single: true,
  block: false,
});

/** Whether every character is a letter, digit, `-`, `.`, `/` or `_` and the first a letter or digit. */
function isSimple(value: string): boolean {
  const n = value.length;
  const c0 = value.charCodeAt(0);
  if (!((c0 >= 48 && c0 <= 57) || (c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122))) return false;
  for (let i = 1; i < n; i++) {
    const c = value.charCodeAt(i);
    if (
      (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      c === 45 ||
      c === 46 ||
      c === 47 ||
      c === 95
    )
      continue;
    return false;
  }
  return n < 3 || !(value.startsWith("---") || value.startsWith("..."));
}

/** Printable ASCII characters that set no flag of `analyzeScalar` after the first position. */
const ORDINARY = (() => {
  const t = new Uint8Array(128);
  for (let c = 0x21; c <= 0x7e; c++) t[c] = 1;
  for (const c of ",?[]{}:#") t[c.charCodeAt(0)] = 0;
  return t;
})();

// What yaml.v3's `yaml_emitter_analyze_scalar` notices in a scalar's text, as bits.
const F_BLOCK_IND = 1;
const F_FLOW_IND = 2;
const F_LINE_BREAKS = 4;
const F_SPECIAL = 8;
const F_TABS = 16;
const F_LEADING_SPACE = 32;
const F_LEADING_BREAK = 64;
const F_TRAILING_SPACE = 128;
const F_TRAILING_BREAK = 256;
const F_BREAK_SPACE = 512;
const F_SPACE_BREAK = 1024;
const F_BOTH_IND = F_BLOCK_IND | F_FLOW_IND;

/** Indicator bits of the first character (`followed`: whitespace or the end comes next). */
function firstIndicators(cp: number, followed: boolean): number {
  switch (cp) {
    case 35:
    case 44:
    case 91:
    case 93:
    case 123:
    case 125:
    case 38:
    case 42:
    case 33:
    case 124:
    case 62:
    case 39:
    case 34:
    case 37:
    case 64:
    case 96:
      return F_BOTH_IND;
    case 63:
    case 58:
      return followed ? F_BOTH_IND : F_FLOW_IND;
    case 45:
      return followed ? F_BOTH_IND : 0;
    default:
      return 0;
  }
}

/** Indicator bits of a later character (`preceded`: whitespace came before it). */
function innerIndicators(cp: number, followed: boolean, preceded: boolean): number {
  switch (cp) {
    case 44:
    case 63:
    case 91:
    case 93:
    case 123:
    case 125:
      return F_FLOW_IND;
    case 58:
      return followed ? F_BOTH_IND : F_FLOW_IND;
    case 35:
      return preceded ? F_BOTH_IND : 0;
    default:
      return 0;
  }
}

/** The analysis bits of a scalar's text (yaml.v3's character loop). */
function scalarFlags(value: string): number {
  const n = value.length;
  let f = n >= 3 && (value.startsWith("---") || value.startsWith("...")) ? F_BOTH_IND : 0;
  let previousSpace = false;
  let previousBreak = false;
  let preceded = true;
  for (let i = 0; i < n; ) {
    const c = value.charCodeAt(i);
    if (i > 0 && c < 128 && ORDINARY[c] === 1) {
      // A printable ASCII character without meaning inside a scalar: only resets the run flags.
      previousSpace = false;
      previousBreak = false;
      preceded = false;
      i++;
      continue;
    }
    const cp = c >= 0xd800 && c <= 0xdbff ? value.codePointAt(i)! : c;
    const w = cp > 0xffff ? 2 : 1;
    const nx = i + w < n ? value.charCodeAt(i + w) : -1;
    const followed = i + w >= n || nx === 32 || nx === 9;
    f |= i === 0 ? firstIndicators(cp, followed) : innerIndicators(cp, followed, preceded);
    if (cp === 9) f |= F_TABS;
    else if (!isPrintable(cp)) f |= F_SPECIAL;
    const breakCode = isBreakCode(cp);
    if (cp === 32) {
      if (i === 0) f |= F_LEADING_SPACE;
      if (i + w === n) f |= F_TRAILING_SPACE;
      if (previousBreak) f |= F_BREAK_SPACE;
    } else if (breakCode) {
      f |= F_LINE_BREAKS;
      if (i === 0) f |= F_LEADING_BREAK;
      if (i + w === n) f |= F_TRAILING_BREAK;
      if (previousSpace) f |= F_SPACE_BREAK;
    }
    previousSpace = cp === 32;
    previousBreak = breakCode;
    preceded = cp === 32 || cp === 9 || breakCode || cp === 0;
    i += w;
  }
  return f;
}

/** yaml.v3's analysis of a scalar: which styles may write it. */
function analyzeScalar(value: string): Analysis {
  if (value.length === 0) return EMPTY;
  if (isSimple(value)) return SIMPLE;
  const f = scalarFlags(value);
  const edges = F_LEADING_SPACE | F_LEADING_BREAK | F_TRAILING_SPACE | F_TRAILING_BREAK;
  const noPlain = edges | F_BREAK_SPACE | F_SPACE_BREAK | F_TABS | F_SPECIAL | F_LINE_BREAKS;
  return {
    multiline: (f & F_LINE_BREAKS) !== 0,
    flowPlain: (f & (noPlain | F_FLOW_IND)) === 0,
    blockPlain: (f & (noPlain | F_BLOCK_IND)) === 0,
    single: (f & (F_BREAK_SPACE | F_SPACE_BREAK | F_TABS | F_SPECIAL)) === 0,
    block: (f & (F_TRAILING_SPACE | F_SPACE_BREAK | F_SPECIAL)) === 0,
  };
}

const DEFAULT_TAGS: Array<[string, string]> = [
  ["!", "!"],
  ["!!", "tag:yaml.org,2002:"],
];

/** Options of the writer. */
export interface EmitOptions {
  /** kyaml's compact sequence indentation (`- ` at the parent key's column); default wide. */
  compactSeq?: boolean;
  /** Spaces per level (yaml.v3 `SetIndent`); kyaml uses 2. */
  indent?: number;
}

/** yaml.v3's emitter state machine writing into a string. */
class Emitter {
  out = "";
  private events: Ev[] = [];
  private head = 0;
  private state = S.DocumentStart;
  private states: S[] = [];
  private indent = -1;
  private indents: number[] = [];
  private flowLevel = 0;
  private bestIndent: number;
  private compactSeq: boolean;
  private column = 0;
  private whitespace = true;
  private indention = true;
  private footIndent = -1;
  private mappingContext = false;
  private simpleKeyContext = false;
  private headComment = "";
  private lineComment = "";
  private footComment = "";
  private tailComment = "";
  private keyLineComment = "";
  private anchor = "";
  private alias = false;
  private tagHandle = "";
  private tagSuffix = "";
  private value = "";
  private analysis: Analysis = analyzeScalar("");
  private scalarStyle = SS.Plain;
  private first = true;

  constructor(options: EmitOptions) {
    this.bestIndent = options.indent && options.indent >= 2 && options.indent <= 9 ? options.indent : 2;
    this.compactSeq = options.compactSeq === true;
  }

  run(events: Ev[]): void {
    this.events = events;
    for (this.head = 0; this.head < events.length; this.head++) {
      const e = events[this.head];
      this.analyzeEvent(e);
      this.machine(e);
    }
  }

  private put(s: string): void {
    this.out += s;
    this.column += s.length;
  }

  private putBreak(): void {
    this.out += "\n";
    this.column = 0;
    this.indention = true;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace))
      this.putBreak();
    if (this.footIndent === indent) this.putBreak();
    if (this.column < indent) {
      this.out += " ".repeat(indent - this.column);
      this.column = indent;
    }
    this.whitespace = true;
    this.footIndent = -1;
  }

  private writeIndicator(
    indicator: string,
    needWhitespace: boolean,
    isWhitespace: boolean,
    isIndention: boolean,
  ): void {
    if (needWhitespace && !this.whitespace) this.put(" ");
    this.put(indicator);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private increaseIndent(flow: boolean, indentless: boolean, compact = false): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? this.bestIndent : 0;
    else if (!indentless) {
      if (this.states[this.states.length - 1] === S.BlockSequenceItem) this.indent += 2;
      else this.indent = this.bestIndent * Math.floor((this.indent + this.bestIndent) / this.bestIndent);
      if (compact) this.indent -= 2;
    }
  }

  private analyzeEvent(e: Ev): void {
    this.anchor = "";
    this.tagHandle = "";
    this.tagSuffix = "";
    this.value = "";
    if (e.head.length > 0) this.headComment = e.head;
    if (e.line.length > 0) this.lineComment = e.line;
    if (e.foot.length > 0) this.footComment = e.foot;
    if (e.tail.length > 0) this.tailComment = e.tail;
    switch (e.type) {
      case E.Alias:
        this.anchor = e.anchor;
        this.alias = true;
        break;
      case E.Scalar:
        if (e.anchor) {
          this.anchor = e.anchor;
          this.alias = false;
        }
        if (e.tag.length > 0 && !e.implicit && !e.quotedImplicit) this.analyzeTag(e.tag);
        this.value = e.value;
        this.analysis = analyzeScalar(e.value);
        break;
      case E.SequenceStart:
      case E.MappingStart:
        if (e.anchor) {
          this.anchor = e.anchor;
          this.alias = false;
        }
        if (e.tag.length > 0 && !e.implicit) this.analyzeTag(e.tag);
        break;
    }
  }

  private analyzeTag(tag: string): void {
    for (const [handle, prefix] of DEFAULT_TAGS) {
      if (tag.startsWith(prefix) && (prefix !== "!" || true)) {
        this.tagHandle = handle;
        this.tagSuffix = tag.slice(prefix.length);
        return;
      }
    }
    this.tagSuffix = tag;
  }

  private machine(e: Ev): void {
    switch (this.state) {
      case S.DocumentStart:
        this.documentStart(e);
        return;
      case S.DocumentContent:
        this.documentContent(e);
        return;
      case S.DocumentEnd:
        this.documentEnd(e);
        return;
      case S.FlowSequenceFirstItem:
        this.flowSequenceItem(e, true, false);
        return;
      case S.FlowSequenceTrailItem:
        this.flowSequenceItem(e, false, true);
        return;
      case S.FlowSequenceItem:
        this.flowSequenceItem(e, false, false);
        return;
      case S.FlowMappingFirstKey:
        this.flowMappingKey(e, true, false);
        return;
      case S.FlowMappingTrailKey:
        this.flowMappingKey(e, false, true);
        return;
      case S.FlowMappingKey:
        this.flowMappingKey(e, false, false);
        return;
      case S.FlowMappingSimpleValue:
        this.flowMappingValue(e, true);
        return;
      case S.FlowMappingValue:
        this.flowMappingValue(e, false);
        return;
      case S.BlockSequenceFirstItem:
        this.blockSequenceItem(e, true);
        return;
      case S.BlockSequenceItem:
        this.blockSequenceItem(e, false);
        return;
      case S.BlockMappingFirstKey:
        this.blockMappingKey(e, true);
        return;
      case S.BlockMappingKey:
        this.blockMappingKey(e, false);
        return;
      case S.BlockMappingSimpleValue:
        this.blockMappingValue(e, true);
        return;
      case S.BlockMappingValue:
        this.blockMappingValue(e, false);
        return;
      default:
        throw new Error("expected nothing after the document end");
    }
  }

  private documentStart(e: Ev): void {
    if (e.type !== E.DocumentStart) throw new Error("expected DOCUMENT-START");
    const implicit = e.implicit && this.first;
    this.first = false;
    if (!implicit) {
      this.writeIndent();
      this.writeIndicator("---", true, false, false);
      this.writeIndent();
    }
    if (this.headComment.length > 0) {
      this.processHeadComment();
      this.putBreak();
    }
    this.state = S.DocumentContent;
  }

  private documentContent(e: Ev): void {
    this.states.push(S.DocumentEnd);
    this.processHeadComment();
    this.emitNode(e, true, false, false, false);
    this.processLineComment(false);
    this.processFootComment();
  }

  private documentEnd(e: Ev): void {
    if (e.type !== E.DocumentEnd) throw new Error("expected DOCUMENT-END");
    this.footIndent = 0;
    this.processFootComment();
    this.footIndent = -1;
    this.writeIndent();
    if (!e.implicit) {
      this.writeIndicator("...", true, false, false);
      this.writeIndent();
    }
    this.state = S.DocumentStart;
  }

  private popState(): void {
    this.state = this.states.pop()!;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private hasPendingTrail(): boolean {
    return this.lineComment.length + this.footComment.length + this.tailComment.length > 0;
  }

  private flowSequenceItem(e: Ev, first: boolean, trail: boolean): void {
    if (first) {
      this.writeIndicator("[", true, true, false);
      this.increaseIndent(true, false);
      this.flowLevel++;
    }
    if (e.type === E.SequenceEnd) {
      this.flowLevel--;
      this.popIndent();
      if (this.column === 0) this.writeIndent();
      this.writeIndicator("]", false, false, false);
      this.processLineComment(false);
      this.processFootComment();
      this.popState();
      return;
    }
    if (!first && !trail) this.writeIndicator(",", false, false, false);
    this.processHeadComment();
    if (this.column === 0) this.writeIndent();
    this.states.push(this.hasPendingTrail() ? S.FlowSequenceTrailItem : S.FlowSequenceItem);
    this.emitNode(e, false, true, false, false);
    if (this.hasPendingTrail()) this.writeIndicator(",", false, false, false);
    this.processLineComment(false);
    this.processFootComment();
  }

  private flowMappingKey(e: Ev, first: boolean, trail: boolean): void {
    if (first) {
      this.writeIndicator("{", true, true, false);
      this.increaseIndent(true, false);
      this.flowLevel++;
    }
    if (e.type === E.MappingEnd) {
      if (
        this.headComment.length + this.footComment.length + this.tailComment.length > 0 &&
        !first &&
        !trail
      ) {
        this.writeIndicator(",", false, false, false);
      }
      this.processHeadComment();
      this.flowLevel--;
      this.popIndent();
      this.writeIndicator("}", false, false, false);
      this.processLineComment(false);
      this.processFootComment();
      this.popState();
      return;
    }
    if (!first && !trail) this.writeIndicator(",", false, false, false);
    this.processHeadComment();
    if (this.column === 0) this.writeIndent();
    if (this.checkSimpleKey()) {
      this.states.push(S.FlowMappingSimpleValue);
      this.emitNode(e, false, false, true, true);
      return;
    }
    this.writeIndicator("?", true, false, false);
    this.states.push(S.FlowMappingValue);
    this.emitNode(e, false, false, true, false);
  }

  private flowMappingValue(e: Ev, simple: boolean): void {
    if (simple) this.writeIndicator(":", false, false, false);
    else this.writeIndicator(":", true, false, false);
    this.states.push(this.hasPendingTrail() ? S.FlowMappingTrailKey : S.FlowMappingKey);
    this.emitNode(e, false, false, true, false);
    if (this.hasPendingTrail()) this.writeIndicator(",", false, false, false);
    this.processLineComment(false);
    this.processFootComment();
  }

  private blockSequenceItem(e: Ev, first: boolean): void {
    if (first) {
      const compact = this.mappingContext && (this.column === 0 || !this.indention) && this.compactSeq;
      this.increaseIndent(false, false, compact);
    }
    if (e.type === E.SequenceEnd) {
      this.popIndent();
      this.popState();
      return;
    }
    this.processHeadComment();
    this.writeIndent();
    this.writeIndicator("-", true, false, true);
    this.states.push(S.BlockSequenceItem);
    this.emitNode(e, false, true, false, false);
    this.processLineComment(false);
    this.processFootComment();
  }

  private blockMappingKey(e: Ev, first: boolean): void {
    if (first) this.increaseIndent(false, false);
    this.processHeadComment();
    if (e.type === E.MappingEnd) {
      this.popIndent();
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.lineComment.length > 0) {
      this.keyLineComment = this.lineComment;
      this.lineComment = "";
    }
    if (this.checkSimpleKey()) {
      this.states.push(S.BlockMappingSimpleValue);
      this.emitNode(e, false, false, true, true);
      return;
    }
    this.writeIndicator("?", true, false, true);
    this.states.push(S.BlockMappingValue);
    this.emitNode(e, false, false, true, false);
  }

  private blockMappingValue(e: Ev, simple: boolean): void {
    if (simple) this.writeIndicator(":", false, false, false);
    else {
      this.writeIndent();
      this.writeIndicator(":", true, false, true);
    }
    if (this.keyLineComment.length > 0) {
      if (e.type === E.Scalar) {
        if (this.lineComment.length === 0) {
          this.lineComment = this.keyLineComment;
          this.keyLineComment = "";
        }
      } else if (
        !(e.type === E.SequenceStart && e.flow) &&
        (e.type === E.MappingStart || e.type === E.SequenceStart)
      ) {
        const own = this.lineComment;
        this.lineComment = this.keyLineComment;
        this.keyLineComment = own;
        this.processLineComment(false);
        this.lineComment = this.keyLineComment;
        this.keyLineComment = "";
      }
    }
    this.states.push(S.BlockMappingKey);
    this.emitNode(e, false, false, true, false);
    this.processLineComment(false);
    this.processFootComment();
  }

  private emitNode(e: Ev, _root: boolean, _sequence: boolean, mapping: boolean, simpleKey: boolean): void {
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    switch (e.type) {
      case E.Alias:
        this.processAnchor();
        this.popState();
        return;
      case E.Scalar:
        this.selectScalarStyle(e);
        this.processAnchor();
        this.processTag();
        this.increaseIndent(true, false);
        this.processScalar();
        this.popIndent();
        this.popState();
        return;
      case E.SequenceStart:
        this.processAnchor();
        this.processTag();
        this.state =
          this.flowLevel > 0 || e.flow || this.checkEmpty(E.SequenceEnd)
            ? S.FlowSequenceFirstItem
            : S.BlockSequenceFirstItem;
        return;
      case E.MappingStart:
        this.processAnchor();
        this.processTag();
        this.state =
          this.flowLevel > 0 || e.flow || this.checkEmpty(E.MappingEnd)
            ? S.FlowMappingFirstKey
            : S.BlockMappingFirstKey;
        return;
      default:
        throw new Error("expected SCALAR, SEQUENCE-START, MAPPING-START, or ALIAS");
    }
  }

  private checkEmpty(endType: E): boolean {
    const next = this.events[this.head + 1];
    return next !== undefined && next.type === endType;
  }

  private checkSimpleKey(): boolean {
    const e = this.events[this.head];
    let length = 0;
    switch (e.type) {
      case E.Alias:
        length += this.anchor.length;
        break;
      case E.Scalar:
        if (this.analysis.multiline) return false;
        length += this.anchor.length + this.tagHandle.length + this.tagSuffix.length;
        // At most 3 UTF-8 bytes per code unit: a short key needs no count.
        length += length + 3 * this.value.length <= 128 ? this.value.length : utf8Length(this.value);
        break;
      case E.SequenceStart:
        if (!this.checkEmpty(E.SequenceEnd)) return false;
        length += this.anchor.length + this.tagHandle.length + this.tagSuffix.length;
        break;
      case E.MappingStart:
        if (!this.checkEmpty(E.MappingEnd)) return false;
        length += this.anchor.length + this.tagHandle.length + this.tagSuffix.length;
        break;
      default:
        return false;
    }
    return length <= 128;
  }

  private selectScalarStyle(e: Ev): void {
    const noTag = this.tagHandle.length === 0 && this.tagSuffix.length === 0;
    if (noTag && !e.implicit && !e.quotedImplicit)
      throw new Error("neither tag nor implicit flags are specified");
    let style = e.style === SS.Any ? SS.Plain : e.style;
    const a = this.analysis;
    if (this.simpleKeyContext && a.multiline) style = SS.Double;
    if (style === SS.Plain) {
      if ((this.flowLevel > 0 && !a.flowPlain) || (this.flowLevel === 0 && !a.blockPlain)) style = SS.Single;
      if (this.value.length === 0 && (this.flowLevel > 0 || this.simpleKeyContext)) style = SS.Single;
      if (noTag && !e.implicit) style = SS.Single;
    }
    if (style === SS.Single && !a.single) style = SS.Double;
    if (
      (style === SS.Literal || style === SS.Folded) &&
      (!a.block || this.flowLevel > 0 || this.simpleKeyContext)
    ) {
      style = SS.Double;
    }
    if (noTag && !e.quotedImplicit && style !== SS.Plain) this.tagHandle = "!";
    this.scalarStyle = style;
  }

  private processAnchor(): void {
    if (this.anchor.length === 0) return;
    this.writeIndicator(this.alias ? "*" : "&", true, false, false);
    this.put(this.anchor);
    this.whitespace = false;
    this.indention = false;
  }

  private processTag(): void {
    if (this.tagHandle.length === 0 && this.tagSuffix.length === 0) return;
    if (this.tagHandle.length > 0) {
      if (!this.whitespace) this.put(" ");
      this.put(this.tagHandle);
      this.whitespace = false;
      this.indention = false;
      if (this.tagSuffix.length > 0) this.writeTagContent(this.tagSuffix);
    } else {
      this.writeIndicator("!<", true, false, false);
      this.writeTagContent(this.tagSuffix);
      this.writeIndicator(">", false, false, false);
    }
  }

  private writeTagContent(value: string): void {
    let out = "";
    for (const byte of Buffer.from(value, "utf8")) {
      const ch = String.fromCharCode(byte);
      if (/[0-9A-Za-z_\-;/?:@&=+$,.~*'()[\]]/.test(ch)) out += ch;
      else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    this.put(out);
    this.whitespace = false;
    this.indention = false;
  }

  private processScalar(): void {
    const v = this.value;
    switch (this.scalarStyle) {
      case SS.Plain:
        this.writePlain(v, !this.simpleKeyContext);
        return;
      case SS.Single:
        this.writeSingle(v);
        return;
      case SS.Double:
        this.writeDouble(v);
        return;
      case SS.Literal:
        this.writeLiteral(v);
        return;
      default:
        this.writeFolded(v);
        return;
    }
  }

  private processHeadComment(): void {
    if (this.tailComment.length > 0) {
      this.writeIndent();
      this.writeComment(this.tailComment);
      this.tailComment = "";
      this.footIndent = Math.max(this.indent, 0);
    }
    if (this.headComment.length === 0) return;
    this.writeIndent();
    this.writeComment(this.headComment);
    this.headComment = "";
  }

  private processLineComment(linebreak: boolean): void {
    if (this.lineComment.length === 0) {
      if (linebreak) this.putBreak();
      return;
    }
    if (!this.whitespace) this.put(" ");
    this.writeComment(this.lineComment);
    this.lineComment = "";
  }

  private processFootComment(): void {
    if (this.footComment.length === 0) return;
    this.writeIndent();
    this.writeComment(this.footComment);
    this.footComment = "";
    this.footIndent = Math.max(this.indent, 0);
  }

  private writeComment(comment: string): void {
    let breaks = false;
    let pound = false;
    const n = comment.length;
    for (let i = 0; i < n; ) {
      const c = comment.charCodeAt(i);
      if (isBreakCode(c)) {
        this.writeBreakChar(comment, i);
        i += c === 13 && comment.charCodeAt(i + 1) === 10 ? 1 : 1;
        breaks = true;
        pound = false;
      } else {
        if (breaks) this.writeIndent();
        if (!pound) {
          if (c !== 35) this.put("# ");
          pound = true;
        }
        // The rest of the line at once.
        let j = i + 1;
        while (j < n && !isBreakCode(comment.charCodeAt(j))) j++;
        this.put(comment.slice(i, j));
        i = j;
        this.indention = false;
        breaks = false;
      }
    }
    if (!breaks) this.putBreak();
    this.whitespace = true;
  }

  /** yaml.v3's `write_break`: "\n" is a line break; other break characters are copied. */
  private writeBreakChar(s: string, i: number): void {
    if (s.charCodeAt(i) === 10) this.putBreak();
    else {
      this.out += s[i];
      this.column = 0;
      this.indention = true;
    }
  }

  private writePlain(value: string, _allowBreaks: boolean): void {
    if (value.length > 0 && !this.whitespace) this.put(" ");
    if (!this.analysis.multiline && value === this.value) {
      // No line break in it (the analysis saw every character): the text as it is.
      this.put(value);
      if (value.length > 0) this.whitespace = false;
      this.indention = false;
      return;
    }
    // No folding (unlimited width): only line breaks need care, and plain text has none here.
    let breaks = false;
    const n = value.length;
    let i = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (isBreakCode(c)) {
        if (!breaks && c === 10) this.putBreak();
        this.writeBreakChar(value, i);
        i++;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        let j = i + 1;
        while (j < n && !isBreakCode(value.charCodeAt(j))) j++;
        this.put(value.slice(i, j));
        i = j;
        this.indention = false;
        breaks = false;
      }
    }
    if (value.length > 0) this.whitespace = false;
    this.indention = false;
  }

  private writeSingle(value: string): void {
    this.writeIndicator("'", true, false, false);
    let breaks = false;
    const n = value.length;
    let i = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (isBreakCode(c)) {
        if (!breaks && c === 10) this.putBreak();
        this.writeBreakChar(value, i);
        i++;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        let j = i;
        let chunk = "";
        while (j < n && !isBreakCode(value.charCodeAt(j))) {
          if (value.charCodeAt(j) === 39) {
            chunk += value.slice(i, j + 1);
            chunk += "'";
            i = j + 1;
          }
          j++;
        }
        chunk += value.slice(i, j);
        this.put(chunk);
        i = j;
        this.indention = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDouble(value: string): void {
    this.writeIndicator('"', true, false, false);
    this.put(escapeDoubleQuoted(value));
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private blockHints(value: string): void {
    const c0 = value.charCodeAt(0);
    if (value.length > 0 && (isSpace(c0) || isBreakCode(c0))) {
      this.writeIndicator(String(this.bestIndent), false, false, false);
    }
    let chomp = "";
    if (value.length === 0) chomp = "-";
    else {
      const last = value.charCodeAt(value.length - 1);
      if (!isBreakCode(last)) chomp = "-";
      else if (value.length === 1) {
        chomp = "+";
      } else if (isBreakCode(value.charCodeAt(value.length - 2))) {
        chomp = "+";
      }
    }
    if (chomp) this.writeIndicator(chomp, false, false, false);
  }

  private writeLiteral(value: string): void {
    this.writeIndicator("|", true, false, false);
    this.blockHints(value);
    this.processLineComment(true);
    this.whitespace = true;
    let breaks = true;
    const n = value.length;
    let i = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (isBreakCode(c)) {
        this.writeBreakChar(value, i);
        i++;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        let j = i + 1;
        while (j < n && !isBreakCode(value.charCodeAt(j))) j++;
        this.put(value.slice(i, j));
        i = j;
        this.indention = false;
        breaks = false;
      }
    }
  }

  private writeFolded(value: string): void {
    this.writeIndicator(">", true, false, false);
    this.blockHints(value);
    this.processLineComment(true);
    this.whitespace = true;
    let breaks = true;
    let leadingSpaces = true;
    const n = value.length;
    let i = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (isBreakCode(c)) {
        if (!breaks && !leadingSpaces && c === 10) {
          let k = 0;
          while (k < n && isBreakCode(value.charCodeAt(k))) k++;
          const d = k < n ? value.charCodeAt(k) : 0;
          if (!(d === 32 || d === 9 || d === 0 || isBreakCode(d))) this.putBreak();
        }
        this.writeBreakChar(value, i);
        i++;
        breaks = true;
      } else {
        if (breaks) {
          this.writeIndent();
          leadingSpaces = c === 32 || c === 9;
        }
        this.put(value[i]);
        i++;
        this.indention = false;
        breaks = false;
      }
    }
  }
}

function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && !(c >= 0xd800 && c <= 0xdfff) ? 2 : c >= 0xd800 && c <= 0xdbff ? 1 : 1;
  }
  return n;
}

const ESCAPES: Record<number, string> = {
  0: "\\0",
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  27: "\\e",
  34: '\\"',
  92: "\\\\",
  133: "\\N",
  160: "\\_",
  8232: "\\L",
  8233: "\\P",
};

/**
 * The inside of a double-quoted scalar as yaml.v3 writes it (kpt's writer never folds lines): line
 * breaks, `"`, `\\` and what libyaml cannot print escaped (`\\n`, `\\x7F`, `\\U0001F600`).
 */
export function escapeDoubleQuoted(value: string): string {
  let out = "";
  const n = value.length;
  for (let i = 0; i < n; ) {
    const cp = value.codePointAt(i)!;
    const w = cp > 0xffff ? 2 : 1;
    if (!isPrintable(cp) || isBreakCode(cp) || cp === 34 || cp === 92) {
      out += escapeChar(cp);
    } else out += w === 1 ? value[i] : value.slice(i, i + 2);
    i += w;
  }
  return out;
}

function escapeChar(cp: number): string {
  const known = ESCAPES[cp];
  if (known) return known;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

/**
 * Writes one document node as kyaml's encoder writes it (no `---` line; the caller joins documents
 * with `---\n`). A non-document node is written as the content of an implicit document.
 */
export function emitDocument(doc: YNode, options: EmitOptions = {}): string {
  const events: Ev[] = [];
  if (doc.kind === Kind.Document) encodeEvents(doc, "", events);
  else {
    const start = mk(E.DocumentStart);
    start.implicit = true;
    events.push(start);
    encodeEvents(doc, "", events);
    const end = mk(E.DocumentEnd);
    end.implicit = true;
    events.push(end);
  }
  const emitter = new Emitter(options);
  emitter.run(events);
  return emitter.out;
}
