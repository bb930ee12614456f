/**
 * The YAML parser: the event parser (`parse/`: tokens to events, go-yaml v3's `parserc.go`, comments
 * unfolded onto events as it does) and the composer (events to a node tree, yaml.v3's `decode.go`
 * parser: head, line and foot comments moved the way it moves them).
 */
import { Kind, Style, YNode } from "./node.js";
import { E, type Event } from "./parse/events.js";
import { Parser } from "./parse/machine.js";
import { MAP, MERGE, resolvePlain, SEQ, STR, shortTag } from "./resolve.js";
import { SS, YamlError } from "./scanner.js";

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
