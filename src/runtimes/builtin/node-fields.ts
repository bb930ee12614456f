/**
 * The node form of yaml-nodes.ts: reads and edits of resources held as our YAML layer's `YNode`s
 * (yaml.v3-shaped, as kyaml's filters edit `yaml.Node`s in place), giving the nodes the Document form
 * gives after its trip back through src/yaml/from-document.ts — so a builtin's `runNodes` writes the
 * bytes its `run` writes. Values read as the `yaml` core schema reads them (`010` is "10", `~` is
 * absent), edited scalars keep their node (comments, anchor, quotes), new keys and maps go to the end
 * of their mapping as kyaml's PathGetter appends them. {@link Fields} is the access both forms share,
 * so a builtin's logic is written once over either.
 */
import { isMap, Scalar } from "yaml";
import { fromScalar } from "../../yaml/from-document-scalar.js";
import { Kind, Style, YNode } from "../../yaml/node.js";
import { longTag, resolvePlain } from "../../yaml/resolve.js";
import { coreValue, toScalar } from "../../yaml/to-document.js";
import {
  ensureMap,
  getAnnotation,
  getMap,
  getNode,
  getSeq,
  getString,
  setMapString,
  setScalarText,
  setString,
  type YamlHolder,
} from "./yaml-nodes.js";

/**
 * Field access over one form of a resource (`H`: a Document and its nodes, or a `YNode`): what the
 * builtins written over both forms ask. Paths are mapping keys from the holder (a document or a map).
 */
export interface Fields<H> {
  /** The scalar's string at `path` (numbers and booleans as the core schema reads them), or undefined. */
  string(holder: H, path: readonly string[]): string | undefined;
  /** Whether the last key of `path` is present (any value, null included). */
  exists(holder: H, path: readonly string[]): boolean;
  /** The mapping at `path`, or undefined. */
  map(holder: H, path: readonly string[]): H | undefined;
  /** The mapping items of the sequence at `path` (none when absent or not a sequence). */
  mapItems(holder: H, path: readonly string[]): H[];
  /** The mapping at `path`, created (appended) where missing or null; undefined when a value is in the way. */
  ensureMap(holder: H, path: readonly string[]): H | undefined;
  /** Sets `key` of a mapping to a string, keeping an existing scalar's node. */
  setMapString(map: H, key: string, value: string): void;
  /** Sets the string at `path`, creating parent maps; false when a non-map is in the way. */
  setString(holder: H, path: readonly string[], value: string): boolean;
  /** The annotation's value (`metadata.annotations[key]`), or undefined. */
  annotation(holder: H, key: string): string | undefined;
}

/** {@link Fields} over `yaml` Documents (the functions of yaml-nodes.ts). */
export const documentFields: Fields<YamlHolder> = {
  string: getString,
  exists: (holder, path) => getNode(holder, path) !== undefined,
  map: getMap,
  mapItems: (holder, path) => (getSeq(holder, path)?.items ?? []).filter((item) => isMap(item)),
  ensureMap,
  setMapString: (map, key, value) => {
    if (isMap(map)) setMapString(map, key, value);
  },
  setString,
  annotation: getAnnotation,
};

/** {@link Fields} over document nodes (the functions below). */
export const nodeFields: Fields<YNode> = {
  string: (holder, path) => nodeString(nodeAt(holder, path)),
  exists: (holder, path) => nodeAt(holder, path) !== undefined,
  map: mapAt,
  mapItems: (holder, path) => {
    const seq = nodeAt(holder, path);
    return seq?.kind === Kind.Sequence ? seq.content.filter((n) => n.kind === Kind.Mapping) : [];
  },
  ensureMap: ensureMapNode,
  setMapString: setMapStringNode,
  setString: setStringNode,
  annotation: annotationNode,
};

/** A document node's content (the node itself when it is not a document). */
export function rootOf(holder: YNode): YNode | undefined {
  return holder.kind === Kind.Document ? holder.content[0] : holder;
}

const QUOTED_OR_BLOCK = Style.DoubleQuoted | Style.SingleQuoted | Style.Literal | Style.Folded;

/** A bounded memo of a pure function of a string (the texts builtins write repeat: keys, label values). */
function memo<T>(compute: (text: string) => T): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    let v = cache.get(text);
    if (v === undefined) {
      if (cache.size >= 4096) cache.clear();
      v = compute(text);
      cache.set(text, v);
    }
    return v;
  };
}

const readsAsStringMemo = memo((text) => typeof coreValue(text) === "string");

