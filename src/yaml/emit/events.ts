/**
 * The writer's events, made from a node tree as yaml.v3's encoder makes them (`encode.go`'s `node`
 * walk: `yaml_document_start_event_initialize`, `..._scalar_event_initialize`, ...), one at a time
 * into one reused event: a cursor instead of a list, so writing a tree allocates no event per node.
 */
import { Kind, Style, YNode } from "../node.js";
import { longTag, resolvePlain, STR, shortTag } from "../resolve.js";

/** yaml.v3's event types. */
export enum E {
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

/** yaml.v3's scalar styles as the emitter selects them. */
export enum SS {
  Any = 0,
  Plain = 1,
  Single = 2,
  Double = 3,
  Literal = 4,
  Folded = 5,
}

/** One event (yaml.v3 `yaml_event_t`); `empty`: a collection start whose end comes next. */
export class Ev {
  type = E.DocumentStart;
  anchor = "";
  tag = "";
  value = "";
  implicit = false;
  quotedImplicit = false;
  style = 0;
  flow = false;
  empty = false;
  head = "";
  line = "";
  foot = "";
  tail = "";

  reset(type: E): this {
    this.type = type;
    this.anchor = "";
    this.tag = "";
    this.value = "";
    this.implicit = false;
    this.quotedImplicit = false;
    this.style = 0;
    this.flow = false;
    this.empty = false;
    this.head = "";
    this.line = "";
    this.foot = "";
    this.tail = "";
    return this;
  }
}

/**
 * The tag an event carries ("" when implicit) and whether a string must be double-quoted to stay
 * one (yaml.v3 encoder's `stag`/`forceQuoting` for a node), as `tag` or `"\0"` + tag when forced.
 */
export function eventTag(node: YNode): string {
  const tag = node.tag;
  if (tag === "" || (node.style & Style.Tagged) !== 0) return tag;
  // A tag starting with `!` is short already (the common case: no prefix to look for).
  const stag = tag.charCodeAt(0) === 33 ? tag : shortTag(tag);
  if (node.kind === Kind.Scalar) {
    const quoted = Style.SingleQuoted | Style.DoubleQuoted | Style.Literal | Style.Folded;
    if (stag === STR && (node.style & quoted) !== 0) return "";
    const rtag = plainTagOf(node.value);
    if (rtag === stag) return "";
    return stag === STR ? "\0" : tag;
  }
  const rtag = node.kind === Kind.Mapping ? "!!map" : node.kind === Kind.Sequence ? "!!seq" : "";
  return rtag === stag ? "" : tag;
}

/**
 * `resolvePlain`'s tag, with no look-up for a text starting with a letter unless it is 4 or 5
 * characters long and starts with t, f or n: of letter-first texts only true/false/null (in their
 * spellings) resolve to other than !!str.
 */
function plainTagOf(value: string): string {
  const lower = value.charCodeAt(0) | 32;
  if (lower >= 97 && lower <= 122) {
    const n = value.length;
    if ((n !== 4 && n !== 5) || (lower !== 116 && lower !== 102 && lower !== 110)) return STR;
  }
  return resolvePlain(value);
}

/** One collection being walked: the next child, a mapping's pending tail, a key's foot withheld. */
interface Frame {
  node: YNode;
  pos: number;
  tail: string;
  noFoot: boolean;
}

/** The events of one document node in yaml.v3's order, produced into `ev` by `next()`. */
export class EventCursor {
  readonly ev = new Ev();
  private readonly stack: Frame[] = [];
  private readonly root: YNode;
  private started = false;

  /** A non-document root is written as the content of an implicit document. */
  constructor(root: YNode) {
    this.root = root.kind === Kind.Document ? root : new YNode(Kind.Document, "", "", [root]);
  }

