/**
 * Resources as the engine tracks them through the pipeline: the document node (our YAML layer's
 * `YNode`, the working form), the package it belongs to and where it was read from.
 */
import type { Document } from "yaml";
import {
  INTERNAL_INDEX,
  INTERNAL_PATH,
  LEGACY_INDEX,
  LEGACY_PATH,
  PACKAGE_PATH,
  RESOURCE_ID,
  type ResourceLocation,
  SEQ_INDENT,
} from "../krm/annotations.js";
import {
  annotationsNode,
  firstValue,
  locationIn,
  nodePathOf,
  readNodeLocation,
  setNodeAnnotations,
} from "../krm/annotations-node.js";
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
  /**
   * What the engine reads of `node`, taken when the entry was made (see {@link EntryFacts}); nothing
   * edits an entry's node until a step takes it, and a step makes new entries. Absent: read it anew.
   */
  facts?: EntryFacts;
}

/**
 * An entry's node as the engine reads it at each step and at the end: taken once, right after the
 * node was read or came out of a step (while it is in cache), not in one more pass over the tree.
 */
export interface EntryFacts {
  /** {@link entryLocation}'s value. */
  location: ResourceLocation;
  /** {@link krmNodeProblem}'s value. */
  krmProblem: string | undefined;
  /** {@link idFreeAnnotations} with package paths. */
  idFree: YNode | undefined;
}

/** The entry's facts, taken now (see {@link EntryFacts}). */
export function takeFacts(entry: Entry): EntryFacts {
  const ann = annotationsNode(entry.node);
  return {
    location: locationIn(ann, originalLocation(entry)),
    krmProblem: krmNodeProblem(entry.node),
    idFree: idFreeIn(ann, true),
  };
}

/**
 * A resource's location as the function left it: its path annotation (relative to its package, as
 * written by the function, not normalized) and index (kyaml's reconciliation of the two forms).
 */
export function entryLocation(entry: Entry): ResourceLocation {
  return entry.facts?.location ?? readNodeLocation(entry.node, originalLocation(entry));
}

/** Where the entry was read from (relative to its package), if it was. */
function originalLocation(entry: Entry): ResourceLocation | undefined {
  const full = entry.origin ? entry.originFile?.path : undefined;
  if (full === undefined) return undefined;
  const path = entry.pkg === "" ? full : full.slice(entry.pkg.length + 1);
  return { path, index: entry.origin?.index };
}

/**
 * A document's annotations map when setting the engine's id (and package path) on it and removing
 * them after the run would leave it as it was: a non-empty map without those keys whose last key has
 * no foot comment. Otherwise undefined.
 */
export function idFreeAnnotations(doc: YNode, packagePaths: boolean): YNode | undefined {
  return idFreeIn(annotationsNode(doc), packagePaths);
}

function idFreeIn(ann: YNode | undefined, packagePaths: boolean): YNode | undefined {
  if (!ann || ann.content.length === 0) return undefined;
  if (ann.content[ann.content.length - 2].footComment !== "") return undefined;
  const c = ann.content;
  for (let i = 0; i + 1 < c.length; i += 2) {
    const k = c[i];
    if (k.kind === Kind.Scalar && (k.value === RESOURCE_ID || (packagePaths && k.value === PACKAGE_PATH)))
      return undefined;
  }
  return ann;
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
  return {
    node: documentNode(doc),
    pkg: "",
    origin: undefined,
    originFile: undefined,
    createdAnnotations,
    facts: undefined,
  };
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
    const problem = entry.facts ? entry.facts.krmProblem : krmNodeProblem(entry.node);
    if (!problem) continue;
    const path = nodePathOf(entry.node) ?? "";
    const base = path.slice(path.lastIndexOf("/") + 1);
    if (base === "kustomization.yaml" || base === "kustomization.yml" || base === "Kustomization") continue;
    return `${path}: ${problem}`;
  }
  return undefined;
}
