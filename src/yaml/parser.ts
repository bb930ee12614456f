/**
 * The YAML parser (tokens to events, go-yaml v3's `parserc.go`, comments unfolded onto events as it
 * does) and the composer (events to a node tree, yaml.v3's `decode.go` parser: head, line and foot
 * comments moved the way it moves them).
 */
import { Kind, Style, YNode } from "./node.js";
import { MAP, MERGE, resolvePlain, SEQ, STR, shortTag } from "./resolve.js";
import { type Mark, Scanner, SS, T, type Token, YamlError } from "./scanner.js";

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

enum P {
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

function ev(type: E, start: Mark, end: Mark): Event {
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

/** yaml.v3's event parser over our scanner. */
export class Parser {
  private readonly s: Scanner;
  private state = P.StreamStart;
  private states: P[] = [];
  private marks: Mark[] = [];
  private headComment = "";
  private lineComment = "";
  private footComment = "";
  private stemComment: string | null = null;
  private tagDirectives: Array<[string, string]> = [];
  private done = false;

  constructor(text: string) {
    this.s = new Scanner(text);
  }

  private peek(): Token {
    const token = this.s.peek();
    this.unfoldComments(token);
    return token;
  }

  private unfoldComments(token: Token): void {
    const s = this.s;
    const comments = s.comments;
    while (s.commentsHead < comments.length && token.start.index >= comments[s.commentsHead].token.index) {
      const c = comments[s.commentsHead];
      if (c.head.length > 0) {
        if (token.type === T.BlockEnd) break;
        this.headComment = this.headComment.length > 0 ? `${this.headComment}\n${c.head}` : c.head;
      }
      if (c.foot.length > 0)
        this.footComment = this.footComment.length > 0 ? `${this.footComment}\n${c.foot}` : c.foot;
      if (c.line.length > 0)
        this.lineComment = this.lineComment.length > 0 ? `${this.lineComment}\n${c.line}` : c.line;
      comments[s.commentsHead] = EMPTY_COMMENT;
      s.commentsHead++;
    }
  }

  private setEventComments(e: Event): void {
    e.head = this.headComment;
    e.line = this.lineComment;
    e.foot = this.footComment;
    this.headComment = "";
    this.lineComment = "";
    this.footComment = "";
    this.stemComment = null;
  }

  private fail(context: string, contextMark: Mark | undefined, problem: string, problemMark: Mark): never {
    // yaml.v3 reports a parser error at its context mark's line when it has one, else the problem's.
    const mark = contextMark && contextMark.line !== 0 ? contextMark : problemMark;
    throw new YamlError(problem, problemMark, context, mark.line === 0 && !contextMark ? 0 : mark.line);
  }

  /** The next event, or undefined after the stream's end. */
  next(): Event | undefined {
    if (this.done || this.s.streamEndProduced || this.state === P.End) return undefined;
    return this.machine();
  }

  private pop(): void {
    this.state = this.states.pop()!;
  }

  private machine(): Event {
    switch (this.state) {
      case P.StreamStart: {
        const t = this.peek();
        this.state = P.ImplicitDocumentStart;
        const e = ev(E.StreamStart, t.start, t.end);
        this.s.skipToken();
        return e;
      }
      case P.ImplicitDocumentStart:
        return this.documentStart(true);
      case P.DocumentStart:
        return this.documentStart(false);
      case P.DocumentContent: {
        const t = this.peek();
        if (
          t.type === T.VersionDirective ||
          t.type === T.TagDirective ||
          t.type === T.DocumentStart ||
          t.type === T.DocumentEnd ||
          t.type === T.StreamEnd
        ) {
          this.pop();
          return this.emptyScalar(t.start);
        }
        return this.node(true, false);
      }
      case P.DocumentEnd:
        return this.documentEnd();
      case P.BlockNode:
        return this.node(true, false);
      case P.FlowNode:
        return this.node(false, false);
      case P.BlockSequenceFirstEntry:
        return this.blockSequenceEntry(true);
      case P.BlockSequenceEntry:
        return this.blockSequenceEntry(false);
      case P.IndentlessSequenceEntry:
        return this.indentlessSequenceEntry();
      case P.BlockMappingFirstKey:
        return this.blockMappingKey(true);
      case P.BlockMappingKey:
        return this.blockMappingKey(false);
      case P.BlockMappingValue:
        return this.blockMappingValue();
      case P.FlowSequenceFirstEntry:
        return this.flowSequenceEntry(true);
      case P.FlowSequenceEntry:
        return this.flowSequenceEntry(false);
      case P.FlowSequenceEntryMappingKey:
        return this.flowSequenceEntryMappingKey();
      case P.FlowSequenceEntryMappingValue:
        return this.flowSequenceEntryMappingValue();
      case P.FlowSequenceEntryMappingEnd: {
        const t = this.peek();
        this.state = P.FlowSequenceEntry;
        return ev(E.MappingEnd, t.start, t.start);
      }
      case P.FlowMappingFirstKey:
        return this.flowMappingKey(true);
      case P.FlowMappingKey:
        return this.flowMappingKey(false);
      case P.FlowMappingValue:
        return this.flowMappingValue(false);
      case P.FlowMappingEmptyValue:
        return this.flowMappingValue(true);
      default:
        throw new Error("invalid parser state");
    }
  }

  private documentStart(implicit: boolean): Event {
    let t = this.peek();
    if (!implicit) {
      while (t.type === T.DocumentEnd) {
        this.s.skipToken();
        t = this.peek();
      }
    }
    if (
      implicit &&
      t.type !== T.VersionDirective &&
      t.type !== T.TagDirective &&
      t.type !== T.DocumentStart &&
      t.type !== T.StreamEnd
    ) {
      this.processDirectives();
      this.states.push(P.DocumentEnd);
      this.state = P.BlockNode;
      let head = "";
      const hc = this.headComment;
      if (hc.length > 0) {
        // The part above the last blank line heads the document, the rest the next node.
        for (let i = hc.length - 1; i > 0; i--) {
          if (hc.charCodeAt(i) === 10) {
            if (i === hc.length - 1) {
              head = hc.slice(0, i);
              this.headComment = hc.slice(i + 1);
              break;
            }
            if (hc.charCodeAt(i - 1) === 10) {
              head = hc.slice(0, i - 1);
              this.headComment = hc.slice(i + 1);
              break;
            }
          }
        }
      }
      const e = ev(E.DocumentStart, t.start, t.end);
      e.head = head;
      e.implicit = true;
      return e;
    }
    if (t.type !== T.StreamEnd) {
      const start = t.start;
      this.processDirectives();
      t = this.peek();
      if (t.type !== T.DocumentStart)
        this.fail("", undefined, "did not find expected <document start>", t.start);
      this.states.push(P.DocumentEnd);
      this.state = P.DocumentContent;
      const e = ev(E.DocumentStart, start, t.end);
      this.s.skipToken();
      return e;
    }
    this.state = P.End;
    const e = ev(E.StreamEnd, t.start, t.end);
    this.s.skipToken();
    this.done = true;
    return e;
  }

  private processDirectives(): void {
    this.tagDirectives = [];
    let t = this.peek();
    while (t.type === T.VersionDirective || t.type === T.TagDirective) {
      if (t.type === T.TagDirective) {
        if (this.tagDirectives.some(([h]) => h === t.value))
          this.fail("", undefined, "found duplicate %TAG directive", t.start);
        this.tagDirectives.push([t.value, t.suffix]);
      }
      this.s.skipToken();
      t = this.peek();
    }
  }

  private documentEnd(): Event {
    const t = this.peek();
    const start = t.start;
    let end = t.start;
    let implicit = true;
    if (t.type === T.DocumentEnd) {
      end = t.end;
      this.s.skipToken();
      implicit = false;
    }
    this.tagDirectives = [];
    this.state = P.DocumentStart;
    const e = ev(E.DocumentEnd, start, end);
    e.implicit = implicit;
    this.setEventComments(e);
    if (e.head.length > 0 && e.foot.length === 0) {
      e.foot = e.head;
      e.head = "";
    }
    return e;
  }

  private resolveTagHandle(handle: string, suffix: string, start: Mark, tagMark: Mark): string {
    if (handle.length === 0) return suffix;
    for (const [h, prefix] of this.tagDirectives) if (h === handle) return prefix + suffix;
    if (handle === "!") return `!${suffix}`;
    if (handle === "!!") return `tag:yaml.org,2002:${suffix}`;
    return this.fail("while parsing a node", start, "found undefined tag handle", tagMark);
  }

  private node(block: boolean, indentlessSequence: boolean): Event {
    let t = this.peek();
    if (t.type === T.Alias) {
      this.pop();
      const e = ev(E.Alias, t.start, t.end);
      e.anchor = t.value;
      this.setEventComments(e);
      this.s.skipToken();
      return e;
    }
    let start = t.start;
    let end = t.start;
    let anchor = "";
    let tag = "";
    let tagToken: Token | undefined;
    if (t.type === T.Anchor) {
      anchor = t.value;
      start = t.start;
      end = t.end;
      this.s.skipToken();
      t = this.peek();
      if (t.type === T.Tag) {
        tagToken = t;
        end = t.end;
        this.s.skipToken();
        t = this.peek();
      }
    } else if (t.type === T.Tag) {
      tagToken = t;
      start = t.start;
      end = t.end;
      this.s.skipToken();
      t = this.peek();
      if (t.type === T.Anchor) {
        anchor = t.value;
        end = t.end;
        this.s.skipToken();
        t = this.peek();
      }
    }
    if (tagToken) tag = this.resolveTagHandle(tagToken.value, tagToken.suffix, start, tagToken.start);
    const implicit = tag.length === 0;
    if (indentlessSequence && t.type === T.BlockEntry) {
      this.state = P.IndentlessSequenceEntry;
      const e = ev(E.SequenceStart, start, t.end);
      e.anchor = anchor;
      e.tag = tag;
      e.implicit = implicit;
      return e;
    }
    if (t.type === T.Scalar) {
      const e = ev(E.Scalar, start, t.end);
      if ((tag.length === 0 && t.style === SS.Plain) || tag === "!") e.implicit = true;
      else if (tag.length === 0) e.quotedImplicit = true;
      this.pop();
      e.anchor = anchor;
      e.tag = tag;
      e.value = t.value;
      e.style = t.style;
      this.setEventComments(e);
      this.s.skipToken();
      return e;
    }
    if (t.type === T.FlowSequenceStart || t.type === T.FlowMappingStart) {
      const seq = t.type === T.FlowSequenceStart;
      this.state = seq ? P.FlowSequenceFirstEntry : P.FlowMappingFirstKey;
      const e = ev(seq ? E.SequenceStart : E.MappingStart, start, t.end);
      e.anchor = anchor;
      e.tag = tag;
      e.implicit = implicit;
      e.flow = true;
      this.setEventComments(e);
      return e;
    }
    if (block && (t.type === T.BlockSequenceStart || t.type === T.BlockMappingStart)) {
      const seq = t.type === T.BlockSequenceStart;
      this.state = seq ? P.BlockSequenceFirstEntry : P.BlockMappingFirstKey;
      const e = ev(seq ? E.SequenceStart : E.MappingStart, start, t.end);
      e.anchor = anchor;
      e.tag = tag;
      e.implicit = implicit;
      if (this.stemComment !== null) {
        e.head = this.stemComment;
        this.stemComment = null;
      }
      return e;
    }
    if (anchor.length > 0 || tag.length > 0) {
      this.pop();
      const e = ev(E.Scalar, start, end);
      e.anchor = anchor;
      e.tag = tag;
      e.implicit = implicit;
      e.style = SS.Plain;
      return e;
    }
    return this.fail(
      block ? "while parsing a block node" : "while parsing a flow node",
      start,
      "did not find expected node content",
      t.start,
    );
  }

  private emptyScalar(mark: Mark): Event {
    const e = ev(E.Scalar, mark, mark);
    e.implicit = true;
    e.style = SS.Plain;
    return e;
  }

  private splitStemComment(stemLen: number): void {
    if (stemLen === 0) return;
    const t = this.peek();
    if (t.type !== T.BlockSequenceStart && t.type !== T.BlockMappingStart) return;
    this.stemComment = this.headComment.slice(0, stemLen);
    this.headComment = this.headComment.length === stemLen ? "" : this.headComment.slice(stemLen + 1);
  }

  private blockSequenceEntry(first: boolean): Event {
    if (first) {
      this.marks.push(this.peek().start);
      this.s.skipToken();
    }
    let t = this.peek();
    if (t.type === T.BlockEntry) {
      const mark = t.end;
      const priorHeadLen = this.headComment.length;
      this.s.skipToken();
      this.splitStemComment(priorHeadLen);
      t = this.peek();
      if (t.type !== T.BlockEntry && t.type !== T.BlockEnd) {
        this.states.push(P.BlockSequenceEntry);
        return this.node(true, false);
      }
      this.state = P.BlockSequenceEntry;
      return this.emptyScalar(mark);
    }
    if (t.type === T.BlockEnd) {
      this.pop();
      this.marks.pop();
      const e = ev(E.SequenceEnd, t.start, t.end);
      this.s.skipToken();
      return e;
    }
    return this.fail(
      "while parsing a block collection",
      this.marks.pop(),
      "did not find expected '-' indicator",
      t.start,
    );
  }

  private indentlessSequenceEntry(): Event {
    let t = this.peek();
    if (t.type === T.BlockEntry) {
      const mark = t.end;
      const priorHeadLen = this.headComment.length;
      this.s.skipToken();
      this.splitStemComment(priorHeadLen);
      t = this.peek();
      if (t.type !== T.BlockEntry && t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
        this.states.push(P.IndentlessSequenceEntry);
        return this.node(true, false);
      }
      this.state = P.IndentlessSequenceEntry;
      return this.emptyScalar(mark);
    }
    this.pop();
    return ev(E.SequenceEnd, t.start, t.start);
  }

  private blockMappingKey(first: boolean): Event {
    if (first) {
      this.marks.push(this.peek().start);
      this.s.skipToken();
    }
    let t = this.peek();
    if (t.type === T.Key) {
      const mark = t.end;
      this.s.skipToken();
      t = this.peek();
      if (t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
        this.states.push(P.BlockMappingValue);
        return this.node(true, true);
      }
      this.state = P.BlockMappingValue;
      return this.emptyScalar(mark);
    }
    if (t.type === T.BlockEnd) {
      this.pop();
      this.marks.pop();
      const e = ev(E.MappingEnd, t.start, t.end);
      this.setEventComments(e);
      this.s.skipToken();
      return e;
    }
    return this.fail("while parsing a block mapping", this.marks.pop(), "did not find expected key", t.start);
  }

  private blockMappingValue(): Event {
    let t = this.peek();
    if (t.type === T.Value) {
      const mark = t.end;
      this.s.skipToken();
      t = this.peek();
      if (t.type !== T.Key && t.type !== T.Value && t.type !== T.BlockEnd) {
        this.states.push(P.BlockMappingKey);
        return this.node(true, true);
      }
      this.state = P.BlockMappingKey;
      return this.emptyScalar(mark);
    }
    this.state = P.BlockMappingKey;
    return this.emptyScalar(t.start);
  }

  private flowSequenceEntry(first: boolean): Event {
    if (first) {
      this.marks.push(this.peek().start);
      this.s.skipToken();
    }
    let t = this.peek();
    if (t.type !== T.FlowSequenceEnd) {
      if (!first) {
        if (t.type === T.FlowEntry) {
          this.s.skipToken();
          t = this.peek();
        } else {
          this.fail(
            "while parsing a flow sequence",
            this.marks.pop(),
            "did not find expected ',' or ']'",
            t.start,
          );
        }
      }
      if (t.type === T.Key) {
        this.state = P.FlowSequenceEntryMappingKey;
        const e = ev(E.MappingStart, t.start, t.end);
        e.implicit = true;
        e.flow = true;
        this.s.skipToken();
        return e;
      }
      if (t.type !== T.FlowSequenceEnd) {
        this.states.push(P.FlowSequenceEntry);
        return this.node(false, false);
      }
    }
    this.pop();
    this.marks.pop();
    const e = ev(E.SequenceEnd, t.start, t.end);
    this.setEventComments(e);
    this.s.skipToken();
    return e;
  }

  private flowSequenceEntryMappingKey(): Event {
    const t = this.peek();
    if (t.type !== T.Value && t.type !== T.FlowEntry && t.type !== T.FlowSequenceEnd) {
      this.states.push(P.FlowSequenceEntryMappingValue);
      return this.node(false, false);
    }
    const mark = t.end;
    this.s.skipToken();
    this.state = P.FlowSequenceEntryMappingValue;
    return this.emptyScalar(mark);
  }

  private flowSequenceEntryMappingValue(): Event {
    let t = this.peek();
    if (t.type === T.Value) {
      this.s.skipToken();
      t = this.peek();
      if (t.type !== T.FlowEntry && t.type !== T.FlowSequenceEnd) {
        this.states.push(P.FlowSequenceEntryMappingEnd);
        return this.node(false, false);
      }
    }
    this.state = P.FlowSequenceEntryMappingEnd;
    return this.emptyScalar(t.start);
  }

  private flowMappingKey(first: boolean): Event {
    if (first) {
      this.marks.push(this.peek().start);
      this.s.skipToken();
    }
    let t = this.peek();
    if (t.type !== T.FlowMappingEnd) {
      if (!first) {
        if (t.type === T.FlowEntry) {
          this.s.skipToken();
          t = this.peek();
        } else {
          this.fail(
            "while parsing a flow mapping",
            this.marks.pop(),
            "did not find expected ',' or '}'",
            t.start,
          );
        }
      }
      if (t.type === T.Key) {
        this.s.skipToken();
        t = this.peek();
        if (t.type !== T.Value && t.type !== T.FlowEntry && t.type !== T.FlowMappingEnd) {
          this.states.push(P.FlowMappingValue);
          return this.node(false, false);
        }
        this.state = P.FlowMappingValue;
        return this.emptyScalar(t.start);
      }
      if (t.type !== T.FlowMappingEnd) {
        this.states.push(P.FlowMappingEmptyValue);
        return this.node(false, false);
      }
    }
    this.pop();
    this.marks.pop();
    const e = ev(E.MappingEnd, t.start, t.end);
    this.setEventComments(e);
    this.s.skipToken();
    return e;
  }

  private flowMappingValue(empty: boolean): Event {
    let t = this.peek();
    if (empty) {
      this.state = P.FlowMappingKey;
      return this.emptyScalar(t.start);
    }
    if (t.type === T.Value) {
      this.s.skipToken();
      t = this.peek();
      if (t.type !== T.FlowEntry && t.type !== T.FlowMappingEnd) {
        this.states.push(P.FlowMappingKey);
        return this.node(false, false);
      }
    }
    this.state = P.FlowMappingKey;
    return this.emptyScalar(t.start);
  }
}

const EMPTY_COMMENT = {
  scan: { index: 0, line: 0, column: 0 },
  token: { index: 0, line: 0, column: 0 },
  start: { index: 0, line: 0, column: 0 },
  end: { index: 0, line: 0, column: 0 },
  head: "",
  line: "",
  foot: "",
};

/** yaml.v3's composer (`decode.go` `parser`): events to document nodes. */
class Composer {
  private event: Event | undefined;
  private anchors = new Map<string, YNode>();

  constructor(
    private readonly p: Parser,
    private readonly lineOffset: number,
  ) {}

  peek(): E {
    if (this.event === undefined) this.event = this.p.next();
    return this.event ? this.event.type : E.StreamEnd;
  }

  private take(): Event {
    this.peek();
    const e = this.event!;
    this.event = undefined;
    return e;
  }

  private make(kind: Kind, defaultTag: string, tag: string, value: string, e: Event): YNode {
    let style = 0;
    if (tag !== "" && tag !== "!") {
      tag = shortTag(tag);
      style = Style.Tagged;
    } else if (defaultTag !== "") tag = defaultTag;
    else if (kind === Kind.Scalar) tag = resolvePlain(value);
    const n = new YNode(kind, tag, value);
    n.style = style;
    n.line = e.start.line + 1 + this.lineOffset;
    n.column = e.start.column + 1;
    n.headComment = e.head;
    n.lineComment = e.line;
    n.footComment = e.foot;
    return n;
  }

  /** The next document node, or undefined at the stream's end. */
  document(): YNode | undefined {
    if (this.peek() === E.StreamStart) this.take();
    if (this.peek() !== E.DocumentStart) return undefined;
    const e = this.take();
    const n = this.make(Kind.Document, "", "", e.implicit ? "" : "---", e);
    n.content.push(this.parse());
    if (this.peek() === E.DocumentEnd) {
      const end = this.take();
      n.footComment = end.foot;
    }
    return n;
  }

  private parse(): YNode {
    switch (this.peek()) {
      case E.Scalar:
        return this.scalar();
      case E.Alias:
        return this.alias();
      case E.MappingStart:
        return this.mapping();
      case E.SequenceStart:
        return this.sequence();
      default:
        throw new Error(`internal error: unexpected event ${this.peek()}`);
    }
  }

  private alias(): YNode {
    const e = this.take();
    const n = this.make(Kind.Alias, "", "", e.anchor, e);
    const target = this.anchors.get(e.anchor);
    if (!target) throw new YamlError(`unknown anchor '${e.anchor}' referenced`, e.start, "", 0);
    n.alias = target;
    return n;
  }

  private scalar(): YNode {
    const e = this.take();
    let nodeStyle = 0;
    switch (e.style) {
      case SS.Double:
        nodeStyle = Style.DoubleQuoted;
        break;
      case SS.Single:
        nodeStyle = Style.SingleQuoted;
        break;
      case SS.Literal:
        nodeStyle = Style.Literal;
        break;
      case SS.Folded:
        nodeStyle = Style.Folded;
        break;
    }
    const defaultTag = nodeStyle === 0 ? (e.value === "<<" ? MERGE : "") : STR;
    const n = this.make(Kind.Scalar, defaultTag, e.tag, e.value, e);
    n.style |= nodeStyle;
    if (e.anchor) {
      n.anchor = e.anchor;
      this.anchors.set(e.anchor, n);
    }
    return n;
  }

  private sequence(): YNode {
    const e = this.take();
    const n = this.make(Kind.Sequence, SEQ, e.tag, "", e);
    if (e.flow) n.style |= Style.Flow;
    if (e.anchor) {
      n.anchor = e.anchor;
      this.anchors.set(e.anchor, n);
    }
    while (this.peek() !== E.SequenceEnd) n.content.push(this.parse());
    const end = this.take();
    n.lineComment = end.line;
    n.footComment = end.foot;
    return n;
  }

  private mapping(): YNode {
    const e = this.take();
    const n = this.make(Kind.Mapping, MAP, e.tag, "", e);
    const block = !e.flow;
    if (e.flow) n.style |= Style.Flow;
    if (e.anchor) {
      n.anchor = e.anchor;
      this.anchors.set(e.anchor, n);
    }
    const c = n.content;
    while (this.peek() !== E.MappingEnd) {
      const k = this.parse();
      c.push(k);
      if (block && k.footComment !== "" && c.length > 2) {
        c[c.length - 3].footComment = k.footComment;
        k.footComment = "";
      }
      const v = this.parse();
      c.push(v);
      if (k.footComment === "" && v.footComment !== "") {
        k.footComment = v.footComment;
        v.footComment = "";
      }
    }
    const end = this.take();
    n.lineComment = end.line;
    n.footComment = end.foot;
    if (block && n.footComment !== "" && c.length > 1) {
      c[c.length - 2].footComment = n.footComment;
      n.footComment = "";
    }
    return n;
  }
}

/**
 * Parses every document of a YAML stream into yaml.v3-shaped document nodes (kinds, styles, tags,
 * comments, positions; aliases point at their anchored nodes). Duplicate mapping keys are kept as
 * read; `firstLine` is added to their line numbers. @throws YamlError (`yaml: line N: ...`, yaml.v3's wording) on bad YAML.
 */
export function parseStream(text: string, firstLine = 0): YNode[] {
  const c = new Composer(new Parser(text), firstLine);
  const docs: YNode[] = [];
  for (;;) {
    const d = c.document();
    if (!d) break;
    docs.push(d);
  }
  return docs;
}