  /** The next event into `ev`; false after the document's end. */
  next(): boolean {
    if (!this.started) {
      this.started = true;
      const e = this.ev.reset(E.DocumentStart);
      e.implicit = true;
      e.head = this.root.headComment;
      this.stack.push({ node: this.root, pos: 0, tail: "", noFoot: false });
      return true;
    }
    const f = this.stack[this.stack.length - 1];
    if (f === undefined) return false;
    const c = f.node.content;
    if (f.node.kind === Kind.Mapping) this.mappingStep(f, c);
    else if (f.pos < c.length) this.enter(c[f.pos++], "", false);
    else if (f.node.kind === Kind.Sequence) this.end(E.SequenceEnd, f);
    else this.documentEnd();
    return true;
  }

  /** A mapping's next key (the previous key's foot as its tail, its own foot withheld) or value. */
  private mappingStep(f: Frame, c: YNode[]): void {
    const child = c[f.pos];
    if (f.pos % 2 === 0) {
      if (f.pos + 1 >= c.length) {
        this.end(E.MappingEnd, f);
        return;
      }
      const tail = f.tail;
      f.tail = child.footComment;
      f.pos++;
      this.enter(child, tail, true);
    } else {
      f.pos++;
      this.enter(child, "", false);
    }
  }

  private documentEnd(): void {
    const e = this.ev.reset(E.DocumentEnd);
    e.implicit = true;
    e.foot = this.root.footComment;
    this.stack.length = 0;
  }

  private end(type: E, f: Frame): void {
    const e = this.ev.reset(type);
    if (type === E.MappingEnd) e.tail = f.tail;
    e.line = f.node.lineComment;
    e.foot = f.noFoot ? "" : f.node.footComment;
    this.stack.pop();
  }

  /** The first event of a node: a scalar or alias whole, or a collection's start. */
  private enter(node: YNode, tail: string, noFoot: boolean): void {
    const e = this.ev;
    if (node.kind === Kind.Alias) {
      e.reset(E.Alias);
      e.anchor = node.value;
      e.head = node.headComment;
      e.line = node.lineComment;
      e.foot = noFoot ? "" : node.footComment;
      return;
    }
    const tag = eventTag(node);
    if (node.kind === Kind.Scalar || node.kind === Kind.Document) {
      scalarEvent(e, node, tag, tail, noFoot);
      return;
    }
    const mapping = node.kind === Kind.Mapping;
    e.reset(mapping ? E.MappingStart : E.SequenceStart);
    e.anchor = node.anchor;
    e.tag = longTag(tag);
    e.implicit = tag === "";
    e.flow = (node.style & Style.Flow) !== 0;
    e.empty = mapping ? node.content.length < 2 : node.content.length === 0;
    if (mapping) e.tail = tail;
    e.head = node.headComment;
    this.stack.push({ node, pos: 0, tail: "", noFoot });
  }
}

/**
 * The scalar style yaml.v3's encoder asks for (`encode.go` node's ScalarNode case): the node's own
 * style, literal for a multi-line text, double-quoted when a `!!str` would read as another type.
 */
export function askedStyle(node: YNode, forceQuoting: boolean): SS {
  const st = node.style;
  if (st & Style.DoubleQuoted) return SS.Double;
  if (st & Style.SingleQuoted) return SS.Single;
  if (st & Style.Literal) return SS.Literal;
  if (st & Style.Folded) return SS.Folded;
  if (node.value.includes("\n")) return SS.Literal;
  return forceQuoting ? SS.Double : SS.Plain;
}

/** yaml.v3 encoder's scalar event: the style asked for, a multi-line text literal, forced quotes. */
function scalarEvent(e: Ev, node: YNode, tag: string, tail: string, noFoot: boolean): void {
  const value = node.value;
  const forceQuoting = tag === "\0";
  if (forceQuoting) tag = "";
  const style = askedStyle(node, forceQuoting);
  e.reset(E.Scalar);
  e.anchor = node.anchor;
  e.implicit = tag === "";
  e.quotedImplicit = tag === "";
  e.tag = tag === "" ? "" : longTag(tag);
  e.value = value;
  e.style = style;
  e.head = node.headComment;
  e.line = node.lineComment;
  e.foot = noFoot ? "" : node.footComment;
  e.tail = tail;
}
