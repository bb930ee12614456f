/**
 * Small helpers over `yaml` Documents that edit resources in place the way kyaml does: existing
 * scalars keep their node (comments, quoting style), missing maps are created and appended at the
 * end of their parent mapping, untouched fields are never rewritten.
 */
import {
  type Document,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  Scalar,
  YAMLMap,
  type YAMLSeq,
} from "yaml";
import type { KrmResource, ResultResourceRef } from "../../krm/resource-list.js";
import { resolvePlain } from "../../yaml/resolve.js";

/** Anything that holds YAML: a whole document or a node inside one. */
export type YamlHolder = Document | Node | null | undefined;

function rootOf(holder: YamlHolder): unknown {
  if (holder && typeof holder === "object" && "contents" in holder && "schema" in holder) {
    return (holder as Document).contents;
  }
  return holder;
}

/** The mapping at `path` below `holder` (a document or node), or undefined when absent / not a map. */
export function getMap(holder: YamlHolder, path: readonly string[] = []): YAMLMap | undefined {
  const node = getNode(holder, path);
  return isMap(node) ? node : undefined;
}

/** The sequence at `path`, or undefined. */
export function getSeq(holder: YamlHolder, path: readonly string[]): YAMLSeq | undefined {
  const node = getNode(holder, path);
  return isSeq(node) ? node : undefined;
}

/** The node at a path of mapping keys, or undefined. */
export function getNode(holder: YamlHolder, path: readonly string[]): unknown {
  let cur: unknown = rootOf(holder);
  for (const key of path) {
    if (!isMap(cur)) return undefined;
    cur = cur.get(key, true);
  }
  return cur;
}

/** The string value of the scalar at `path` (numbers/booleans stringified), or undefined. */
export function getString(holder: YamlHolder, path: readonly string[]): string | undefined {
  return scalarString(getNode(holder, path));
}

/** Whether a node is absent or null (a null scalar or a raw null). */
export function isNullish(node: unknown): boolean {
  return node === undefined || node === null || (isScalar(node) && node.value === null);
}

/**
 * The string form of a scalar node or of a raw JS primitive (Documents edited with `setIn` may hold
 * raw values), or undefined for collections and null.
 */
export function scalarString(node: unknown): string | undefined {
  const value = isScalar(node) ? node.value : node;
  if (value === null || value === undefined || typeof value === "object") return undefined;
  return String(value);
}

/**
 * The mapping at `path`, creating missing (or null) mappings on the way; new keys go to the end of
 * their parent, as kyaml appends them. Returns undefined when a non-map value is in the way.
 */
export function ensureMap(holder: YamlHolder, path: readonly string[]): YAMLMap | undefined {
  let cur = rootOf(holder);
  if (!isMap(cur)) return undefined;
  for (const key of path) {
    const next: unknown = (cur as YAMLMap).get(key, true);
    if (isMap(next)) {
      cur = next;
      continue;
    }
    if (!isNullish(next)) return undefined;
    const created = new YAMLMap();
    (cur as YAMLMap).set(key, created);
    cur = created;
  }
  return cur as YAMLMap;
}

/**
 * Sets a string scalar at `path` (creating parent maps). An existing scalar node is updated in place
 * so that its comment and quoting survive. Returns false when the path is blocked by a non-map.
 */
export function setString(holder: YamlHolder, path: readonly string[], value: string): boolean {
  const parent = ensureMap(holder, path.slice(0, -1));
  if (!parent) return false;
  setMapString(parent, path[path.length - 1], value);
  return true;
}

/** Sets `key` of `map` to a string, keeping an existing scalar node (comments, style). */
export function setMapString(map: YAMLMap, key: string, value: string): void {
  const existing = map.get(key, true);
  if (isScalar(existing)) {
    existing.value = value;
    if (existing.type !== Scalar.QUOTE_DOUBLE && existing.type !== Scalar.QUOTE_SINGLE) {
      existing.type = undefined;
    }
    return;
  }
  map.set(key, new Scalar(value));
}

/**
 * Sets a scalar's text the way kyaml does (`node.Value = text; node.Tag = ""`): a quoted or block
 * scalar stays a string in its style; a plain scalar is re-resolved, so `3` becomes an int and
 * `true` a bool, while other text stays a string. An empty value becomes `""`.
 */
