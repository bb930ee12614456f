/**
 * Resources in and out of a Starlark script. In: every item (a yaml Document) becomes a dict, as the
 * catalog's function decodes it (yaml.v3 into Go values, then starlib's `util.Marshal`). Out: each dict the
 * script left in `ctx.resource_list["items"]` is written back onto the document it came from (matched by
 * kpt's `config.k8s.io/id` annotation) changing only what the script changed, so comments, key order and
 * the text of untouched scalars survive. What kpt gets from the catalog's function after its own
 * `CopyComments` and `SyncOrder` is reproduced: a changed scalar is written as Go writes it (keeping its
 * comments), keys the script added follow the existing ones in yaml.v3's sorted order, and a new
 * resource has every mapping's keys sorted; a document's leading comment set apart by a blank line
 * moves onto the first key.
 */
import {
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { getAnnotation, RESOURCE_ID } from "../../../krm/annotations.js";
import type { KrmResource } from "../../../krm/resource-list.js";
import {
  Dict,
  equal,
  Float,
  fromBytes,
  List,
  None,
  StarlarkError,
  Tuple,
  typeName,
  type Value,
} from "../../../starlark/index.js";
import {
  nodeToStarlark,
  scalarNode,
  scalarToStarlark,
  sortGoKeys,
  starlarkToNode,
} from "../../../starlark/lib/yaml-values.js";

/** A resource as the dict a script sees. */
export function resourceToStarlark(doc: KrmResource): Value {
  return nodeToStarlark(doc.contents, doc);
}

function sameScalar(node: Scalar, v: Value): boolean {
  const old = scalarToStarlark(node);
  if (old === None || v === None) return old === v;
  if (old instanceof Float || v instanceof Float) {
    return (
      old instanceof Float &&
      v instanceof Float &&
      (old.v === v.v || (Number.isNaN(old.v) && Number.isNaN(v.v)))
    );
  }
  if (typeof old === "bigint" || typeof v === "bigint") {
    return (typeof old === "bigint" || typeof old === "number") &&
      (typeof v === "bigint" || typeof v === "number")
      ? BigInt(old) === BigInt(v)
      : false;
  }
  return typeof old === typeof v && old === v;
}

/** Moves the comments and blank-line flag of `from` onto its replacement `to`. */
function keepComments(from: unknown, to: Node): Node {
  if (from && typeof from === "object" && "commentBefore" in from) {
    const f = from as Node;
    if (f.commentBefore) to.commentBefore = f.commentBefore;
    if (f.comment) to.comment = f.comment;
    if (f.spaceBefore) to.spaceBefore = f.spaceBefore;
  }
  return to;
}

/** The name of a list item for matching (`name` of a mapping), or undefined. */
function itemNameOfNode(node: unknown): string | undefined {
  if (!isMap(node)) return undefined;
  const name = node.get("name", true);
  return isScalar(name) && typeof name.value === "string" ? name.value : undefined;
}

function itemNameOfValue(v: Value): string | undefined {
  if (!(v instanceof Dict)) return undefined;
  const name = v.get("name");
  return typeof name === "string" ? fromBytes(name) : undefined;
}

/**
 * Which old item each new element updates: by `name` when every item on both sides is a mapping with a
 * distinct string `name` (containers, ports, volumes…), else by position.
 */
function matchItems(olds: readonly unknown[], news: readonly Value[]): number[] {
  const oldNames = olds.map(itemNameOfNode);
  const newNames = news.map(itemNameOfValue);
  const byName =
    olds.length > 0 &&
    oldNames.every((n) => n !== undefined) &&
    newNames.every((n) => n !== undefined) &&
    new Set(oldNames).size === oldNames.length;
  if (byName) {
    const index = new Map(oldNames.map((n, i) => [n!, i]));
    const used = new Set<number>();
    return newNames.map((n) => {
      const i = index.get(n!);
      if (i === undefined || used.has(i)) return -1;
      used.add(i);
      return i;
    });
  }
  return news.map((_, i) => (i < olds.length ? i : -1));
}

/**
 * The node for `v` where `node` was: `node` itself, updated in place, when both are mappings or both
 * sequences; `node` unchanged when it is a scalar of the same value; otherwise a new node carrying
 * `node`'s comments. `dicts` counts the dicts enclosing `v` (for the catalog's encoding errors).
 */
export function reconcile(doc: Document, node: unknown, v: Value, dicts: number): Node {
  if (isAlias(node)) {
    const resolved = node.resolve(doc);
    if (resolved && equal(nodeToStarlark(resolved, doc), v)) return node;
    return keepComments(node, starlarkToNode(v, dicts));
  }
  if (v instanceof Dict) {
    if (!isMap(node)) return keepComments(node, starlarkToNode(v, dicts));
    const kept: Pair[] = [];
    const seen = new Dict();
    for (const pair of node.items) {
      const key = nodeToStarlark(pair.key, doc);
      let next: Value | undefined;
      try {
        next = v.get(key);
      } catch {
        next = undefined;
      }
      if (next === undefined) continue;
      seen.setKey(key, true);
      pair.value = reconcile(doc, pair.value, next, dicts + 1);
      kept.push(pair);
    }
    const added = sortGoKeys(
      [...v.items()].filter(([k]) => seen.get(k) === undefined),
      (e) => e[0],
    );
    for (const [k, val] of added) {
      const key = scalarNode(k);
      if (!key)
        throw new StarlarkError(
          `${"unmarshaling starlark value: ".repeat(dicts + 1)}unrecognized starlark type: ${typeName(k)}`,
        );
      kept.push(new Pair(key, starlarkToNode(val, dicts + 1)));
    }
    node.items = kept;
    return node;
  }
  if (v instanceof List || v instanceof Tuple) {
    if (!isSeq(node)) return keepComments(node, starlarkToNode(v, dicts));
    const seq = node as YAMLSeq;
    const olds = [...seq.items];
    const matched = matchItems(olds, v.elems);
    seq.items = v.elems.map((e, i) => {
      const at = matched[i]!;
      return at >= 0 ? reconcile(doc, olds[at], e, dicts) : starlarkToNode(e, dicts);
    });
    return seq;
  }
  if (isScalar(node) && scalarNode(v) && sameScalar(node, v)) return node;
  return keepComments(node, starlarkToNode(v, dicts));
}

/** A new resource document for a dict the script created (every mapping's keys sorted). */
export function newResource(v: Value): KrmResource {
  const doc = new Document();
  doc.contents = starlarkToNode(v, 1);
  return doc;
}

/** The `config.k8s.io/id` of a resource dict, or undefined. */
export function idOf(v: Value): string | undefined {
  if (!(v instanceof Dict)) return undefined;
  const metadata = v.get("metadata");
  if (!(metadata instanceof Dict)) return undefined;
  const annotations = metadata.get("annotations");
  if (!(annotations instanceof Dict)) return undefined;
  const id = annotations.get(RESOURCE_ID);
  return typeof id === "string" ? fromBytes(id) : undefined;
}

/**
 * The items a script left, as documents: each dict carrying the id of an input resource is written back
 * onto that resource's document (a copy when two items claim the same one); others become new documents.
 * @throws StarlarkError when an item is not a dict or holds a value that is not data (the catalog's
 * encoding messages).
 */
export function writeBack(inputs: readonly KrmResource[], items: Value): KrmResource[] {
  if (!(items instanceof List || items instanceof Tuple)) {
    throw new StarlarkError(`ctx.resource_list["items"] must be a list of resources, got ${typeName(items)}`);
  }
  const byId = new Map<string, KrmResource>();
  for (const doc of inputs) {
    const id = getAnnotation(doc, RESOURCE_ID);
    if (id !== undefined) byId.set(id, doc);
  }
  const ids = items.elems.map(idOf);
  const claims = new Map<string, number>();
  for (const id of ids) if (id !== undefined) claims.set(id, (claims.get(id) ?? 0) + 1);
  return items.elems.map((item, i) => {
    if (!(item instanceof Dict)) {
      throw new StarlarkError(
        `ctx.resource_list["items"][${i}] must be a dict (a resource), got ${typeName(item)}`,
      );
    }
    const id = ids[i];
    const source = id === undefined ? undefined : byId.get(id);
    if (!source) return newResource(item);
    // The input document is this run's own copy; a resource the script duplicated gets a copy each.
    const doc = (claims.get(id!) ?? 0) > 1 ? source.clone() : source;
    doc.contents = reconcile(doc, doc.contents, item, 1) as YAMLMap;
    return doc;
  });
}
