/**
 * Reading and writing a package's resources the way kpt's update does (kyaml's
 * `LocalPackageReadWriter`): every YAML document of the package's own `*.yaml` / `*.yml` files,
 * annotated with where it came from (path, index, sequence indentation); written back grouped by
 * file, ordered by index, each document serialized as kyaml writes it.
 */
import { type Document, isMap, isScalar, isSeq, visit } from "yaml";
import {
  annotationsOf,
  getAnnotation,
  INTERNAL_INDEX,
  INTERNAL_PATH,
  LEGACY_INDEX,
  LEGACY_PATH,
  PIPELINE_ANNOTATIONS,
  pathOf,
  SEQ_INDENT,
  setAnnotations,
} from "../krm/annotations.js";
import { parseYamlFile, type SeqIndent, serializeChanged } from "../krm/yaml-io.js";
import { type FileTree, isYamlFile, ownFiles, rootIgnore, walkOrder } from "./files.js";

/** kpt's annotation telling which of the three versions a resource was read from during a merge. */
export const MERGE_SOURCE = "config.kubernetes.io/merge-source";
/** kpt's cnrm attribution annotation (ignored when comparing resources). */
export const CNRM_BLUEPRINT = "cnrm.cloud.google.com/blueprint";
/** kyaml's annotations-migration id (ignored when comparing resources). */
export const MIGRATION_ID = "internal.config.kubernetes.io/annotations-migration-resource-id";

/** One resource document as read, with where it came from. */
export interface ResourceDoc {
  doc: Document;
  path: string;
  index: number;
}

/** Which files to read. */
export interface ReadOptions {
  /** Also read the files of subpackages (directories holding a Kptfile). */
  includeSubpackages?: boolean;
  /** Skip files for which this returns true (kpt's exclusion of the destination's subpackages). */
  exclude?: (file: string) => boolean;
  /** Extra annotations to set on every resource (e.g. the merge source). */
  annotate?: Record<string, string>;
}

/**
 * kyaml's `DeriveSeqIndentStyle`: the first sequence item whose key line (comments skipped) is a
 * plain `key:` line decides — same indentation is compact, two more spaces wide; default compact.
 */
export function seqIndentOf(text: string): SeqIndent {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i].indexOf("- ");
    if (at < 0 || lines[i].slice(0, at).trim() !== "") continue;
    let keyLine = "";
    for (let j = i - 1; j >= 0; j--) {
      const t = lines[j].trim();
      if (t.startsWith("#") || t === "") continue;
      keyLine = lines[j];
      break;
    }
    if (keyLine === "") continue;
    const keyIndent = keyLine.length - keyLine.trimStart().length;
    const trimmed = keyLine.trim();
    if (trimmed.split(":").length !== 2 || !trimmed.endsWith(":")) continue;
    if (at === keyIndent) return "compact";
    if (at - keyIndent === 2) return "wide";
  }
  return "compact";
}

/**
 * Reads the resources of the package at the root of `tree`. Throws `YamlSyntaxError` naming the
 * file on bad YAML.
 */
export function readResources(tree: FileTree, options: ReadOptions = {}): ResourceDoc[] {
  const ignored = rootIgnore(tree);
  const files = (options.includeSubpackages ? [...tree.keys()].sort(walkOrder) : ownFiles(tree)).filter(
    (f) => isYamlFile(f) && !ignored?.(f) && !options.exclude?.(f) && !f.split("/").includes(".git"),
  );
  const out: ResourceDoc[] = [];
  for (const file of files) {
    const text = tree.get(file)!.toString("utf8").replace(/\r\n/g, "\n");
    const parsed = parseYamlFile(file, text);
    for (const { doc, source, index } of parsed.docs) {
      normalizeComments(doc, text);
      const seqIndent = source === undefined ? parsed.seqIndent : seqIndentOf(source);
      if (isMap(doc.contents)) {
        const values: Record<string, string> = {
          [LEGACY_INDEX]: String(index),
          [LEGACY_PATH]: file,
          [INTERNAL_INDEX]: String(index),
          [INTERNAL_PATH]: file,
          [SEQ_INDENT]: seqIndent,
          ...options.annotate,
        };
        setAnnotations(
          doc,
          Object.keys(values)
            .sort()
            .map((k) => [k, values[k]]),
        );
      }
      out.push({ doc, path: file, index });
    }
  }
  return out;
}

