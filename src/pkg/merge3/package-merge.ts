/**
 * kpt's resource-merge of one package (its `Merge3`): the resources of the local package, of the
 * original upstream package and of the updated upstream package are matched by identity
 * (group, kind, namespace and name — from the `kpt-merge` comment when present, so a resource
 * renamed locally still matches — and file path), then per resource:
 *
 * | original | updated | local | result |
 * |---|---|---|---|
 * | – | – | yes | kept (added locally) |
 * | – | yes | – | added (added upstream) |
 * | any | – | – | gone |
 * | yes | – | yes | removed when unchanged locally, else kept |
 * | yes | yes | – | stays deleted (deleted locally) |
 * | any | yes | yes | field-by-field 3-way merge ({@link merge3}) |
 *
 * Only the package's own YAML files are touched (not its subpackages, not other files).
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
} from "../../krm/annotations.js";
import { type FileTree, packageDirs } from "../files.js";
import { groupOf, metadataComment, nsAndNameForMerge, resourceMeta } from "../merge-comments.js";
import {
  CNRM_BLUEPRINT,
  MERGE_SOURCE,
  MIGRATION_ID,
  type ResourceDoc,
  readResources,
  writeResources,
} from "../resource-io.js";
import { MergeError, type MergeOverride, printed, type YNode } from "./nodes.js";
import type { MergeSchemas } from "./schema.js";
import { merge3 } from "./walk.js";

/** A local edit the merge overrode, located in the package. */
export interface ResourceOverride extends MergeOverride {
  /** File of the resource, relative to the package. */
  file: string;
  /** The resource: `apiVersion`, `kind`, `namespace`, `name`. */
  resource: { apiVersion: string; kind: string; namespace: string; name: string };
}

/**
 * What the merge did with one resource besides merging it field by field: added upstream, deleted upstream
 * (and so removed), deleted upstream but kept because the package changed it, added locally (kept), deleted
 * locally (stays deleted).
 */
export interface ResourceOutcome {
  kind: "added-upstream" | "deleted-upstream" | "kept-changed" | "added-locally" | "deleted-locally";
  /** File of the resource, relative to the package (where it is, or was). */
  file: string;
  resource: { apiVersion: string; kind: string; namespace: string; name: string };
}

/** Input of {@link mergePackageResources}. */
export interface PackageMergeInput {
  /** The local package (root of the tree); its own files are merged. */
  local: FileTree;
  /** The package at the upstream revision it was fetched from (empty when unknown). */
  origin: FileTree;
  /** The package at the new upstream revision. */
  updated: FileTree;
  schemas: MergeSchemas;
  /** Receives the local edits the merge replaced with upstream's values. */
  overrides?: ResourceOverride[];
  /** Receives each resource added or deleted on either side ({@link ResourceOutcome}). */
  outcomes?: ResourceOutcome[];
}

interface Tuple {
  original?: ResourceDoc;
  updated?: ResourceDoc;
  dest?: ResourceDoc;
}

/** kpt's `ResourceMergeMatcher.IsSameResource` (merge on path). */
function sameResource(a: Document, b: Document): boolean {
  const ma = resourceMeta(a);
  const mb = resourceMeta(b);
  if (groupOf(ma.apiVersion) !== groupOf(mb.apiVersion) || ma.kind !== mb.kind) return false;
  const ca = nsAndNameForMerge(metadataComment(a));
  const cb = nsAndNameForMerge(metadataComment(b));
  if ((ca ? ca[1] : ma.name) !== (cb ? cb[1] : mb.name)) return false;
  if ((ca ? ca[0] : ma.namespace) !== (cb ? cb[0] : mb.namespace)) return false;
  return pathOf(a) === pathOf(b);
}

function duplicate(source: string, file: string): MergeError {
  return new MergeError(
    `found duplicate ${JSON.stringify(source)} resources in file ${JSON.stringify(file)}, please refer to "update" documentation for the fix`,
  );
}

function buildTuples(dest: ResourceDoc[], original: ResourceDoc[], updated: ResourceDoc[]): Tuple[] {
  const tuples: Tuple[] = [];
  const add = (r: ResourceDoc, slot: keyof Tuple, name: string) => {
    let t = tuples.find((t) => {
      const head = t.updated ?? t.original ?? t.dest;
      return head !== undefined && sameResource(head.doc, r.doc);
    });
    if (!t) {
      t = {};
      tuples.push(t);
    }
    if (t[slot]) throw duplicate(name, r.path);
    t[slot] = r;
  };
  for (const r of dest) add(r, "dest", "local");
  for (const r of original) add(r, "original", "original upstream");
  for (const r of updated) add(r, "updated", "updated upstream");
  return tuples;
}

