/**
 * kpt's 3-way merge of one KRM resource (kyaml's `merge3` walker and visitor), over `yaml` nodes:
 * the local (dest) resource is merged in place with the original and the updated upstream versions.
 *
 * - scalars: upstream's value wins when it changed; a local change is kept when upstream did not
 *   change; a field removed upstream is removed; a field set to null on either side is removed;
 * - maps: merged field by field; fields new to the local resource are appended in key order;
 * - lists with merge keys (from the schema, or `name` when inferring): merged element by element,
 *   elements new upstream appended; other lists: upstream's list when it changed, else local's;
 * - comments travel with the values and keys they belong to (a changed upstream comment wins).
 *
 * Where both sides changed the same value, upstream's wins and a {@link MergeOverride} is recorded.
 */
import { isMap, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { resolvesAsNonString } from "../../krm/go-yaml-style.js";
import {
  hasMergeStrategy,
  type MergeSchemaNode,
  type MergeSchemas,
  OPAQUE_SCHEMA,
  patchStrategyAndKeys,
} from "./schema.js";

/** A node the merge handles. */
export type YNode = Scalar | YAMLMap | YAMLSeq;
type Src = YNode | undefined;
/** The three versions of one node: local (dest), original upstream, updated upstream. */
export type Sources = [dest: Src, origin: Src, updated: Src];

/** A local edit that the merge replaced with upstream's value (kpt: "upstream wins"). */
export interface MergeOverride {
  /** Field path inside the resource, e.g. `["spec", "template", "spec", "containers", "[name=web]", "image"]`. */
  path: string[];
  /** What kind of override: upstream changed the value, or removed the field. */
  kind: "changed" | "removed";
  /** The local value that was overridden (YAML text). */
  local: string;
  /** Upstream's new value (YAML text), undefined when removed. */
  upstream: string | undefined;
  /** The original upstream value both sides started from (YAML text). */
  original: string | undefined;
}

/** A failure of the merge (incompatible node kinds, conflicting inferred keys), naming the field. */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MergeError";
  }
}

/** Options of one merge. */
export interface WalkOptions {
  /** Resource type schemas for list merge keys. */
  schemas: MergeSchemas;
  /** Infer `name` as the merge key of lists without a schema (kpt does for Kptfiles, not resources). */
  inferAssociativeLists: boolean;
  /** Receives local edits replaced by upstream values. */
  overrides?: MergeOverride[];
}

interface Walk {
  opts: WalkOptions;
  sources: Sources;
  schema: MergeSchemaNode | undefined;
  path: string[];
}

const DEST = 0;

/** Whether a node is absent or a null scalar (yaml.v3's `!!null`). */
export function isMissingOrNull(node: unknown): boolean {
  return node === undefined || node === null || (isScalar(node) && node.value === null);
}

function isTaggedNull(node: unknown): boolean {
  return isScalar(node) && node.value === null;
}

function isEmptyMap(node: unknown): boolean {
  return isMissingOrNull(node) || (isMap(node) && node.items.length === 0);
}

/**
 * Merges `dest` with `origin` and `updated` (any may be missing) and returns the merged node, or
 * undefined when the merge clears it. `dest` is changed in place. Throws {@link MergeError}.
 */
export function merge3(sources: Sources, opts: WalkOptions, schema?: MergeSchemaNode): Src {
  return walk({ opts, sources: [...sources] as Sources, schema, path: [] });
}

function kindOf(sources: Sources): "map" | "seq" | "scalar" | undefined {
  for (const s of sources) {
    if (isMissingOrNull(s)) continue;
    if (isMap(s)) return "map";
    if (isSeq(s)) return "seq";
    return "scalar";
  }
  return undefined;
}

function walk(w: Walk): Src {
  w.schema = schemaOf(w);
  const kind = kindOf(w.sources);
  const check = (ok: (n: unknown) => boolean, what: string) => {
    for (const s of w.sources) {
      if (!isMissingOrNull(s) && !ok(s))
        throw new MergeError(
          `field ${fieldName(w.path)} is a ${what} in one version and a ${kindName(s)} in another`,
        );
    }
  };
  switch (kind) {
    case "map":
      check(isMap, "map");
      return walkMap(w);
    case "seq":
      check(isSeq, "list");
      return isAssociative(w) ? walkAssociativeList(w) : visitList(w);
    case "scalar":
      check(isScalar, "value");
      return visitScalar(w.sources, w);
    default:
      return walkMap(w);
  }
}

