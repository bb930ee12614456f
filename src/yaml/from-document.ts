/**
 * The adapter from the `yaml` package's Document (what functions and builtins edit) to our node tree,
 * so our writer can write it: each node's comments, styles and text mapped to what yaml.v3 would
 * hold for it, written the way kyaml writes a document a function changed — no blank lines between
 * nodes, Go's quoting of new strings, scalars keep their source text, folded blocks double-quoted.
 */
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  Scalar,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { emitDocument } from "./emitter.js";
import { fromScalar, goComment, joinComments, shortTagOf } from "./from-document-scalar.js";
import { Kind, Style, YNode } from "./node.js";

function fromValue(value: unknown, doc: Document): YNode {
  if (isScalar(value)) return fromScalar(value);
  if (isMap(value)) return fromMap(value, doc);
  if (isSeq(value)) return fromSeq(value, doc);
  if (isAlias(value)) {
    const n = new YNode(Kind.Alias, "", value.source);
    n.lineComment = goComment(value.comment);
    return n;
  }
  if (value === null || value === undefined) return fromScalar(new Scalar(null));
  // A plain JS value a function stored in a collection.
  return fromValue(doc.createNode(value), doc);
}

function collectionBase(node: YAMLMap | YAMLSeq, kind: Kind): YNode {
  const n = new YNode(kind, kind === Kind.Mapping ? "!!map" : "!!seq");
  const tag = shortTagOf(node.tag);
  if (tag && tag !== n.tag) {
    n.tag = tag;
    n.style = Style.Tagged;
  }
  if (node.flow) n.style |= Style.Flow;
  if (node.anchor) n.anchor = node.anchor;
  return n;
}

/** The first node of a collection's content, whose head comment a comment before the collection joins. */
function firstHeadHolder(n: YNode): YNode | undefined {
  return n.content[0];
}

function fromMap(node: YAMLMap, doc: Document): YNode {
  const n = collectionBase(node, Kind.Mapping);
  let pendingHead = "";
  for (const item of node.items as Pair[]) {
    const key = isPair(item) ? item.key : item;
    const k = fromValue(key, doc);
    const keyNode = key as Node | null;
    if (keyNode && typeof keyNode === "object") {
      k.headComment = goComment(keyNode.commentBefore);
      if (keyNode.comment) k.lineComment = goComment(keyNode.comment);
    }
    if (pendingHead !== "") {
      k.headComment = joinComments(pendingHead, k.headComment);
      pendingHead = "";
    }
    const value = isPair(item) ? item.value : null;
    const v = fromValue(value, doc);
    const before = value && typeof value === "object" ? goComment((value as Node).commentBefore) : "";
    if (before !== "") {
      const holder =
        (v.kind === Kind.Mapping || v.kind === Kind.Sequence) && (v.style & Style.Flow) === 0
          ? firstHeadHolder(v)
          : undefined;
      if (holder) holder.headComment = joinComments(before, holder.headComment);
      else k.headComment = joinComments(k.headComment, before);
    }
    const trailing = value && (isMap(value) || isSeq(value)) && !value.flow ? goComment(value.comment) : "";
    n.content.push(k, v);
    if (trailing !== "") {
      // Below a sequence whose last item is a collection, yaml.v3 holds it as the key's foot comment.
      const last = v.content[v.content.length - 1];
      // Below a sequence whose last item is a collection it heads the next key (yaml.v3's reading),
      // or is the key's foot comment when none follows.
      if (v.kind === Kind.Sequence && last && (last.kind === Kind.Mapping || last.kind === Kind.Sequence)) {
        pendingHead = trailing;
      } else setTrailing(v, k, trailing);
    }
  }
  if (pendingHead !== "" && n.content.length > 0) {
    const lastKey = n.content[n.content.length - 2];
    lastKey.footComment = joinComments(lastKey.footComment, pendingHead);
  }
  if (node.flow) n.lineComment = goComment(node.comment);
  return n;
}

/**
 * A trailing comment of a block collection (`yaml` prints it below its items at their indentation):
 * yaml.v3 holds it as the foot comment of the collection's last key or item.
 */
function setTrailing(collection: YNode, _key: YNode, comment: string): void {
  const c = collection.content;
  if (c.length === 0) return;
  const last = collection.kind === Kind.Mapping ? c[c.length - 2] : c[c.length - 1];
  last.footComment = joinComments(last.footComment, comment);
}

function fromSeq(node: YAMLSeq, doc: Document): YNode {
  const n = collectionBase(node, Kind.Sequence);
  for (const item of node.items) {
    const v = fromValue(item, doc);
    if (item && typeof item === "object") {
      const before = goComment((item as Node).commentBefore);
      if (before !== "") v.headComment = joinComments(before, v.headComment);
      if ((isMap(item) || isSeq(item)) && !item.flow && item.comment)
        setTrailing(v, v, goComment(item.comment));
    }
    n.content.push(v);
  }
  if (node.flow) n.lineComment = goComment(node.comment);
  return n;
}

/**
 * Our node tree for a `yaml` Document, ready for `printDocument` to write it as kyaml writes a
 * changed document (see the module comment). Does not modify the Document.
 */
export function documentToNode(doc: Document): YNode {
  const d = new YNode(Kind.Document);
  const contents = doc.contents as unknown;
  const root = fromValue(contents, doc);
  const rootBefore =
    contents && typeof contents === "object" ? goComment((contents as Node).commentBefore) : "";
  const head = goComment(doc.commentBefore);
  if (rootBefore !== "") {
    const holder =
      (root.kind === Kind.Mapping || root.kind === Kind.Sequence) && (root.style & Style.Flow) === 0
        ? root.content[0]
        : undefined;
    if (holder) holder.headComment = joinComments(rootBefore, holder.headComment);
    else root.headComment = joinComments(rootBefore, root.headComment);
  }
  d.headComment = head;
  if (contents && (isMap(contents) || isSeq(contents)) && !contents.flow && contents.comment) {
    setTrailing(root, root, goComment(contents.comment));
  }
  d.content.push(root);
  d.footComment = goComment(doc.comment);
  return d;
}

/**
 * A changed document's text as kyaml writes it (what `serializeChanged` wrote through the `yaml`
 * package): our writer for the content, the document's trailing comment right after it (a blank line
 * only where one set it apart in the source).
 */
export function writeDocument(doc: Document, compactSeq: boolean): string {
  const node = documentToNode(doc);
  node.footComment = "";
  const text = emitDocumentText(node, compactSeq);
  const foot = doc.comment;
  if (!foot) return text;
  const lead = foot.startsWith("\n") ? "\n" : "";
  const body = foot.replace(/^\n+|\n+$/g, "");
  return `${text}${lead}${body
    .split("\n")
    .map((line) => (line === "" ? "" : `#${line}`))
    .join("\n")}\n`;
}

function emitDocumentText(node: YNode, compactSeq: boolean): string {
  return emitDocument(node, { compactSeq, indent: 2 });
}