export function setScalarText(node: Scalar, text: string): void {
  if (text === "") {
    node.value = "";
    node.type = Scalar.QUOTE_DOUBLE;
    return;
  }
  const plain = node.type === undefined || node.type === Scalar.PLAIN;
  // Only a text yaml.v3 resolves to something else than a string can be a number, bool or null
  // for the yaml package too (its core schema's non-strings are a subset): parse those alone.
  if (plain && resolvePlain(text) !== "!!str") {
    const parsed = parseDocument(text).contents;
    if (isScalar(parsed) && parsed.type === Scalar.PLAIN && typeof parsed.value !== "string") {
      node.value = parsed.value;
      node.format = parsed.format;
      node.minFractionDigits = parsed.minFractionDigits;
      return;
    }
  }
  node.value = text;
}

/** A map's entries as strings (values stringified; null values skipped). */
export function stringEntries(map: YAMLMap | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (!map) return out;
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const value = scalarString(pair.value);
    if (value !== undefined) out.push([key, value]);
  }
  return out;
}

/** apiVersion / kind / name / namespace of a resource. */
export function resourceRef(doc: KrmResource | undefined): ResultResourceRef {
  if (!doc) return {};
  const ref: ResultResourceRef = {};
  const apiVersion = getString(doc, ["apiVersion"]);
  const kind = getString(doc, ["kind"]);
  const name = getString(doc, ["metadata", "name"]);
  const namespace = getString(doc, ["metadata", "namespace"]);
  if (apiVersion) ref.apiVersion = apiVersion;
  if (kind) ref.kind = kind;
  if (name) ref.name = name;
  if (namespace) ref.namespace = namespace;
  return ref;
}

/** The API group of an apiVersion (`apps/v1` -> `apps`, `v1` -> ``). */
export function groupOf(apiVersion: string | undefined): string {
  if (!apiVersion) return "";
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** The annotation value, or undefined. */
export function getAnnotation(doc: YamlHolder, key: string): string | undefined {
  return getString(getMap(doc, ["metadata", "annotations"]), [key]);
}

/** kpt's local-config test: annotation `config.kubernetes.io/local-config` set and not "false". */
export function isLocalConfig(doc: YamlHolder): boolean {
  const value = getAnnotation(doc, "config.kubernetes.io/local-config");
  return value !== undefined && value !== "" && value !== "false";
}

/** Where the resource lives (kpt's path/index annotations), for results. */
export function fileOf(doc: YamlHolder): { path: string; index?: number } | undefined {
  return fileFrom((key) => getAnnotation(doc, key));
}

/** {@link fileOf} over an annotation reader (either form of a resource). */
function fileFrom(
  annotation: (key: string) => string | undefined,
): { path: string; index?: number } | undefined {
  const path = annotation("internal.config.kubernetes.io/path") ?? annotation("config.kubernetes.io/path");
  if (path === undefined) return undefined;
  const indexText =
    annotation("internal.config.kubernetes.io/index") ?? annotation("config.kubernetes.io/index");
  const index = indexText === undefined ? undefined : Number.parseInt(indexText, 10);
  return index === undefined || Number.isNaN(index) ? { path } : { path, index };
}

/** Plain JS value of a node (for config parsing). */
export function toJs(node: unknown): unknown {
  if (node && typeof node === "object" && "toJSON" in node && typeof node.toJSON === "function") {
    return (node as { toJSON(): unknown }).toJSON();
  }
  return node;
}

/** Go's `%v` of a string slice: `[a b c]`. */
export function goList(values: readonly string[]): string {
  return `[${values.join(" ")}]`;
}

/** Go's `%q` of a string. */
export function goQuote(value: string): string {
  return JSON.stringify(value);
}

/** The key of a map entry as text (kyaml field-path segment). */
export function keyText(pair: Pair<unknown, unknown>): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** Callbacks of {@link walkFields}. */
export interface FieldVisitor {
  /** Called for every mapping, before its values are walked. */
  map?(map: YAMLMap, path: string): void;
  scalar(scalar: Scalar, path: string): void;
}

/**
 * Walks every node below `node` depth-first with its field path as the catalog functions report it
 * (`.spec.containers[0].image`, starting from `path`): a mapping is visited before its values.
 */
export function walkFields(node: unknown, path: string, visitor: FieldVisitor): void {
  if (isMap(node)) {
    visitor.map?.(node, path);
    for (const pair of node.items) walkFields(pair.value, `${path}.${keyText(pair)}`, visitor);
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      walkFields(item, `${path}[${i}]`, visitor);
    });
  } else if (isScalar(node)) {
    visitor.scalar(node, path);
  }
}
