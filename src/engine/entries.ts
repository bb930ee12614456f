/**
 * Resources as the engine tracks them through the pipeline: the document, the package it belongs
 * to and where it was read from (to write untouched documents back byte for byte).
 */
import type { Document } from "yaml";
import {
  annotationsOf,
  INTERNAL_INDEX,
  INTERNAL_PATH,
  LEGACY_INDEX,
  LEGACY_PATH,
  pathOf,
  SEQ_INDENT,
  setAnnotations,
} from "../krm/annotations.js";
import type { ParsedDocument, ParsedFile } from "../krm/yaml-io.js";

/** One resource in the engine's working set. */
export interface Entry {
  doc: Document;
  /** Package the resource belongs to, relative to the root (`""` = root). */
  pkg: string;
  /** The document as read, when it came from a file. */
  origin: ParsedDocument | undefined;
  originFile: ParsedFile | undefined;
  /**
   * Whether `metadata.annotations` is removed when it ends up empty (kyaml's ClearEmptyAnnotations):
   * true when the engine created it or it held annotations when read; false for a map the user wrote
   * empty (`annotations: {}`), which is kept as written.
   */
  createdAnnotations: boolean;
}

/**
 * Annotates a document read from `relPath` (relative to its package) the way kpt's reader does.
 * Returns whether its annotations map is to be removed when it ends up empty (see `createdAnnotations`).
 */
export function annotateRead(
  doc: Document,
  where: { relPath: string; index: number; seqIndent: string },
): boolean {
  const { relPath, index, seqIndent } = where;
  const writtenEmpty = annotationsOf(doc)?.items.length === 0;
  const created = setAnnotations(doc, [
    [LEGACY_INDEX, String(index)],
    [LEGACY_PATH, relPath],
    [INTERNAL_INDEX, String(index)],
    [INTERNAL_PATH, relPath],
    [SEQ_INDENT, seqIndent],
  ]);
  return created || !writtenEmpty;
}

/** Whether `pkg` is `ancestor` or below it. */
export function inSubtree(pkg: string, ancestor: string): boolean {
  return ancestor === "" || pkg === ancestor || pkg.startsWith(`${ancestor}/`);
}

/** kpt's `IsKRM` check of one resource; returns the problem or undefined. */
export function krmProblem(doc: Document): string | undefined {
  const apiVersion = doc.getIn(["apiVersion"]);
  const kind = doc.getIn(["kind"]);
  const name = doc.getIn(["metadata", "name"]);
  if (apiVersion === undefined || apiVersion === null || apiVersion === "")
    return "resource must have `apiVersion`";
  if (kind === undefined || kind === null || kind === "") return "resource must have `kind`";
  if (name === undefined || name === null || name === "") return "resource must have `metadata.name`";
  return undefined;
}

/** kpt's `AreKRM` over entries (kustomization files are exempt): `<path>: <problem>` or undefined. */
export function nonKrmProblem(entries: readonly Entry[]): string | undefined {
  for (const entry of entries) {
    const path = pathOf(entry.doc) ?? "";
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (base === "kustomization.yaml" || base === "kustomization.yml" || base === "Kustomization") continue;
    const problem = krmProblem(entry.doc);
    if (problem) return `${path}: ${problem}`;
  }
  return undefined;
}