function kindName(node: unknown): string {
  return isMap(node) ? "map" : isSeq(node) ? "list" : "value";
}

function fieldName(path: string[]): string {
  return path.length === 0 ? "(root)" : path.join(".");
}

/** A field's schema: field metadata in a comment, else the parent's, else the resource type's. */
function schemaOf(w: Walk): MergeSchemaNode | undefined {
  for (const s of w.sources) {
    if (isMissingOrNull(s)) continue;
    if (hasFieldMeta(s as YNode)) return OPAQUE_SCHEMA;
  }
  if (w.schema) return w.schema;
  for (const s of w.sources) {
    if (!isMap(s)) continue;
    const apiVersion = scalarText(s.get("apiVersion", true));
    const kind = scalarText(s.get("kind", true));
    if (!apiVersion || !kind) continue;
    const found = w.opts.schemas.forType(apiVersion, kind);
    if (found) return found;
  }
  return undefined;
}

/** kyaml's `FieldMeta.Read`: a comment holding a JSON object is field metadata (a setter's schema). */
function hasFieldMeta(node: { comment?: string | null; commentBefore?: string | null }): boolean {
  for (const c of [node.comment, node.commentBefore]) {
    if (!c) continue;
    const text = c.replace(/^#+/, "").trim();
    if (!text.startsWith("{")) continue;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return true;
    } catch {
      // Not metadata: an ordinary comment.
    }
    return false;
  }
  return false;
}

/** The text of a scalar as yaml.v3 holds it (its source text for non-strings). */
export function scalarText(node: unknown): string | undefined {
  if (!isScalar(node) || node.value === null || node.value === undefined) return undefined;
  if (typeof node.value === "string") return node.value;
  if (typeof node.source === "string") return node.source;
  return String(node.value);
}

// ---------------------------------------------------------------------------------------------
// Maps

function walkMap(w: Walk): Src {
  const dest = visitMap(w.sources);
  if (!dest) return undefined;
  w.sources[DEST] = dest;
  for (const s of w.sources) if (isMap(s)) wrapRaw(s);
  for (const key of fieldNames(w.sources)) {
    const pairs = w.sources.map((s) => (isMap(s) ? findPair(s, key) : undefined)) as [
      Pair<Scalar, unknown> | undefined,
      Pair<Scalar, unknown> | undefined,
      Pair<Scalar, unknown> | undefined,
    ];
    const keys = pairs.map((p) => (p && isScalar(p.key) ? p.key : undefined)) as Sources;
    const res = visitScalar(keys, undefined);

    let schema = w.schema?.field(key);
    const values = pairs.map((p) => valueNode(p?.value)) as Sources;
    const commentSchema = pairs.some((p) => p && (hasFieldMeta(valueOrEmpty(p.value)) || keyMeta(p)));
    if (commentSchema) schema = OPAQUE_SCHEMA;
    const val = walk({ opts: w.opts, sources: values, schema, path: [...w.path, key] });

    const destPair = pairs[DEST];
    if (!isMissingOrNull(res) && destPair && isScalar(destPair.key)) {
      copyComments(res as Scalar, destPair.key);
    }
    setField(dest, key, destPair, val, res as Scalar | undefined, keyStyleFor(val, pairs, values));
  }
  return dest;
}

/** Keys and values set as plain JS data (e.g. by `YAMLMap.set`) become nodes the merge can compare. */
function wrapRaw(map: YAMLMap): void {
  for (const pair of map.items) {
    if (!isScalar(pair.key) && (typeof pair.key === "string" || typeof pair.key === "number")) {
      pair.key = new Scalar(pair.key);
    }
    const v = pair.value;
    if (v !== null && v !== undefined && typeof v !== "object") pair.value = new Scalar(v);
  }
}

function valueOrEmpty(value: unknown): { comment?: string | null; commentBefore?: string | null } {
  return isScalar(value) || isMap(value) || isSeq(value) ? value : {};
}

function keyMeta(pair: Pair<Scalar, unknown>): boolean {
  return isScalar(pair.key) && hasFieldMeta(pair.key);
}

function valueNode(value: unknown): Src {
  if (isScalar(value) || isMap(value) || isSeq(value)) return value;
  return undefined;
}

/** kyaml's map visitor: cleared when null on either side or gone from both, created when new. */
function visitMap(sources: Sources): YAMLMap | undefined {
  const [dest, , updated] = sources;
  if (isTaggedNull(updated) || isTaggedNull(dest)) return undefined;
  if (dest === undefined && updated === undefined) return undefined;
  if (dest === undefined || isTaggedNull(dest)) return new YAMLMap();
  return isMap(dest) ? dest : new YAMLMap();
}