/**
 * Whether a plain text surely reads as a string by its first character: a-z and A-Z but n, t, f, N,
 * T, F (null, booleans); the core schema's other non-strings start with a digit or a sign.
 */
function startsAsString(text: string): boolean {
  const c = text.charCodeAt(0);
  const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return letter && c !== 110 && c !== 116 && c !== 102 && c !== 78 && c !== 84 && c !== 70;
}

/** Whether a plain text reads as a string. */
function readsAsString(text: string): boolean {
  return startsAsString(text) || readsAsStringMemo(text);
}

/** A plain scalar's text as the Document form reads it: its string, or null for a null. */
const plainString = memo((text): string | null => {
  const v = coreValue(text);
  return v === null ? null : String(v);
});

/** Whether a key node reads as the string `key` (a plain `1` or `true` key is no string key). */
function isKey(node: YNode, key: string): boolean {
  if (node.kind !== Kind.Scalar || node.value !== key) return false;
  if ((node.style & (QUOTED_OR_BLOCK | Style.Tagged)) !== 0) return true;
  return readsAsString(key);
}

/** The index in `map.content` of the value under `key` (the first when a key repeats), or -1. */
export function fieldIndex(map: YNode, key: string): number {
  if (map.kind !== Kind.Mapping) return -1;
  const c = map.content;
  for (let i = 0; i + 1 < c.length; i += 2) if (isKey(c[i], key)) return i + 1;
  return -1;
}

/** The node at a path of mapping keys below a document or node, or undefined. */
export function nodeAt(holder: YNode | undefined, path: readonly string[]): YNode | undefined {
  let cur = holder && rootOf(holder);
  for (const key of path) {
    if (!cur || cur.kind !== Kind.Mapping) return undefined;
    const i = fieldIndex(cur, key);
    cur = i < 0 ? undefined : cur.content[i];
  }
  return cur;
}

/** The mapping at `path`, or undefined. */
export function mapAt(holder: YNode | undefined, path: readonly string[] = []): YNode | undefined {
  const n = nodeAt(holder, path);
  return n?.kind === Kind.Mapping ? n : undefined;
}

const TAGGED_CORE = new Set(["!!null", "!!bool", "!!int", "!!float"]);

/** A scalar's value as the `yaml` core schema reads it (what a Document holds), or undefined if not a scalar. */
function coreOf(node: YNode): unknown {
  if ((node.style & Style.Tagged) !== 0 && node.tag !== "!!str") {
    return TAGGED_CORE.has(node.tag) ? coreValue(node.value) : node.value;
  }
  if ((node.style & (QUOTED_OR_BLOCK | Style.Tagged)) !== 0) return node.value;
  return coreValue(node.value);
}

/** The string form of a scalar node as the Document form reads it (null and collections: undefined). */
export function nodeString(node: YNode | undefined): string | undefined {
  if (!node || node.kind !== Kind.Scalar) return undefined;
  if ((node.style & (QUOTED_OR_BLOCK | Style.Tagged)) === 0) {
    // Most texts (names, kinds) are strings by their first character: no memo entry for each.
    const text = node.value;
    return startsAsString(text) ? text : (plainString(text) ?? undefined);
  }
  const v = coreOf(node);
  return v === null ? undefined : String(v);
}

/** A map key's text as a field-path segment (the Document form's `String(key.value)`). */
export function keyString(node: YNode): string {
  return node.kind === Kind.Scalar ? String(coreOf(node)) : node.value;
}

/** Whether a node is absent or a null scalar. */
export function isNullNode(node: YNode | undefined): boolean {
  return node === undefined || (node.kind === Kind.Scalar && coreOf(node) === null);
}

/** The tag and style of a new string scalar (the Document form's, from-document.ts's `fromScalar`). */
const goString = memo((value) => {
  const n = fromScalar(new Scalar(value));
  return { tag: n.tag, style: n.style };
});

/** A new string scalar as yaml.v3's encoder holds a marshalled Go string (Go's choice of quoting). */
export function stringNode(value: string): YNode {
  const { tag, style } = goString(value);
  const n = new YNode(Kind.Scalar, tag, value);
  n.style = style;
  return n;
}

/**
 * The mapping at `path` below a document or node, creating missing (or null) mappings on the way:
 * a missing key is appended to its parent, a null value replaced (kyaml's PathGetter). Undefined
 * when the root or a value on the way is not a mapping.
 */
