/**
 * Reading and writing the YAML files of a package, kyaml-style: multi-document files, per-file
 * sequence indentation (kyaml's `PreserveSeqIndent`: `compact` or `wide`), comments and key order
 * kept. A document no function changed is written back byte for byte; a changed one is serialized
 * the way kyaml does (2-space indent, no line folding, no blank lines, Go-style quoting of new
 * strings).
 */
import { type Document, isMap, isNode } from "yaml";
import { writeDocument } from "../yaml/from-document.js";
import { deriveSeqIndent, readYamlStream, type StreamDocument } from "../yaml/index.js";
import { nodeToDocument } from "../yaml/to-document.js";
import {
  isBlankChunk,
  type ParsedDocument,
  type ParsedFile,
  type SeqIndent,
  splitChunks,
} from "./yaml-chunks.js";
import { serializeWithYamlPackage } from "./yaml-go-write.js";
import { parseYamlFileWithYamlPackage } from "./yaml-package-read.js";

export { deriveSeqIndentStyle, type ParsedDocument, type ParsedFile, type SeqIndent } from "./yaml-chunks.js";
export { goNormalize, goStringifyOptions } from "./yaml-go-write.js";

/**
 * Parses one YAML file. Throws `YamlSyntaxError` (file and Go-worded line) on bad YAML.
 */
export function parseYamlFile(path: string, text: string): ParsedFile {
  if (process.env.PORCHLIGHT_OLD_READER === "1") return parseYamlFileWithYamlPackage(path, text);
  let stream: StreamDocument[];
  try {
    stream = readYamlStream(text);
  } catch {
    // The `yaml` package's reading words the error as kpt does (or reads what ours refused).
    return parseYamlFileWithYamlPackage(path, text);
  }
  const contentChunks = stream.length > 0 ? splitChunks(text).filter((c) => !isBlankChunk(c)) : [];
  const sourceOk = contentChunks.length === stream.length;
  const docs: ParsedDocument[] = stream.map((d, index) => ({
    doc: nodeToDocument(d.node),
    source: sourceOk ? contentChunks[index] : undefined,
    index,
    seqIndent: d.seqIndent,
  }));
  return { path, text, seqIndent: docs[0]?.seqIndent ?? deriveSeqIndent(text), docs };
}

/**
 * Serializes a changed document like kyaml: blank lines dropped, new strings quoted as Go's yaml.v3
 * would, no `---` marker (the file writer adds separators). Mutates the document's formatting only.
 */
export function serializeChanged(doc: Document, seqIndent: SeqIndent): string {
  if (process.env.PORCHLIGHT_OLD_WRITER !== "1") return writeDocument(doc, seqIndent === "compact");
  return serializeWithYamlPackage(doc, seqIndent);
}

/** One document to write into a file, with where it came from (if read from disk). */
export interface DocumentToWrite {
  doc: Document;
  origin: ParsedDocument | undefined;
  originFile: ParsedFile | undefined;
  /**
   * The document's sequence indentation (its `internal.config.kubernetes.io/seqindent` annotation,
   * which travels with it through the functions); kyaml writes a resource without one compact.
   */
  seqIndent?: SeqIndent;
}

/**
 * The text of a file holding `docs` in order, as kyaml writes it: every document serialized the way
 * Go's yaml.v3 writes it (each with its own sequence indentation), joined by `---` lines. kpt writes
 * every resource it read back through kyaml, so a document no function changed is normalized too
 * (blank lines between nodes dropped, trailing spaces cut, long plain scalars on one line, CRLF as LF);
 * a document already in that form comes back byte for byte.
 */
export function renderFileText(options: { path: string; docs: readonly DocumentToWrite[] }): string {
  return options.docs
    .map((d) => serializeChanged(d.doc, d.seqIndent ?? d.origin?.seqIndent ?? "compact"))
    .join("---\n");
}

/**
 * Moves a document's leading comment that a blank line sets apart from the content onto the first key
 * (the blank line goes), as kpt's function round trip does for every resource a function returns: in a
 * ResourceList the comment is the item's, directly above its first key.
 */
export function foldDocumentComment(doc: Document): void {
  const contents = doc.contents;
  if (!isMap(contents) || contents.items.length === 0 || !isNode(contents.items[0].key)) return;
  const key = contents.items[0].key;
  // After a `---` line the parser gives the comment to the mapping, a trailing newline for the blank line.
  const own = contents.commentBefore?.replace(/\n+$/, "");
  const before = [doc.commentBefore?.replace(/\n+$/, ""), own, key.commentBefore].filter(
    (c): c is string => typeof c === "string" && c !== "",
  );
  if (before.length === 0 || (!doc.commentBefore && contents.commentBefore === own)) return;
  key.commentBefore = before.join("\n");
  doc.commentBefore = null;
  contents.commentBefore = null;
}

/**
 * What kpt's function round trip leaves of the comments that head a resource a function returned: one
 * comment above the first key, without the last blank line among them (yaml.v3 reads the lines above
 * that blank line as the document's head comment and the rest as the first key's; the trip through a
 * ResourceList joins the two). Earlier blank lines stay. Mutates the document's comments only.
 */
export function foldReturnedResourceComment(doc: Document): void {
  const contents = doc.contents;
  if (!isMap(contents) || contents.items.length === 0 || !isNode(contents.items[0].key)) return;
  const key = contents.items[0].key;
  const lines: string[] = [];
  for (const comment of [doc.commentBefore, contents.commentBefore, key.commentBefore]) {
    // A trailing newline stands for a blank line between the comment and the content.
    if (comment) lines.push(...comment.split("\n"));
  }
  while (lines[0] === "") lines.shift();
  while (lines.at(-1) === "") lines.pop();
  const last = lines.lastIndexOf("");
  if (last !== -1) lines.splice(last, 1);
  if (lines.length === 0) return;
  key.commentBefore = lines.join("\n");
  doc.commentBefore = null;
  contents.commentBefore = null;
}