function fieldNames(sources: Sources): string[] {
  const names = new Set<string>();
  for (const s of sources) {
    if (!isMap(s)) continue;
    for (const pair of s.items) {
      const k = isScalar(pair.key) ? scalarText(pair.key) : undefined;
      if (k !== undefined) names.add(k);
    }
  }
  return [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

function findPair(map: YAMLMap, key: string): Pair<Scalar, unknown> | undefined {
  return map.items.find((p) => isScalar(p.key) && scalarText(p.key) === key) as
    | Pair<Scalar, unknown>
    | undefined;
}

function keyStyleFor(
  val: Src,
  pairs: Array<Pair<Scalar, unknown> | undefined>,
  values: Sources,
): Scalar.Type | undefined {
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== undefined && values[i] === val) {
      const key = pairs[i]?.key;
      return isScalar(key) ? key.type : undefined;
    }
  }
  return undefined;
}

function copyComments(from: Scalar, to: Scalar): void {
  to.commentBefore = from.commentBefore;
  to.comment = from.comment;
}

/**
 * kyaml's `FieldSetter`: removes the field when the value is missing or null; replaces an existing
 * value (keeping the existing value's style); appends a new field with the chosen key's comments.
 */
function setField(
  dest: YAMLMap,
  key: string,
  destPair: Pair<Scalar, unknown> | undefined,
  val: Src,
  keyRes: Scalar | undefined,
  keyStyle: Scalar.Type | undefined,
): void {
  if (val === undefined || isTaggedNull(val)) {
    if (destPair) dest.items.splice(dest.items.indexOf(destPair), 1);
    return;
  }
  // kyaml quotes a plain string that YAML 1.1 would read as another type whenever it sets a field.
  if (
    isScalar(val) &&
    typeof val.value === "string" &&
    (val.type === undefined || val.type === Scalar.PLAIN)
  ) {
    if (!val.tag && yaml11NonString(val.value)) val.type = Scalar.QUOTE_DOUBLE;
  }
  if (destPair) {
    if (destPair.value !== val) {
      const node = val;
      takeStyle(node, destPair.value);
      destPair.value = node;
    }
    return;
  }
  const k = plainScalar(key);
  if (keyStyle) k.type = keyStyle;
  if (keyRes && !isMissingOrNull(keyRes)) copyComments(keyRes, k);
  dest.items.push(new Pair(k, val));
}

/**
 * kyaml's `IsValueNonString`: text a YAML 1.1 parser (yaml.v2) reads as a bool, number or null.
 * Timestamps and base-60 numbers stay strings there.
 */
function yaml11NonString(text: string): boolean {
  if (text === "" || text.includes("\n")) return false;
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(text)) return false;
  if (/^\d{4}-\d\d?-\d\d?([Tt ]|$)/.test(text)) return false;
  return resolvesAsNonString(text);
}

/** A new scalar as kyaml creates it (no tag, plain style: yaml.v3 writes it as is). */
function plainScalar(value: string): Scalar {
  const s = new Scalar(value);
  s.type = Scalar.PLAIN;
  return s;
}

/** A value written over an existing one takes the existing node's style (yaml.v3 `Style`). */
function takeStyle(node: YNode, existing: unknown): void {
  if (isScalar(node)) {
    node.type = isScalar(existing) ? (existing.type ?? Scalar.PLAIN) : Scalar.PLAIN;
    // yaml.v3 writes a number or bool in the quoted style it inherits as a quoted string.
    const quoted = node.type === Scalar.QUOTE_SINGLE || node.type === Scalar.QUOTE_DOUBLE;
    if (quoted && node.value !== null && typeof node.value !== "string") node.value = scalarText(node) ?? "";
  } else {
    // yaml.v3 writes an empty collection in flow style whatever its style.
    node.flow = node.items.length === 0 || ((isMap(existing) || isSeq(existing)) && Boolean(existing.flow));
  }
}

// ---------------------------------------------------------------------------------------------
// Scalars and lists replaced as a whole

/**
 * kyaml's scalar visitor. Values are compared as yaml.v3 prints them, comments included, so an
 * upstream comment change reaches the local copy when the local copy kept the original.
 */
