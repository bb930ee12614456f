/**
 * The adapter from our node tree to the `yaml` package's Document that functions and builtins
 * edit: values resolved as the `yaml` core schema reads them (scalars keep their source text),
 * comments placed where the `yaml` package's own reader puts them (a comment above a key on the
 * key, above a nested collection's first item on the collection, below a block on it), so the
 * rest of the engine sees the Document it always saw.
 */
import { Alias, Document, isScalar, Pair, parseDocument, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { Kind, Style, type YNode } from "./node.js";

/** yaml.v3 comment text (`#` lines) as the `yaml` package holds it (without `#`); undefined for none. */
export function yamlComment(comment: string): string | undefined {
  if (comment === "") return undefined;
  let out = "";
  let start = 0;
  for (;;) {
    const end = comment.indexOf("\n", start);
    const line = end < 0 ? comment.slice(start) : comment.slice(start, end);
    if (start > 0) out += "\n";
    if (line.charCodeAt(0) === 35) out += line.length === 1 ? " " : line.slice(1);
    else out += line;
    if (end < 0) break;
    start = end + 1;
  }
  return out;
}

function join(a: string | null | undefined, b: string | null | undefined): string | undefined {
  if (!a) return b ?? undefined;
  if (!b) return a;
  return `${a}\n${b}`;
}

/** A foot comment and the next node's head comment: yaml.v3 writes a blank line between them. */
function joinApart(foot: string | undefined, head: string | undefined): string | undefined {
  if (foot === undefined) return head;
  if (head === undefined) return foot;
  return `${foot}\n\n${head}`;
}

const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_RE = /^[-+]?[0-9]+$/;
const OCT_RE = /^0o[0-7]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const NANINF_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/**
 * The schema `parseAllDocuments` gives collections, so `setIn` can create missing paths. Made at the
 * first use, not when this module loads: the CLI loads the `yaml` package only once it is used.
 */
let schema: Document["schema"] | undefined;
const SCHEMA = (): Document["schema"] => (schema ??= new Document().schema);

/**
 * A plain, untagged scalar's value as the `yaml` package's core schema reads it: null, a boolean, a
 * number or the text itself (what a builtin's Document form sees for that scalar).
 */
export function coreValue(text: string): unknown {
  const c = text.charCodeAt(0);
  // Only these first characters can start a non-string.
  if (
    !(
      c === 126 ||
      c === 110 ||
      c === 78 ||
      c === 116 ||
      c === 84 ||
      c === 102 ||
      c === 70 ||
      c === 43 ||
      c === 45 ||
      c === 46 ||
      (c >= 48 && c <= 57) ||
      text.length === 0
    )
  ) {
    return text;
  }
  if (NULL_RE.test(text)) return null;
  if (BOOL_RE.test(text)) return text.charCodeAt(0) === 116 || text.charCodeAt(0) === 84;
  if (INT_RE.test(text)) return Number.parseInt(text, 10);
  if (OCT_RE.test(text)) return Number.parseInt(text.slice(2), 8);
  if (HEX_RE.test(text)) return Number.parseInt(text.slice(2), 16);
  if (NANINF_RE.test(text)) {
    if (text.endsWith("nan") || text.endsWith("NaN") || text.endsWith("NAN")) return Number.NaN;
    return text.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (EXP_RE.test(text) || FLOAT_RE.test(text)) return Number.parseFloat(text);
  return text;
}

const LONG = "tag:yaml.org,2002:";

function longTagOf(tag: string): string {
  return tag.startsWith("!!") ? LONG + tag.slice(2) : tag;
}

/** An explicitly tagged scalar as the `yaml` package resolves its tag (`!!binary` to bytes...). */
function taggedScalar(n: YNode): Scalar {
  const parsed = parseDocument(`!<${longTagOf(n.tag)}> ${JSON.stringify(n.value)}`);
  const c = parsed.contents;
  return isScalar(c) ? new Scalar(c.value) : new Scalar(n.value);
}

/**
 * The value the `yaml` package's core schema reads for a scalar node (what {@link nodeToDocument}
 * gives its Scalar): a plain scalar resolved (`null`, booleans, numbers), a quoted or `!!str` one its
 * text, another explicit tag resolved as the `yaml` package resolves it.
 */
export function documentScalarValue(n: YNode): unknown {
  if ((n.style & Style.Tagged) !== 0 && n.tag !== "!!str") return taggedScalar(n).value;
  return untaggedValue(n);
}

/** A scalar node as a `yaml` Scalar: its value, style, source text, tag, anchor and line comment. */
export function toScalar(n: YNode): Scalar {
  if ((n.style & Style.Tagged) !== 0 && n.tag !== "!!str") {
    const s = taggedScalar(n);
    applyScalarStyle(s, n);
    return s;
  }
  const s = new Scalar(untaggedValue(n));
  applyScalarStyle(s, n);
  return s;
}

function untaggedValue(n: YNode): unknown {
  const plain =
    (n.style & (Style.DoubleQuoted | Style.SingleQuoted | Style.Literal | Style.Folded | Style.Tagged)) === 0;
  return plain ? coreValue(n.value) : n.value;
}

/**
 * The `value` of the `Scalar` that `nodeToDocument` makes of a scalar node (what `yaml`'s core
 * schema reads: a plain `1` is the number 1, a tagged `!!binary` bytes, a quoted text a string),
 * without making the Scalar for an untagged one.
 */
export function scalarValue(n: YNode): unknown {
  if ((n.style & Style.Tagged) !== 0 && n.tag !== "!!str") return taggedScalar(n).value;
  return untaggedValue(n);
}

function applyScalarStyle(s: Scalar, n: YNode): void {
  if (n.style & Style.DoubleQuoted) s.type = Scalar.QUOTE_DOUBLE;
  else if (n.style & Style.SingleQuoted) s.type = Scalar.QUOTE_SINGLE;
  else if (n.style & Style.Literal) s.type = Scalar.BLOCK_LITERAL;
  else if (n.style & Style.Folded) s.type = Scalar.BLOCK_FOLDED;
  else s.type = Scalar.PLAIN;
  (s as { source?: string }).source = n.value;
  if (n.style & Style.Tagged) s.tag = longTagOf(n.tag);
  if (n.anchor) s.anchor = n.anchor;
  const line = yamlComment(n.lineComment);
  if (line !== undefined) s.comment = line;
}

function toNode(n: YNode): Scalar | YAMLMap | YAMLSeq | Alias {
  switch (n.kind) {
    case Kind.Mapping:
      return toMap(n);
    case Kind.Sequence:
      return toSeq(n);
    case Kind.Alias: {
      const a = new Alias(n.value);
      const line = yamlComment(n.lineComment);
      if (line !== undefined) a.comment = line;
      return a;
    }
    default:
      return toScalar(n);
  }
}

function isBlock(n: YNode): boolean {
  return (n.kind === Kind.Mapping || n.kind === Kind.Sequence) && (n.style & Style.Flow) === 0;
}

function collection<T extends YAMLMap | YAMLSeq>(c: T, n: YNode): T {
  if (n.style & Style.Flow) c.flow = true;
  if (n.style & Style.Tagged) c.tag = longTagOf(n.tag);
  if (n.anchor) c.anchor = n.anchor;
  return c;
}

/**
 * Foot comments end up where the `yaml` package's reader puts comment lines below a block: on the
 * block (its trailing comment) after its last item, else on the next item.
 */
function toMap(n: YNode): YAMLMap {
  const map = collection(new YAMLMap(SCHEMA()), n);
  const c = n.content;
  let carry: string | undefined;
  for (let i = 0; i + 1 < c.length; i += 2) {
    const kn = c[i];
    const vn = c[i + 1];
    const key = toNode(kn);
    const head = joinApart(carry, yamlComment(kn.headComment));
    carry = undefined;
    if (head !== undefined) key.commentBefore = head;
    const value = toNode(vn);
    if (isBlock(vn)) {
      // A comment on a `key:` line whose value is a block collection stays on the key.
      if (kn.lineComment !== "" && !(key as Scalar).comment)
        (key as Scalar).comment = yamlComment(kn.lineComment);
      moveFirstHead(value as YAMLMap | YAMLSeq);
    } else if (kn.lineComment !== "" && !value.comment) value.comment = yamlComment(kn.lineComment);
    const foot = yamlComment(kn.footComment);
    if (foot !== undefined) {
      if (i + 2 < c.length) carry = foot;
      else map.comment = join(map.comment, foot) ?? null;
    }
    map.items.push(new Pair(key, value));
  }
  if (carry !== undefined) map.comment = join(map.comment, carry) ?? null;
  const line = yamlComment(n.lineComment);
  if (line !== undefined && n.style & Style.Flow) map.comment = join(line, map.comment) ?? null;
  const foot = yamlComment(n.footComment);
  if (foot !== undefined) map.comment = join(map.comment, foot) ?? null;
  return map;
}

/** A nested block collection's first item's head comment is the collection's own (the `yaml` reader). */
function moveFirstHead(value: YAMLMap | YAMLSeq): void {
  const first = value.items[0] as unknown;
  if (!first) return;
  const holder = value instanceof YAMLMap ? (first as Pair).key : first;
  if (holder && typeof holder === "object" && "commentBefore" in (holder as object)) {
    const h = holder as Scalar;
    if (h.commentBefore && value instanceof YAMLSeq) {
      value.commentBefore = join(h.commentBefore, value.commentBefore) ?? null;
      h.commentBefore = undefined;
    } else if (h.commentBefore) {
      value.commentBefore = join(h.commentBefore, value.commentBefore) ?? null;
      h.commentBefore = undefined;
    }
  }
}

function toSeq(n: YNode): YAMLSeq {
  const seq = collection(new YAMLSeq(SCHEMA()), n);
  let carry: string | undefined;
  const c = n.content;
  for (let i = 0; i < c.length; i++) {
    const item = toNode(c[i]);
    const head = joinApart(carry, yamlComment(c[i].headComment));
    carry = undefined;
    if (head !== undefined) item.commentBefore = join(head, item.commentBefore) ?? null;
    if (isBlock(c[i])) moveItemHead(item as YAMLMap | YAMLSeq);
    const foot = yamlComment(c[i].footComment);
    if (foot !== undefined) {
      if (i + 1 < c.length) carry = foot;
      else seq.comment = join(seq.comment, foot) ?? null;
    }
    seq.items.push(item);
  }
  const line = yamlComment(n.lineComment);
  if (line !== undefined && n.style & Style.Flow) seq.comment = join(line, seq.comment) ?? null;
  const foot = yamlComment(n.footComment);
  if (foot !== undefined) seq.comment = join(seq.comment, foot) ?? null;
  return seq;
}

/** `- # note` then `  key: v`: the `yaml` reader keeps the note on the item. */
function moveItemHead(_item: YAMLMap | YAMLSeq): void {}

/**
 * A `yaml` Document for one of our document nodes (as `parseAllDocuments` would have read it, with
 * the fix-ups src/krm/yaml-io.ts applies to the yaml package's comment placement).
 */
export function nodeToDocument(d: YNode): Document {
  const doc = new Document();
  const root = d.content[0];
  const contents = root ? toNode(root) : new Scalar(null);
  const head = yamlComment(d.headComment);
  if (root && isBlock(root) && d.value === "---") {
    // After a `---` line the `yaml` reader gives the comment above the first key to the collection.
    const first =
      root.kind === Kind.Mapping ? (contents as YAMLMap).items[0]?.key : (contents as YAMLSeq).items[0];
    if (first && typeof first === "object" && (first as Scalar).commentBefore) {
      contents.commentBefore = join((first as Scalar).commentBefore, contents.commentBefore) ?? null;
      (first as Scalar).commentBefore = undefined;
    }
    if (head !== undefined) doc.commentBefore = head;
  } else if (root && isBlock(root)) {
    // The document's head comment and the first key's are one comment on the first key, a blank line apart.
    const first =
      root.kind === Kind.Mapping ? (contents as YAMLMap).items[0]?.key : (contents as YAMLSeq).items[0];
    const f = first && typeof first === "object" ? (first as Scalar) : undefined;
    if (head !== undefined && f?.commentBefore) f.commentBefore = `${head}\n\n${f.commentBefore}`;
    else if (head !== undefined) doc.commentBefore = head;
  } else if (head !== undefined) doc.commentBefore = head;
  if (root && root.headComment !== "" && !isBlock(root))
    contents.commentBefore = join(yamlComment(root.headComment), contents.commentBefore) ?? null;
  doc.contents = contents as never;
  const foot = yamlComment(d.footComment);
  if (foot !== undefined) doc.comment = `\n${foot}`;
  if (isBlock(root ?? ({} as YNode)) && contents.comment && root.kind === Kind.Mapping) {
    // The root's trailing comment is the document's foot comment (see restoreDocumentFoot).
    doc.comment = doc.comment ? `${contents.comment}\n${doc.comment}` : contents.comment;
    contents.comment = null;
  }
  return doc;
}