/**
 * Puts comments where Go's yaml.v3 keeps them: a comment before the first key of a nested map is
 * that key's head comment, a comment before the first item of a nested list is that item's, and a
 * comment on a list item's dash line (`- # note` then `  key: v`, as yaml.v3 writes the head comment
 * of an item's first key) belongs to that first key. `text` is the source the document was parsed from.
 */
export function normalizeComments(doc: Document, text?: string): void {
  visit(doc, {
    Seq(_key, seq) {
      if (text === undefined) return;
      for (const item of seq.items) {
        if (!isMap(item) || !item.commentBefore || item.items.length === 0 || !item.range) continue;
        const first = item.items[0].key;
        if (!isScalar(first)) continue;
        const before = text.slice(0, item.range[0]);
        const lineStart = before.lastIndexOf("\n", before.lastIndexOf("#")) + 1;
        if (/^\s*- #/.test(before.slice(lineStart))) {
          first.commentBefore = join(item.commentBefore, first.commentBefore);
          item.commentBefore = undefined;
        }
      }
    },
    Pair(_key, pair) {
      const value = pair.value;
      if (isMap(value) && !value.flow && value.commentBefore && value.items.length > 0) {
        const first = value.items[0].key;
        if (isScalar(first)) {
          first.commentBefore = join(value.commentBefore, first.commentBefore);
          value.commentBefore = undefined;
        }
      } else if (isSeq(value) && !value.flow && value.commentBefore && value.items.length > 0) {
        const first = value.items[0];
        if (isScalar(first) || isMap(first) || isSeq(first)) {
          first.commentBefore = join(value.commentBefore, first.commentBefore);
          value.commentBefore = undefined;
        }
      }
    },
  });
}

function join(a: string | null | undefined, b: string | null | undefined): string {
  return a && b ? `${a}\n${b}` : (a ?? b ?? "");
}

function indexOf(doc: Document): string {
  return getAnnotation(doc, INTERNAL_INDEX) ?? getAnnotation(doc, LEGACY_INDEX) ?? "";
}

/** Removes the reader's annotations (and the merge source); an emptied annotations map goes too. */
export function stripReaderAnnotations(doc: Document): void {
  const ann = annotationsOf(doc);
  if (ann) for (const key of [...PIPELINE_ANNOTATIONS, MERGE_SOURCE]) ann.delete(key);
  clearEmptyMetadata(doc);
}

/**
 * kyaml's `ClearEmptyAnnotations`: an empty (or null) `metadata.annotations` goes, and so does an
 * empty (or null) `metadata`.
 */
export function clearEmptyMetadata(doc: Document): void {
  const root = doc.contents;
  if (!isMap(root)) return;
  const meta = root.get("metadata", true);
  if (isMap(meta)) {
    const ann = meta.get("annotations", true);
    if (meta.has("annotations") && !(isMap(ann) && ann.items.length > 0) && !isSeq(ann))
      meta.delete("annotations");
  }
  const after = root.get("metadata", true);
  if (root.has("metadata") && !(isMap(after) && after.items.length > 0) && !isSeq(after))
    root.delete("metadata");
}

/**
 * kyaml's `LocalPackageWriter`: groups resources by their path annotation, orders each file's
 * documents by index (stable; documents without index first), strips the reader's annotations and
 * serializes each document with its own sequence indentation. Returns file → text.
 */
export function writeResources(docs: readonly ResourceDoc[]): Map<string, string> {
  const byFile = new Map<string, Document[]>();
  for (const r of docs) {
    const file = pathOf(r.doc) ?? r.path;
    if (!byFile.has(file)) byFile.set(file, []);
    byFile.get(file)!.push(r.doc);
  }
  const out = new Map<string, string>();
  for (const [file, list] of byFile) {
    const sorted = list
      .map((doc, i) => ({ doc, i, index: indexOf(doc) }))
      .sort((a, b) => {
        if (a.index === b.index) return a.i - b.i;
        if (a.index === "") return -1;
        if (b.index === "") return 1;
        return Number.parseInt(a.index, 10) - Number.parseInt(b.index, 10) || a.i - b.i;
      });
    const parts = sorted.map(({ doc }) => {
      const seqIndent: SeqIndent = getAnnotation(doc, SEQ_INDENT) === "wide" ? "wide" : "compact";
      stripReaderAnnotations(doc);
      return serializeChanged(doc, seqIndent);
    });
    out.set(file, parts.join("---\n"));
  }
  return out;
}