function visitScalar(sources: Sources, w: Walk | undefined): Src {
  const [dest, origin, updated] = sources;
  if (isTaggedNull(updated) || isTaggedNull(dest)) return undefined;
  if (isMissingOrNull(updated) !== isMissingOrNull(origin)) {
    if (w && isMissingOrNull(updated) && dest !== undefined && changed(dest, origin))
      record(w, "removed", dest, undefined, origin);
    return take(updated);
  }
  if (isMissingOrNull(updated) && isMissingOrNull(origin)) return dest;
  const u = printed(updated);
  const o = printed(origin);
  const d = dest === undefined ? "" : printed(dest);
  if ((d === "" || d === o) && o !== u) return take(updated);
  if (scalarText(updated) !== scalarText(origin)) {
    if (w && dest !== undefined && changed(dest, origin) && changed(dest, updated)) {
      record(w, "changed", dest, updated, origin);
    }
    return take(updated);
  }
  return dest;
}

/** kyaml's visitor of lists without merge keys: upstream's list when it changed, else local's. */
function visitList(w: Walk): Src {
  const [dest, origin, updated] = w.sources;
  if (isTaggedNull(updated) || isTaggedNull(dest)) return undefined;
  if (isMissingOrNull(updated) !== isMissingOrNull(origin)) {
    if (isMissingOrNull(updated) && dest !== undefined && changed(dest, origin))
      record(w, "removed", dest, undefined, origin);
    return take(updated);
  }
  if (isMissingOrNull(updated) && isMissingOrNull(origin)) return dest;
  if (printed(updated) !== printed(origin)) {
    if (dest !== undefined && changed(dest, origin) && valueText(dest) !== valueText(updated)) {
      record(w, "changed", dest, updated, origin);
    }
    return take(updated);
  }
  return dest;
}

function changed(a: Src, b: Src): boolean {
  return valueText(a) !== valueText(b);
}

function record(w: Walk, kind: MergeOverride["kind"], local: Src, upstream: Src, original: Src): void {
  w.opts.overrides?.push({
    path: [...w.path],
    kind,
    local: valueText(local),
    upstream: upstream === undefined ? undefined : valueText(upstream),
    original: original === undefined ? undefined : valueText(original),
  });
}

/** An upstream node placed into the local resource: a copy, so the upstream tree stays intact. */
function take(node: Src): Src {
  return node === undefined ? undefined : (node.clone() as YNode);
}

/**
 * How yaml.v3 prints a node for kyaml's comparison (`getStrValues`): value with its type, and
 * every comment; styles of nested scalars matter, the node's own style does not.
 */
export function printed(node: Src, top = true): string {
  if (node === undefined) return "";
  const comments = `${node.commentBefore ?? ""}\u0000${node.comment ?? ""}`;
  if (isScalar(node)) {
    const type = node.tag ?? (typeof node.value === "string" ? "str" : typeof node.value);
    const style = top ? "" : (node.type ?? "");
    return `${type}:${style}:${scalarText(node) ?? "~"}\u0000${comments}`;
  }
  if (isMap(node)) {
    const inner = node.items.map(
      (p) => `${printed(valueNode(p.key), false)}=${printed(valueNode(p.value), false)}`,
    );
    return `{${inner.join(",")}}\u0000${comments}`;
  }
  return `[${node.items.map((i) => printed(valueNode(i), false)).join(",")}]\u0000${comments}`;
}

/** The value of a node without comments or styles (for override reports and local-change checks). */
export function valueText(node: Src): string {
  if (node === undefined) return "";
  if (isScalar(node)) return scalarText(node) ?? "null";
  if (isMap(node)) {
    return `{${node.items.map((p) => `${valueText(valueNode(p.key))}: ${valueText(valueNode(p.value))}`).join(", ")}}`;
  }
  return `[${node.items.map((i) => valueText(valueNode(i))).join(", ")}]`;
}

// ---------------------------------------------------------------------------------------------
// Lists merged by key

function isAssociative(w: Walk): boolean {
  if (w.schema) return hasMergeStrategy(w.schema);
  if (!w.opts.inferAssociativeLists) return false;
  return w.sources.some((s) => isSeq(s) && associativeKey(s) !== "");
}

/** kyaml infers `name` as the merge key when every element has it. */
function associativeKey(seq: YAMLSeq): string {
  return seq.items.every((i) => isMap(i) && i.has("name")) ? "name" : "";
}