const IGNORED_WHEN_COMPARING = [
  MERGE_SOURCE,
  INTERNAL_PATH,
  INTERNAL_INDEX,
  LEGACY_PATH,
  LEGACY_INDEX,
  MIGRATION_ID,
  CNRM_BLUEPRINT,
];

/** kpt's `resourceHandler.equals`: the same resource once the reader's annotations are ignored. */
function unchanged(a: Document, b: Document): boolean {
  const strip = (doc: Document) => {
    const copy = doc.clone();
    const ann = annotationsOf(copy);
    for (const key of IGNORED_WHEN_COMPARING) ann?.delete(key);
    return `${copy.commentBefore ?? ""}\u0000${copy.comment ?? ""}\u0000${printed(copy.contents as YNode)}`;
  };
  return strip(a) === strip(b);
}

/**
 * Merges the resources of the local package with the original and updated upstream packages and
 * returns the new local tree (other files untouched). Throws `MergeError` (duplicates, incompatible
 * fields) or `YamlSyntaxError` (a file that is not YAML).
 */
export function mergePackageResources(input: PackageMergeInput): FileTree {
  const subpackages = packageDirs(input.local);
  // kpt excludes upstream files under the local package's subpackage directories (by path prefix).
  const exclude = (file: string) => subpackages.some((d) => file.startsWith(d));
  const dest = readResources(input.local, { annotate: { [MERGE_SOURCE]: "dest" } });
  const original = readResources(input.origin, { exclude, annotate: { [MERGE_SOURCE]: "original" } });
  const updated = readResources(input.updated, { exclude, annotate: { [MERGE_SOURCE]: "updated" } });

  const output: ResourceDoc[] = [];
  const note = (kind: ResourceOutcome["kind"], r: ResourceDoc) => {
    const meta = resourceMeta(r.doc);
    const { apiVersion, namespace, name } = meta;
    input.outcomes?.push({ kind, file: r.path, resource: { apiVersion, kind: meta.kind, namespace, name } });
  };
  for (const t of buildTuples(dest, original, updated)) {
    const { original: o, updated: u, dest: d } = t;
    if (!o && !u && d) {
      output.push(d);
      note("added-locally", d);
    } else if (!o && u && !d) {
      output.push(u);
      note("added-upstream", u);
    } else if (!u && !d) continue;
    else if (o && !u && d) {
      const kept = !unchanged(o.doc, d.doc);
      if (kept) output.push(d);
      note(kept ? "kept-changed" : "deleted-upstream", d);
    } else if (o && !d) note("deleted-locally", o);
    else if (d && u) {
      const merged = mergeBoth(input, d, o, u);
      if (merged) output.push(merged);
    }
  }

  const result: FileTree = new Map(input.local);
  const written = writeResources(output);
  const readFiles = new Set(dest.map((r) => r.path));
  for (const file of readFiles) if (!written.has(file)) result.delete(file);
  for (const [file, text] of written) result.set(file, Buffer.from(text, "utf8"));
  return result;
}

/**
 * The 3-way merge of a resource both sides hold (`d` updated in place), or undefined when the merge
 * deletes it; the fields where the local side won go to `input.overrides`. Throws `MergeError` naming it.
 */
function mergeBoth(
  input: PackageMergeInput,
  d: ResourceDoc,
  o: ResourceDoc | undefined,
  u: ResourceDoc,
): ResourceDoc | undefined {
  const found: MergeOverride[] = [];
  let merged: YNode | undefined;
  try {
    merged = merge3(
      [d.doc.contents as YNode, o?.doc.contents as YNode | undefined, u.doc.contents as YNode],
      { schemas: input.schemas, inferAssociativeLists: false, overrides: found },
    );
  } catch (err) {
    if (!(err instanceof MergeError)) throw err;
    const meta = resourceMeta(d.doc);
    throw new MergeError(`${d.path}: ${meta.kind} ${meta.name}: ${err.message}`);
  }
  if (merged === undefined) return undefined;
  d.doc.contents = merged;
  if (input.overrides) {
    const { apiVersion, kind, namespace, name } = resourceMeta(d.doc);
    for (const f of found) {
      if (f.path[0] === "metadata" && f.path[1] === "annotations" && isReaderAnnotation(f.path[2])) continue;
      input.overrides.push({ ...f, file: d.path, resource: { apiVersion, kind, namespace, name } });
    }
  }
  return d;
}

function isReaderAnnotation(key: string | undefined): boolean {
  return key !== undefined && (IGNORED_WHEN_COMPARING.includes(key) || key === SEQ_INDENT);
}
