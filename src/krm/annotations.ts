/**
 * kpt's path/index annotations (kyaml `kioutil`): while a resource travels through a pipeline it
 * carries the file it came from and its document index in that file, in both the current
 * (`internal.config.kubernetes.io/*`) and the legacy (`config.kubernetes.io/*`) keys. Functions may
 * change either form to move or rename a resource; the engine reads them back and strips them all
 * before anything is written.
 */
import { type Document, isMap, isScalar, Scalar, YAMLMap } from "yaml";

/** Legacy path annotation (file relative to the package). */
export const LEGACY_PATH = "config.kubernetes.io/path";
/** Legacy index annotation (document index in the file, as a string). */
export const LEGACY_INDEX = "config.kubernetes.io/index";
/** Current path annotation. */
export const INTERNAL_PATH = "internal.config.kubernetes.io/path";
/** Current index annotation. */
export const INTERNAL_INDEX = "internal.config.kubernetes.io/index";
/** kyaml's per-resource sequence indentation style (`compact` | `wide`), see `PreserveSeqIndent`. */
export const SEQ_INDENT = "internal.config.kubernetes.io/seqindent";
/** kyaml's `FunctionFilter` id used to copy comments from a function's input to its output. */
export const RESOURCE_ID = "config.k8s.io/id";
/** kyaml's legacy id annotation (older kyaml). */
export const LEGACY_RESOURCE_ID = "internal.config.kubernetes.io/id";
/**
 * kpt's package of a resource while a render's functions run (`pkg.GetPkgPathAnnotation`): an output
 * resource is written into the package it names. Not in {@link PIPELINE_ANNOTATIONS}: a generator that
 * copies its source's annotations is meant to carry it (the resource lands in its source's package).
 */
export const PACKAGE_PATH = "internal.config.kubernetes.io/package-path";

/** Every annotation the engine adds while a resource is in the pipeline. */
export const PIPELINE_ANNOTATIONS = [
  LEGACY_INDEX,
  LEGACY_PATH,
  INTERNAL_INDEX,
  INTERNAL_PATH,
  SEQ_INDENT,
  RESOURCE_ID,
  LEGACY_RESOURCE_ID,
] as const;

/** The `metadata.annotations` mapping of a resource, or undefined. */
export function annotationsOf(doc: Document): YAMLMap | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  const meta = root.get("metadata", true);
  if (!isMap(meta)) return undefined;
  const ann = meta.get("annotations", true);
  return isMap(ann) ? ann : undefined;
}

/** One annotation value as a string, or undefined. */
export function getAnnotation(doc: Document, key: string): string | undefined {
  return annotationValue(annotationsOf(doc), key);
}

/**
 * Where a resource was read from, relative to its package: kyaml's `internal.config.kubernetes.io/path`,
 * else the legacy `config.kubernetes.io/path`; undefined without either.
 */
export function pathOf(doc: Document): string | undefined {
  return getAnnotation(doc, INTERNAL_PATH) ?? getAnnotation(doc, LEGACY_PATH);
}

/** One annotation of an annotations mapping as a string, or undefined. */
function annotationValue(annotations: YAMLMap | undefined, key: string): string | undefined {
  const node: unknown = annotations?.get(key, true);
  // A function may store a plain value in a map it built (`map.set(key, "x")`).
  const value = isScalar(node) ? node.value : node;
  if (value === null || value === undefined || typeof value === "object") return undefined;
  return String(value);
}

/**
 * Sets annotations (single-quoted, as kyaml writes them), creating `metadata.annotations` at the end
 * of `metadata` when missing. Returns whether the annotations map was created by this call.
 */
export function setAnnotations(doc: Document, values: ReadonlyArray<[string, string]>): boolean {
  const root = doc.contents;
  if (!isMap(root)) return false;
  let meta: unknown = root.get("metadata", true);
  if (!isMap(meta)) {
    meta = new YAMLMap();
    root.set("metadata", meta);
  }
  const metaMap = meta as YAMLMap;
  let ann: unknown = metaMap.get("annotations", true);
  let created = false;
  if (!isMap(ann)) {
    ann = new YAMLMap();
    metaMap.set("annotations", ann);
    created = true;
  }
  const annMap = ann as YAMLMap;
  for (const [key, value] of values) {
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_SINGLE;
    annMap.set(key, scalar);
  }
  return created;
}

/**
 * Removes the pipeline annotations. When `dropEmpty` is set, an annotations map that ends up empty,
 * or was empty or null to begin with (`annotations: {}`), is removed too, and then an empty
 * `metadata` (`metadata: {}`): kyaml's writer clears both on every resource it writes.
 */
export function stripPipelineAnnotations(doc: Document, dropEmpty: boolean): void {
  const ann = annotationsOf(doc);
  if (ann) for (const key of PIPELINE_ANNOTATIONS) ann.delete(key);
  if (!dropEmpty || !isMap(doc.contents)) return;
  const meta: unknown = doc.contents.get("metadata", true);
  if (!isMap(meta)) return;
  const value: unknown = meta.get("annotations", true);
  if ((ann && ann.items.length === 0) || (isScalar(value) && value.value === null))
    meta.delete("annotations");
  // kyaml clears an empty metadata as well (a kustomization.yaml without one gets none).
  if (meta.items.length === 0 && !meta.comment && !meta.commentBefore) doc.contents.delete("metadata");
}

/** Where a resource lives: file path (relative to its package) and document index. */
export interface ResourceLocation {
  path: string | undefined;
  index: number | undefined;
}

/**
 * Reads a resource's location as kyaml does: the internal keys win, the legacy ones are the
 * fallback; when a function changed only one form, the changed one wins (kpt's reconciliation).
 */
export function readLocation(doc: Document, original?: ResourceLocation): ResourceLocation {
  const annotations = annotationsOf(doc);
  const internalPath = annotationValue(annotations, INTERNAL_PATH);
  const legacyPath = annotationValue(annotations, LEGACY_PATH);
  const internalIndex = annotationValue(annotations, INTERNAL_INDEX);
  const legacyIndex = annotationValue(annotations, LEGACY_INDEX);
  const path = pickChanged(internalPath, legacyPath, original?.path);
  const indexText = pickChanged(
    internalIndex,
    legacyIndex,
    original?.index === undefined ? undefined : String(original.index),
  );
  const index = indexText === undefined ? undefined : Number.parseInt(indexText, 10);
  return { path, index: Number.isNaN(index) ? undefined : index };
}

/** kpt's reconciliation of the two forms of a location annotation (see `readLocation`). */
export function pickChanged(
  internal: string | undefined,
  legacy: string | undefined,
  original: string | undefined,
): string | undefined {
  if (internal !== undefined && legacy !== undefined && internal !== legacy) {
    // Only one form was changed by the function: the changed one is the intent.
    if (internal === original) return legacy;
    return internal;
  }
  return internal ?? legacy;
}