function walkAssociativeList(w: Walk): Src {
  const [dest, origin, updated] = w.sources;
  if (isMissingOrNull(updated) && !isMissingOrNull(origin)) {
    if (dest !== undefined && changed(dest, origin)) record(w, "removed", dest, undefined, origin);
    return undefined;
  }
  const list = isMissingOrNull(dest) || !isSeq(dest) ? new YAMLSeq() : dest;
  w.sources[DEST] = list;

  let keys: string[] = [];
  let strategy = "";
  if (w.schema) ({ strategy, keys } = patchStrategyAndKeys(w.schema));
  if (strategy === "" && keys.length === 0) {
    const key = elementKey(w);
    if (key !== "") keys = [key];
  }
  const values = elementValues(w.sources, keys);
  if (values.length !== 0 || keys.length > 0) return setElements(w, values, keys, list);
  return setElements(w, primitiveValues(w.sources), [""], list);
}

function elementKey(w: Walk): string {
  let key = "";
  for (const s of w.sources) {
    if (!isSeq(s) || s.items.length === 0) continue;
    const next = associativeKey(s);
    if (key !== "" && key !== next) {
      throw new MergeError(`conflicting merge keys [${key},${next}] for field ${w.path.join(".")}`);
    }
    key = next;
  }
  if (key === "") throw new MergeError(`no merge key found for field ${w.path.join(".")}`);
  return key;
}

/** The merge-key values of an element (`""` where a key is missing or empty). */
function keyValues(element: unknown, keys: readonly string[]): string[] {
  return keys.map((key) => {
    if (!isMap(element)) return "";
    const v = element.get(key, true);
    if (isMissingOrNull(v)) return "";
    if (isMap(v) || isSeq(v)) return "";
    return scalarText(v) ?? "";
  });
}

function elementValues(sources: Sources, keys: readonly string[]): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const s of sources) {
    if (!isSeq(s)) continue;
    for (const item of s.items) {
      const v = keyValues(item, keys);
      if (v.length === 0) continue;
      const id = JSON.stringify(v);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(v);
    }
  }
  return out;
}

function primitiveValues(sources: Sources): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const s of sources) {
    if (!isSeq(s)) continue;
    for (const item of s.items) {
      const v = isScalar(item) ? (scalarText(item) ?? "") : "";
      if (seen.has(v)) continue;
      seen.add(v);
      out.push([v]);
    }
  }
  return out;
}

/** kyaml's `validateKeys`: only keys that have a value in some element count. */
function validateKeys(
  valuesList: readonly string[][],
  values: readonly string[],
  keys: readonly string[],
): [string[], string[]] {
  const valid = new Set<string>();
  for (const vs of valuesList) {
    vs.forEach((v, i) => {
      if (v !== "") valid.add(keys[i]);
    });
  }
  if (valid.size === 0) return [[...keys], [...values]];
  const validKeys = keys.filter((k) => valid.has(k));
  const validValues = values.filter((v, i) => v !== "" || valid.has(keys[i]));
  return [validKeys, validValues];
}

/** kyaml's `mergeValues`: partial key lists (`[8080, ""]`) unify with full ones (`[8080, TCP]`). */
function mergeValues(valuesList: string[][]): string[][] {
  for (let i = 0; i < valuesList.length; i++) {
    const v1 = valuesList[i];
    for (let j = 0; j < valuesList.length; j++) {
      const merged = matchValues(v1, valuesList[j]);
      if (merged) {
        valuesList[i] = merged;
        valuesList[j] = merged;
      }
    }
  }
  return valuesList;
}

function matchValues(a: readonly string[], b: readonly string[]): string[] | undefined {
  if (a.length !== b.length) return undefined;
  let common = false;
  const out: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) {
      common = true;
      out.push(a[i]);
      continue;
    }
    if (a[i] !== "" && b[i] !== "") return undefined;
    out.push(a[i] !== "" ? a[i] : b[i]);
  }
  return common ? out : undefined;
}

/** The element of a list whose merge keys have the given values (kyaml's `ElementList`). */
function findElement(list: Src, keys: readonly string[], values: readonly string[]): Src {
  if (!isSeq(list)) return undefined;
  if (keys.length === 0 || keys[0] === "") {
    const found = list.items.find((i) => isScalar(i) && (scalarText(i) ?? "") === values[0]);
    return valueNode(found);
  }
  for (const item of list.items) {
    if (!isMap(item)) continue;
    const all = keys.every((k, i) => item.has(k) && fieldText(item.get(k, true)) === values[i]);
    if (all) return item;
  }
  return undefined;
}

