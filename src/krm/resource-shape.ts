/**
 * A resource's shape: what kyaml's `CopyComments` and `SyncOrder` (./comments.ts, ./field-order.ts)
 * read of a function's input resource — comments, map keys in order, list items, the `name` of list
 * items that are maps, the text of list items that are scalars — taken before the function runs, so
 * the function may edit the resource itself instead of a copy. Far smaller than a copy: one object
 * and one or two arrays per collection, nothing for a scalar without comments in a map.
 */
import { type Document, isMap, isNode, isScalar, isSeq, type YAMLMap, type YAMLSeq } from "yaml";

/** A value that is not a node (a plain value a function stored in a collection). */
export const NOT_NODE: unique symbol = Symbol("not a node");

/** A scalar without comments: its text (`String(value)`) in a list, `BARE` elsewhere. */
export const BARE = "";

/** Shape kinds: scalar, map, list, another node (an alias). */
export const ShapeKind = { Scalar: 0, Map: 1, Seq: 2, Other: 3 } as const;

/** A node with comments, not a collection: a scalar (with its text) or another node (an alias). */
export interface LeafShape {
  kind: typeof ShapeKind.Scalar | typeof ShapeKind.Other;
  commentBefore: string | null | undefined;
  comment: string | null | undefined;
  /** `String(value)` of a scalar in a list (what CopyComments compares), else `BARE`. */
  text: string;
}

/** A map's keys, key comments and values in order. */
export interface MapShape {
  kind: typeof ShapeKind.Map;
  commentBefore: string | null | undefined;
  comment: string | null | undefined;
  /** Each pair's key as SyncOrder reads it (`String` of a scalar's value or a plain string/number/boolean). */
  keys: (string | undefined)[];
  /** Each pair's key as CopyComments reads it (differs from `keys` for a plain number or boolean key only). */
  texts: (string | undefined)[];
  /** Comments of key nodes that have any, by position (undefined when none has). */
  keyComments: (KeyComments | undefined)[] | undefined;
  values: Shape[];
  /** The value of a `name` field, for a map that is a list item (how CopyComments matches list items). */
  name: string | undefined;
  /** First position of each key in `texts`, built when a large map is searched. */
  index?: Map<string, number>;
  /** Whether the map, a key or a value below it has a comment (none: nothing to copy from it). */
  commented: boolean;
}

/** Comments of a key node. */
export interface KeyComments {
  commentBefore: string | null | undefined;
  comment: string | null | undefined;
}

/** A list's items in order. */
export interface SeqShape {
  kind: typeof ShapeKind.Seq;
  commentBefore: string | null | undefined;
  comment: string | null | undefined;
  items: Shape[];
  /** Whether the list or an item below it has a comment. */
  commented: boolean;
}

/** The shape of one value: a scalar's text when it has no comments, `NOT_NODE`, or an object. */
export type Shape = string | typeof NOT_NODE | LeafShape | MapShape | SeqShape;

/** A document's shape: its own comments and its contents'. */
export interface DocumentShape {
  commentBefore: string | null | undefined;
  comment: string | null | undefined;
  contents: Shape;
}

/** The shape of a document (see the module comment). */
export function documentShape(doc: Document): DocumentShape {
  return { commentBefore: doc.commentBefore, comment: doc.comment, contents: shapeOf(doc.contents, false) };
}

/** Whether a value is a `DocumentShape` (rather than a document). */
export function isDocumentShape(value: unknown): value is DocumentShape {
  return (
    typeof value === "object" &&
    value !== null &&
    "contents" in value &&
    !isNode(value) &&
    !("schema" in value)
  );
}

function keyOf(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  if (typeof key === "string" || typeof key === "number" || typeof key === "boolean") return String(key);
  return undefined;
}

/** The shape of a value; `inList`: it is a list item (a scalar keeps its text, a map its `name`). */
export function shapeOf(node: unknown, inList: boolean): Shape {
  if (isScalar(node)) {
    const { commentBefore, comment } = node;
    const text = inList ? String(node.value) : BARE;
    if (!commentBefore && !comment) return text;
    return { kind: ShapeKind.Scalar, commentBefore, comment, text };
  }
  if (isMap(node)) return mapShape(node, inList);
  if (isSeq(node)) return seqShape(node);
  if (isNode(node)) {
    return { kind: ShapeKind.Other, commentBefore: node.commentBefore, comment: node.comment, text: BARE };
  }
  return NOT_NODE;
}

