/**
 * Turning the working set back into files (kyaml's `LocalPackageWriter` as kpt uses it): resources
 * grouped by their path annotation (relative to their package), ordered by index, pipeline
 * annotations stripped, files whose resources all disappeared pruned; other files untouched. A `*.json`
 * file holding one resource is written as JSON.
 */
import { posix } from "node:path";
import type { Document } from "yaml";
import { annotationsOf, INTERNAL_PATH, LEGACY_PATH, SEQ_INDENT, setAnnotations } from "../krm/annotations.js";
import { fieldValue, getNodeAnnotation, stripNodePipelineAnnotations } from "../krm/annotations-node.js";
import { goJsonText, isJsonPath } from "../krm/json-io.js";
import { joinPath } from "../krm/package-tree.js";
import { type NodeParsedFile, type NodeToWrite, renderNodeFileText } from "../krm/yaml-io.js";
import { cloneNode, type YNode } from "../yaml/node.js";
import { nodeToDocument } from "../yaml/to-document.js";
import { type Entry, entryLocation } from "./entries.js";

const encoder = new TextEncoder();

/** The default file for a resource without a path annotation (kyaml: `[<namespace>/]<kind>_<name>.yaml`). */
export function defaultPath(doc: YNode): string {
  const kind = fieldText(doc, ["kind"]).toLowerCase();
  const name = fieldText(doc, ["metadata", "name"]);
  const namespace = fieldValue(doc, ["metadata", "namespace"]);
  const file = `${kind}_${name}.yaml`;
  return typeof namespace === "string" && namespace !== "" ? `${namespace}/${file}` : file;
}

/** `String(doc.getIn(path) ?? "")` of the Document version (a collection there: its JSON). */
function fieldText(doc: YNode, path: readonly string[]): string {
  const value = fieldValue(doc, path);
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return String(nodeToDocument(doc).getIn(path));
  return String(value);
}

/**
 * A path annotation as a path inside the package: normalized, and an absolute path taken from the package
 * root as kyaml's writer does (`filepath.Join(pkg, "/a/b.yaml")` is `pkg/a/b.yaml`).
 */
export function packageRelative(rel: string): string {
  const clean = posix.normalize(rel);
  return posix.isAbsolute(clean) ? clean.replace(/^\/+/, "") : clean;
}

interface Placed {
  entry: Entry;
  file: string;
  index: number;
  order: number;
}

/** Where each entry goes: full normalized path relative to the root, and its index in the file. */
export function placeEntries(entries: readonly Entry[]): Placed[] {
  // Resources of one file follow each other: the last (package, path) pair's file is kept.
  let last: { pkg: string; rel: string; file: string } | undefined;
  return entries.map((entry, order) => {
    const loc = entryLocation(entry);
    const rel = loc.path ?? defaultPath(entry.node);
    if (last?.pkg !== entry.pkg || last.rel !== rel)
      last = { pkg: entry.pkg, rel, file: posix.normalize(joinPath(entry.pkg, packageRelative(rel))) };
    return { entry, file: last.file, index: loc.index ?? Number.MAX_SAFE_INTEGER, order };
  });
}

/**
 * Writes the entries into a copy of `files`. `parsed` are the files as read; `inputFiles` those that
 * held resources (pruned when no resource is left in them).
 */
export function composeFiles(options: {
  files: ReadonlyMap<string, Uint8Array>;
  entries: readonly Entry[];
  parsed: ReadonlyMap<string, NodeParsedFile>;
  inputFiles: ReadonlySet<string>;
}): { files: Map<string, Uint8Array>; resourcePaths: string[] } {
  const out = new Map(options.files);
  const groups = new Map<string, Placed[]>();
  for (const placed of placeEntries(options.entries)) {
    const list = groups.get(placed.file) ?? [];
    list.push(placed);
    groups.set(placed.file, list);
  }
  for (const [file, list] of groups) {
    list.sort((a, b) => a.index - b.index || a.order - b.order);
    const docs = list.map((p) => {
      const style = getNodeAnnotation(p.entry.node, SEQ_INDENT);
      stripNodePipelineAnnotations(p.entry.node, true);
      // kyaml writes a resource without its seqindent annotation compact.
      const seqIndent =
        style === "wide" || style === "compact" ? style : (p.entry.origin?.seqIndent ?? "compact");
      return { node: p.entry.node, seqIndent } satisfies NodeToWrite;
    });
    // kyaml JSON-encodes a *.json file's single resource; more than one is written as YAML.
    const json = isJsonPath(file) && docs.length === 1 ? goJsonText(nodeToDocument(docs[0].node)) : undefined;
    const text = json ?? renderNodeFileText(docs);
    // A file written as it was read keeps its bytes: no encoding (most files of most renders).
    if (!sameAsRead(text, options.parsed.get(file), options.files.get(file)))
      out.set(file, encoder.encode(text));
  }
  for (const file of options.inputFiles) {
    if (!groups.has(file)) out.delete(file);
  }
  return { files: out, resourcePaths: [...groups.keys()].sort() };
}

/**
 * Whether `text` is the file as read: its decoded text, from bytes without a byte-order mark (which
 * decoding drops and writing does not put back). The bytes are valid UTF-8 (a render refuses a file
 * that is not), so they are what encoding the text gives.
 */
function sameAsRead(text: string, read: NodeParsedFile | undefined, bytes: Uint8Array | undefined): boolean {
  if (read === undefined || bytes === undefined || read.text !== text) return false;
  return !(bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf);
}

/**
 * The resources as kpt prints them with `-o stdout`: clones whose path annotations are relative to
 * the root package.
 */
export function outputResources(entries: readonly Entry[]): Document[] {
  return placeEntries(entries).map((p) => {
    const doc = nodeToDocument(cloneNode(p.entry.node));
    const index = String(p.index === Number.MAX_SAFE_INTEGER ? 0 : p.index);
    if (!annotationsOf(doc)) setAnnotations(doc, []);
    setAnnotations(doc, [
      ["config.kubernetes.io/index", index],
      [LEGACY_PATH, p.file],
      ["internal.config.kubernetes.io/index", index],
      [INTERNAL_PATH, p.file],
    ]);
    return doc;
  });
}