/** yaml.v3's `Node.Value` of a field value: scalar text, empty for collections and null. */
function fieldText(node: unknown): string {
  if (isScalar(node))
    return node.value === null
      ? typeof node.source === "string"
        ? node.source
        : ""
      : (scalarText(node) ?? "");
  return "";
}

function setElements(w: Walk, valuesList: string[][], keys: readonly string[], dest: YAMLSeq): Src {
  const toAdd = new YAMLSeq();
  const elementSchema = w.schema?.elements();
  if (keys.length > 1) valuesList = mergeValues(valuesList);
  let validKeys: string[] = [...keys];
  let validValues: string[] = [];
  for (const values of valuesList) {
    if (values.length === 0) continue;
    [validKeys, validValues] = validateKeys(valuesList, values, keys);
    const [ek, ev] = validateKeys([validValues], validValues, validKeys);
    const elementSources = w.sources.map((s) =>
      s === undefined ? undefined : findElement(s, ek, ev),
    ) as Sources;
    const label = ek[0] === "" ? `[=${ev[0]}]` : `[${ek.map((k, i) => `${k}=${ev[i]}`).join(",")}]`;
    const val = walk({
      opts: w.opts,
      sources: elementSources,
      schema: elementSchema,
      path: [...w.path, label],
    });
    let removed = false;
    for (let i = 0; i < validKeys.length; i++) {
      if (isMissingOrNull(val) || isEmptyMap(val)) {
        setElement(dest, undefined, validKeys, validValues);
        removed = true;
      } else if (isMap(val) && !val.has(validKeys[i]) && validValues[i] !== "") {
        val.items.push(new Pair(plainScalar(validKeys[i]), plainScalar(validValues[i])));
      }
    }
    if (removed || val === undefined) continue;
    setElement(toAdd, val, validKeys, validValues);
  }
  if (valuesList.length > 0) appendElements(dest, toAdd, validKeys);
  return dest;
}

/**
 * kyaml's `ElementSetter`: replaces the element matching the keys with `element` (or removes it
 * when `element` is undefined), appends it when nothing matches; null and empty-map elements go.
 */
function setElement(list: YAMLSeq, element: Src, keys: readonly string[], values: readonly string[]): void {
  const ks = keys.length === 0 ? [""] : keys;
  const mappingSetter = ks[0] !== "" && values.length > 0 && values[0] !== "";
  const next: unknown[] = [];
  let matched = false;
  for (const item of list.items) {
    if (isMissingOrNull(item) || isEmptyMap(item)) continue;
    if (!isMap(item) && mappingSetter) {
      next.push(item);
      continue;
    }
    let found = true;
    for (let j = 0; j < ks.length && j < values.length; j++) {
      if (!fieldMatches(item, ks[j], values[j])) {
        found = false;
        break;
      }
    }
    if (!found) {
      if (values.length > 0) next.push(item);
      continue;
    }
    matched = true;
    if (element === undefined) continue;
    next.push(element);
  }
  list.items = next;
  if (element === undefined || isMissingOrNull(element)) return;
  if (!matched) list.items.push(element);
}

/** kyaml's `FieldMatcher`: a scalar equal to `value` (no key), or a map holding the key (with that value). */
function fieldMatches(item: unknown, key: string, value: string): boolean {
  if (key === "") {
    if (!isScalar(item)) throw new MergeError("cannot match a list element that is not a value");
    return (scalarText(item) ?? "") === value;
  }
  if (!isMap(item)) throw new MergeError(`cannot match list elements by ${key}: an element is not a map`);
  if (!item.has(key)) return false;
  return value === "" || fieldText(item.get(key, true)) === value;
}

/** kyaml's `appendListNode`: each merged element replaces its match in the list or is appended. */
function appendElements(dest: YAMLSeq, items: YAMLSeq, keys: readonly string[]): void {
  for (const elem of items.items) {
    if (keys[0] === "" || keys.length === 0) {
      setElement(dest, elem as YNode, [""], [scalarText(elem) ?? ""]);
      continue;
    }
    const v: string[] = [];
    for (const key of keys) {
      const valueNode = isMap(elem) ? elem.get(key, true) : undefined;
      if (valueNode === undefined || valueNode === null) {
        dest.items.push(elem);
        continue;
      }
      v.push(fieldText(valueNode));
    }
    if (keys.length > 1) setElement(dest, undefined, keys, v);
    setElement(dest, elem as YNode, keys, v);
  }
}
