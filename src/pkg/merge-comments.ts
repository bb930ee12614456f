/**
 * kpt's merge identity of a resource, which `kpt pkg get` and `kpt pkg update` add to every resource
 * they write (kpt's `addmergecomment`): the line comment `metadata: # kpt-merge: <namespace>/<name>`
 * and the annotation `internal.kpt.dev/upstream-identifier: '<group>|<kind>|<namespace>|<name>'`.
 * A later update matches a local resource to its upstream version by this comment, so a resource
 * renamed locally still merges with its upstream.
 */
import { type Document, isMap, isPair, isScalar, type Pair, type Scalar } from "yaml";
import { setAnnotations } from "../krm/annotations.js";
import { scalarText } from "./merge3/nodes.js";

/** The prefix of kpt's merge comment. */
export const MERGE_COMMENT_PREFIX = "kpt-merge:";
/** kpt's upstream identifier annotation. */
export const UPSTREAM_IDENTIFIER = "internal.kpt.dev/upstream-identifier";

/** The `metadata` pair of a resource, if any. */
export function metadataPair(doc: Document): Pair<Scalar, unknown> | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  const pair = root.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === "metadata");
  return pair as Pair<Scalar, unknown> | undefined;
}

/**
 * kpt's `NsAndNameForMerge`: `[namespace, name]` from a `kpt-merge: ns/name` comment, or undefined
 * when the comment is not a merge comment.
 */
export function nsAndNameForMerge(comment: string | null | undefined): [string, string] | undefined {
  if (!comment) return undefined;
  const text = comment.replace(/^#/, "").trim();
  if (!text.startsWith(MERGE_COMMENT_PREFIX)) return undefined;
  const rest = text.slice(MERGE_COMMENT_PREFIX.length).trim();
  const slash = rest.indexOf("/");
  if (slash < 0) return undefined;
  return [rest.slice(0, slash), rest.slice(slash + 1)];
}

/** The line comment on the `metadata:` key. */
export function metadataComment(doc: Document): string | undefined {
  const pair = metadataPair(doc);
  return pair && isScalar(pair.key) ? (pair.key.comment ?? undefined) : undefined;
}

/** A resource's `metadata` fields kpt reads (`yaml.ResourceMeta`). */
export interface ResourceMeta {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  labels: number;
}

/** Reads apiVersion, kind, name, namespace and the number of labels. */
export function resourceMeta(doc: Document): ResourceMeta {
  const root = doc.contents;
  const get = (node: unknown, key: string) => (isMap(node) ? node.get(key, true) : undefined);
  const meta = get(root, "metadata");
  const labels = get(meta, "labels");
  return {
    apiVersion: scalarText(get(root, "apiVersion")) ?? "",
    kind: scalarText(get(root, "kind")) ?? "",
    name: scalarText(get(meta, "name")) ?? "",
    namespace: scalarText(get(meta, "namespace")) ?? "",
    labels: isMap(labels) ? labels.items.length : 0,
  };
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ``). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/**
 * Adds kpt's merge comment (unless one is there) and upstream-identifier annotation to a resource;
 * resources without name, namespace and labels are left alone. Returns whether it changed anything.
 */
export function addMergeComment(doc: Document): boolean {
  const pair = metadataPair(doc);
  if (!pair || !isScalar(pair.key)) return false;
  const meta = resourceMeta(doc);
  if (meta.name === "" && meta.namespace === "" && meta.labels === 0) return false;
  const key = pair.key;
  if (!(key.comment ?? "").includes(MERGE_COMMENT_PREFIX)) {
    key.comment = ` ${MERGE_COMMENT_PREFIX} ${meta.namespace}/${meta.name}`;
  }
  const fromComment = nsAndNameForMerge(key.comment);
  let namespace = fromComment ? fromComment[0] : meta.namespace;
  const name = fromComment ? fromComment[1] : meta.name;
  if (namespace === "") namespace = "default";
  else if (meta.namespace === "~X") namespace = "~C";
  const value = `${groupOf(meta.apiVersion)}|${meta.kind}|${namespace}|${name}`;
  setAnnotations(doc, [[UPSTREAM_IDENTIFIER, value]]);
  return true;
}
