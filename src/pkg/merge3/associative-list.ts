/**
 * kyaml's walker of lists merged by key (`walk/associative_sequence.go`) of the 3-way merge: the
 * merge keys come from the schema (or `name`, when inferring), elements are matched by their key
 * values and walked one by one, elements new upstream appended, removed ones dropped.
 */
import { isMap, isScalar, isSeq, Pair, YAMLSeq } from "yaml";
import {
  changed,
  childWalk,
  DEST,
  isEmptyMap,
  isMissingOrNull,
  MergeError,
  plainScalar,
  record,
  type Sources,
  type Src,
  scalarText,
  valueNode,
  type Walk,
  type YNode,
} from "./nodes.js";
import { hasMergeStrategy, patchStrategyAndKeys } from "./schema.js";

/** Whether the list is merged by key: its schema says so, or `name` is inferred. */
export function isAssociative(w: Walk): boolean {
  if (w.schema) return hasMergeStrategy(w.schema);
  if (!w.opts.inferAssociativeLists) return false;
  return w.sources.some((s) => isSeq(s) && associativeKey(s) !== "");
}

/** kyaml infers `name` as the merge key when every element has it. */
function associativeKey(seq: YAMLSeq): string {
  return seq.items.every((i) => isMap(i) && i.has("name")) ? "name" : "";
}

/** Merges a list element by element, matched by merge keys. */
export function walkAssociativeList(w: Walk): Src {
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
    const val = w.visit(childWalk(w, elementSources, elementSchema, label));
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