/** A map's shape: its keys (and their texts when not all plain), key comments, values, `name`. */
function mapShape(node: YAMLMap, inList: boolean): Shape {
  const items = node.items;
  const n = items.length;
  const keys: (string | undefined)[] = new Array(n);
  const values: Shape[] = new Array(n);
  let texts = keys;
  let keyComments: (KeyComments | undefined)[] | undefined;
  let name: string | undefined;
  let named = false;
  let commented = Boolean(node.commentBefore || node.comment);
  for (let i = 0; i < n; i++) {
    const pair = items[i];
    const key: unknown = pair.key;
    const k = keyOf(key);
    keys[i] = k;
    if (k !== undefined && !isScalar(key) && typeof key !== "string") {
      if (texts === keys) texts = keys.slice(0, i);
    }
    if (texts !== keys) texts[i] = isScalar(key) || typeof key === "string" ? k : undefined;
    if (isNode(key) && (key.commentBefore || key.comment)) {
      keyComments ??= new Array(n);
      keyComments[i] = { commentBefore: key.commentBefore, comment: key.comment };
      commented = true;
    }
    values[i] = shapeOf(pair.value, false);
    if (!commented && isCommented(values[i])) commented = true;
    // YAMLMap.get("name", true): the first pair whose key is "name", its value if a scalar.
    if (inList && !named && (key === "name" || (isScalar(key) && key.value === "name"))) {
      named = true;
      const value: unknown = pair.value;
      name = isScalar(value) ? String(value.value) : undefined;
    }
  }
  return {
    kind: ShapeKind.Map,
    commentBefore: node.commentBefore,
    comment: node.comment,
    keys,
    texts,
    keyComments,
    values,
    name,
    commented,
  };
}

/** A list's shape: each item's shape. */
function seqShape(node: YAMLSeq): Shape {
  const items = node.items as unknown[];
  const shapes: Shape[] = new Array(items.length);
  let commented = Boolean(node.commentBefore || node.comment);
  for (let i = 0; i < items.length; i++) {
    shapes[i] = shapeOf(items[i], true);
    if (!commented && isCommented(shapes[i])) commented = true;
  }
  const { commentBefore, comment } = node;
  return { kind: ShapeKind.Seq, commentBefore, comment, items: shapes, commented };
}

/** Whether a shape holds a comment anywhere (a leaf shape exists only for a node with comments). */
export function isCommented(shape: Shape | undefined): boolean {
  if (typeof shape !== "object") return false;
  return shape.kind === ShapeKind.Map || shape.kind === ShapeKind.Seq ? shape.commented : true;
}

/** A shape's comment before (none for a scalar without comments or a plain value). */
export function commentBeforeOf(shape: Shape | undefined): string | null | undefined {
  return typeof shape === "object" ? shape.commentBefore : undefined;
}

/** A shape's line comment. */
export function commentOf(shape: Shape | undefined): string | null | undefined {
  return typeof shape === "object" ? shape.comment : undefined;
}

/** Whether the shape is a scalar's (with or without comments). */
export function isScalarShape(shape: Shape | undefined): shape is string | LeafShape {
  return typeof shape === "string" || (typeof shape === "object" && shape.kind === ShapeKind.Scalar);
}

/** The text of a list item scalar's shape. */
export function scalarText(shape: string | LeafShape): string {
  return typeof shape === "string" ? shape : shape.text;
}

/** Whether the shape is a map's. */
export function isMapShape(shape: Shape | undefined): shape is MapShape {
  return typeof shape === "object" && shape.kind === ShapeKind.Map;
}

/** Whether the shape is a list's. */
export function isSeqShape(shape: Shape | undefined): shape is SeqShape {
  return typeof shape === "object" && shape.kind === ShapeKind.Seq;
}

/** Position of the first pair whose key CopyComments reads as `key`, or -1. */
export function keyPosition(map: MapShape, key: string): number {
  const texts = map.texts;
  if (texts.length <= 16) return texts.indexOf(key);
  if (!map.index) {
    map.index = new Map();
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i];
      if (t !== undefined && !map.index.has(t)) map.index.set(t, i);
    }
  }
  return map.index.get(key) ?? -1;
}
