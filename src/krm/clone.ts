/**
 * Fast deep copies of `yaml` documents. The package's own `clone()` copies every node with
 * `Object.create(proto, getOwnPropertyDescriptors(node))`, which is slow and leaves objects V8 accesses
 * slowly afterwards; the engine copies every resource it hands to a function, so it uses this instead.
 * The copy is equivalent to `clone()`: same classes, same own fields (comments, styles, source text,
 * ranges), nodes not shared; the copy shares the original's schema (no caller mutates a schema in place).
 */
import { type Document, isMap, isNode, isPair, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";

type Schema = Document["schema"];

type Fields = Record<string, unknown>;

function copyRange(from: { range?: unknown }, to: { range?: unknown }): void {
  const range = from.range as [number, number, number] | undefined | null;
  if (range) to.range = [range[0], range[1], range[2]];
}

/** A deep copy of a node (or of a plain value, returned as is) whose collections use `schema`. */
export function cloneNode<T>(node: T, schema: Schema): T {
  if (isScalar(node)) {
    if (node.constructor !== Scalar) return node.clone() as T;
    const copy = Object.assign(new Scalar(node.value), node);
    copyRange(node, copy);
    return copy as T;
  }
  if (isMap(node) || isSeq(node)) {
    const plain = isMap(node) ? node.constructor === YAMLMap : node.constructor === YAMLSeq;
    if (!plain) return node.clone(schema) as T;
    const copy = Object.assign(isMap(node) ? new YAMLMap(schema) : new YAMLSeq(schema), node);
    const items = node.items as unknown[];
    const cloned = new Array(items.length);
    for (let i = 0; i < items.length; i++) cloned[i] = cloneNode(items[i], schema);
    copy.items = cloned as typeof copy.items;
    copyRange(node, copy);
    return copy as T;
  }
  if (isPair(node)) {
    const copy = new Pair(cloneNode(node.key, schema), cloneNode(node.value, schema));
    for (const key of Object.keys(node)) {
      if (key !== "key" && key !== "value")
        (copy as unknown as Fields)[key] = (node as unknown as Fields)[key];
    }
    return copy as T;
  }
  if (isNode(node)) return node.clone() as T;
  return node;
}

/** A deep copy of a document: what `doc.clone()` returns, faster (see the module comment). */
export function cloneDocument(doc: Document): Document {
  const contents = doc.contents;
  doc.contents = null;
  let copy: Document;
  try {
    copy = doc.clone();
  } finally {
    doc.contents = contents;
  }
  copy.schema = doc.schema;
  copy.contents = cloneNode(contents, doc.schema);
  return copy;
}
