/**
 * What the 3-way merge's visitors share (kyaml's `walk` package base): the three sources of a node,
 * the walk state, the merge's errors and overrides, and how nodes are compared and printed.
 */
import { isMap, isScalar, isSeq, Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import type { MergeSchemaNode, MergeSchemas } from "./schema.js";

/** A node the merge handles. */
export type YNode = Scalar | YAMLMap | YAMLSeq;
export type Src = YNode | undefined;
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

/** One node's walk: the sources, the schema that applies, the field path; `visit` walks a child. */
export interface Walk {
  opts: WalkOptions;
  sources: Sources;
  schema: MergeSchemaNode | undefined;
  path: string[];
  visit: (w: Walk) => Src;
}

/** Index of the local (dest) source. */
export const DEST = 0;

/** Whether a node is absent or a null scalar (yaml.v3's `!!null`). */
export function isMissingOrNull(node: unknown): boolean {
  return node === undefined || node === null || (isScalar(node) && node.value === null);
}

export function isTaggedNull(node: unknown): boolean {
  return isScalar(node) && node.value === null;
}

export function isEmptyMap(node: unknown): boolean {
  return isMissingOrNull(node) || (isMap(node) && node.items.length === 0);
}

/** The walk of a child node (a field value or a list element) of `w`. */
export function childWalk(
  w: Walk,
  sources: Sources,
  schema: MergeSchemaNode | undefined,
  segment: string,
): Walk {
  return { opts: w.opts, sources, schema, path: [...w.path, segment], visit: w.visit };
}

export function kindName(node: unknown): string {
  return isMap(node) ? "map" : isSeq(node) ? "list" : "value";
}

export function fieldName(path: string[]): string {
  return path.length === 0 ? "(root)" : path.join(".");
}

/** kyaml's `FieldMeta.Read`: a comment holding a JSON object is field metadata (a setter's schema). */
export function hasFieldMeta(node: { comment?: string | null; commentBefore?: string | null }): boolean {
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

/** A key, value or element as a node the merge handles (undefined for anything else). */
export function valueNode(value: unknown): Src {
  if (isScalar(value) || isMap(value) || isSeq(value)) return value;
  return undefined;
}

/** A new scalar as kyaml creates it (no tag, plain style: yaml.v3 writes it as is). */
export function plainScalar(value: string): Scalar {
  const s = new Scalar(value);
  s.type = Scalar.PLAIN;
  return s;
}

/** Whether two nodes hold different values (comments and styles aside). */
export function changed(a: Src, b: Src): boolean {
  return valueText(a) !== valueText(b);
}

/** Records a local edit replaced by upstream (`opts.overrides`). */
export function record(w: Walk, kind: MergeOverride["kind"], local: Src, upstream: Src, original: Src): void {
  w.opts.overrides?.push({
    path: [...w.path],
    kind,
    local: valueText(local),
    upstream: upstream === undefined ? undefined : valueText(upstream),
    original: original === undefined ? undefined : valueText(original),
  });
}

/** An upstream node placed into the local resource: a copy, so the upstream tree stays intact. */
export function take(node: Src): Src {
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