export function ensureMapNode(holder: YNode, path: readonly string[]): YNode | undefined {
  const root = rootOf(holder);
  if (!root || root.kind !== Kind.Mapping) return undefined;
  let cur: YNode = root;
  for (const key of path) {
    const i = fieldIndex(cur, key);
    const next: YNode | undefined = i < 0 ? undefined : cur.content[i];
    if (next?.kind === Kind.Mapping) {
      cur = next;
      continue;
    }
    if (!isNullNode(next)) return undefined;
    const created = new YNode(Kind.Mapping, "!!map");
    if (i < 0) cur.content.push(stringNode(key), created);
    else cur.content[i] = created;
    cur = created;
  }
  return cur;
}

/**
 * Sets a scalar node to a string in place (comments and anchor kept): double or single quotes
 * stay, any other style becomes Go's choice for the text; an explicit tag other than `!!str` stays.
 */
export function setScalarString(node: YNode, value: string): void {
  if ((node.style & (Style.DoubleQuoted | Style.SingleQuoted | Style.Tagged)) === 0) {
    const { tag, style } = goString(value);
    node.value = value;
    node.tag = tag;
    node.style = style;
    return;
  }
  const s = new Scalar(value);
  if (node.style & Style.DoubleQuoted) s.type = Scalar.QUOTE_DOUBLE;
  else if (node.style & Style.SingleQuoted) s.type = Scalar.QUOTE_SINGLE;
  if (node.style & Style.Tagged) s.tag = longTag(node.tag);
  copyScalar(node, fromScalar(s));
}

/**
 * Sets a scalar's text the way kyaml does (`node.Value = text; node.Tag = ""`), as
 * {@link setScalarText} does on a Document scalar: a quoted or block scalar stays a string in its
 * style, a plain one is re-resolved (`3` an int, `true` a bool), an empty text becomes `""`.
 */
export function setScalarTextNode(node: YNode, text: string): void {
  if ((node.style & Style.Tagged) !== 0) {
    copyScalar(node, scalarTextEdit(node, text));
    return;
  }
  // Untagged, the outcome depends on the style, the current text (a number's source) and the text.
  const key = `${node.style}:${node.value.length}:${node.value}${text}`;
  let edit = textEdits.get(key);
  if (edit === undefined) {
    if (textEdits.size >= 4096) textEdits.clear();
    edit = scalarTextEdit(node, text);
    textEdits.set(key, edit);
  }
  copyScalar(node, edit);
}

/** {@link setScalarTextNode}'s outcomes for untagged scalars (see its key), bounded. */
const textEdits = new Map<string, YNode>();

/** The scalar {@link setScalarTextNode} makes of `node` (a new node; `node` is not changed). */
function scalarTextEdit(node: YNode, text: string): YNode {
  const s = toScalar(node);
  const plain = (node.style & QUOTED_OR_BLOCK) === 0;
  const core = plain && text !== "" && resolvePlain(text) !== "!!str" ? coreValue(text) : "";
  // A plain text reading as null, a bool or a number: the value setScalarText would parse it to.
  if (typeof core !== "string") s.value = core;
  else setScalarText(s, text);
  return fromScalar(s);
}

function copyScalar(node: YNode, from: YNode): void {
  node.kind = Kind.Scalar;
  node.value = from.value;
  node.tag = from.tag;
  node.style = from.style;
  node.content = [];
}

/** Sets `key` of a mapping node to a string: an existing scalar is edited in place, another value replaced. */
export function setMapStringNode(map: YNode, key: string, value: string): void {
  const i = fieldIndex(map, key);
  if (i < 0) map.content.push(stringNode(key), stringNode(value));
  else if (map.content[i].kind === Kind.Scalar) setScalarString(map.content[i], value);
  else map.content[i] = stringNode(value);
}

/** Sets the string at `path` (parent maps created); false when a non-map value is in the way. */
export function setStringNode(holder: YNode, path: readonly string[], value: string): boolean {
  const parent = ensureMapNode(holder, path.slice(0, -1));
  if (!parent) return false;
  setMapStringNode(parent, path[path.length - 1], value);
  return true;
}

/** The annotation's value, or undefined. */
export function annotationNode(holder: YNode, key: string): string | undefined {
  const ann = nodeAt(holder, ANNOTATIONS);
  if (!ann || ann.kind !== Kind.Mapping) return undefined;
  const i = fieldIndex(ann, key);
  return i < 0 ? undefined : nodeString(ann.content[i]);
}

const ANNOTATIONS = ["metadata", "annotations"];

/** kpt's local-config test: annotation `config.kubernetes.io/local-config` set and not "false". */
export function isLocalConfigNode(holder: YNode): boolean {
  const value = annotationNode(holder, "config.kubernetes.io/local-config");
  return value !== undefined && value !== "" && value !== "false";
}
