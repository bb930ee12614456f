/**
 * Resources as the engine tracks them through the pipeline: the document node (our YAML layer's
 * `YNode`, the working form), the package it belongs to and where it was read from.
 */
import type { Document } from "yaml";
import { INTERNAL_INDEX, INTERNAL_PATH, LEGACY_INDEX, LEGACY_PATH, SEQ_INDENT } from "../krm/annotations.js";
import { annotationsNode, firstValue, nodePathOf, setNodeAnnotations } from "../krm/annotations-node.js";
import { documentNode } from "../krm/document-node.js";
import type { NodeParsedDocument, NodeParsedFile } from "../krm/yaml-io.js";
import { Kind, type YNode } from "../yaml/node.js";
import { documentScalarValue } from "../yaml/to-document.js";

/** One resource in the engine's working set. */
export interface Entry {
  /** The resource's document node (`Kind.Document`), edited in place by the steps. */
  node: YNode;
  /** Package the resource belongs to, relative to the root (`""` = root). */
  pkg: string;
  /** The document as read, when it came from a file. */
  origin: NodeParsedDocument | undefined;
  originFile: NodeParsedFile | undefined;
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
  doc: YNode,
  where: { relPath: string; index: number; seqIndent: string },
): boolean {
  const { relPath, index, seqIndent } = where;
  const writtenEmpty = annotationsNode(doc)?.content.length === 0;
  const created = setNodeAnnotations(doc, [
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

/** An entry for a resource given as a `yaml` Document (kpt fn eval's stdin, the CLI): converted once. */
export function documentEntry(doc: Document, createdAnnotations: boolean): Entry {
  return { node: documentNode(doc), pkg: "", origin: undefined, originFile: undefined, createdAnnotations };
}

/** kpt's `IsKRM` check of one resource; returns the problem or undefined. */
export function krmProblem(doc: Document): string | undefined {
  return krmFieldsProblem(doc.getIn(["apiVersion"]), doc.getIn(["kind"]), doc.getIn(["metadata", "name"]));
}

/** {@link krmProblem} on a document node. */
export function krmNodeProblem(doc: YNode): string | undefined {
  // The three fields as `fieldValue` reads them, the root mapping's keys scanned once.
  const root = doc.content[0];
  let apiVersion: YNode | undefined;
  let kind: YNode | undefined;
  let metadata: YNode | undefined;
  if (root?.kind === Kind.Mapping) {
    const c = root.content;
    for (let i = 0; i + 1 < c.length; i += 2) {
      const k = c[i];
      if (k.kind !== Kind.Scalar) continue;
      if (k.value === "apiVersion") apiVersion ??= c[i + 1];
      else if (k.value === "kind") kind ??= c[i + 1];
      else if (k.value === "metadata") metadata ??= c[i + 1];
    }
  }
  return krmFieldsProblem(
    nodeValue(apiVersion),
    nodeValue(kind),
    nodeValue(metadata && firstValue(metadata, "name")),
  );
}

/** A field's node as `fieldValue` gives it: a scalar's value, a collection itself. */
function nodeValue(node: YNode | undefined): unknown {
  if (!node) return undefined;
  return node.kind === Kind.Scalar ? documentScalarValue(node) : node;
}

function krmFieldsProblem(apiVersion: unknown, kind: unknown, name: unknown): string | undefined {
  if (apiVersion === undefined || apiVersion === null || apiVersion === "")
    return "resource must have `apiVersion`";
  if (kind === undefined || kind === null || kind === "") return "resource must have `kind`";
  if (name === undefined || name === null || name === "") return "resource must have `metadata.name`";
  return undefined;
}

/** kpt's `AreKRM` over entries (kustomization files are exempt): `<path>: <problem>` or undefined. */
export function nonKrmProblem(entries: readonly Entry[]): string | undefined {
  for (const entry of entries) {
    const problem = krmNodeProblem(entry.node);
    if (!problem) continue;
    const path = nodePathOf(entry.node) ?? "";
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (base === "kustomization.yaml" || base === "kustomization.yml" || base === "Kustomization") continue;
    return `${path}: ${problem}`;
  }
  return undefined;
}
