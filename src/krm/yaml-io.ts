/**
 * Reading and writing the YAML files of a package, kyaml-style: multi-document files, per-file
 * sequence indentation (kyaml's `PreserveSeqIndent`: `compact` or `wide`), comments and key order
 * kept. A document no function changed is written back byte for byte; a changed one is serialized
 * the way kyaml does (2-space indent, no line folding, no blank lines, Go-style quoting of new
 * strings).
 */
import { type Document, isMap, isNode } from "yaml";
import { writeDocument } from "../yaml/from-document.js";
import { goComment } from "../yaml/from-document-scalar.js";
import {
  DocumentSeparatorError,
  deriveSeqIndent,
  isEmptyDocument,
  parseStream,
  printDocument,
  type ReadStreamOptions,
  readYamlStream,
  type StreamDocument,
} from "../yaml/index.js";
import { Kind, Style, type YNode } from "../yaml/node.js";
import { nodeToDocument, yamlComment } from "../yaml/to-document.js";
import { viaDocument } from "./annotations-node.js";
import { documentNode } from "./document-node.js";
import {
  isBlankChunk,
  type ParsedDocument,
  type ParsedFile,
  type SeqIndent,
  splitChunks,
} from "./yaml-chunks.js";
import { YamlSyntaxError } from "./yaml-errors.js";
import { serializeWithYamlPackage } from "./yaml-go-write.js";
import { parseYamlFileWithYamlPackage } from "./yaml-package-read.js";

export { deriveSeqIndentStyle, type ParsedDocument, type ParsedFile, type SeqIndent } from "./yaml-chunks.js";
export { goNormalize, goStringifyOptions } from "./yaml-go-write.js";

/**
 * Parses one YAML file: its resource documents, as kyaml's ByteReader reads them (empty and null
 * documents skipped), or with `keepEmpty` every document (a Kptfile's first one is decoded as is).
 * Throws `YamlSyntaxError` (file and Go-worded line) on bad YAML.
 */
export function parseYamlFile(path: string, text: string, options: ReadStreamOptions = {}): ParsedFile {
  if (process.env.PORCHLIGHT_OLD_READER === "1") return parseYamlFileWithYamlPackage(path, text, options);
  let stream: StreamDocument[];
  try {
    stream = readYamlStream(text, options);
  } catch (err) {
    separatorProblem(path, err);
    // The `yaml` package's reading words the error as kpt does (or reads what ours refused).
    return parseYamlFileWithYamlPackage(path, text, options);
  }
  return streamFile(path, text, stream);
}

/**
 * Throws kpt's error for a `---` line kyaml refuses (`--- null` past the first line), which the `yaml`
 * package would read as a document. @throws YamlSyntaxError
 */
function separatorProblem(path: string, err: unknown): void {
  if (err instanceof DocumentSeparatorError)
    throw new YamlSyntaxError({ file: path, line: err.separatorLine, detail: err.message });
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
  const joined = returnedComment([doc.commentBefore, contents.commentBefore, key.commentBefore]);
  if (joined === undefined) return;
  key.commentBefore = joined;
  doc.commentBefore = null;
  contents.commentBefore = null;
}

/**
 * The one comment kpt's function round trip leaves above a returned resource's first key, from its
 * head comments in order (a trailing newline stands for a blank line): outer blank lines and the
 * last inner one dropped; undefined when nothing is left.
 */
function returnedComment(comments: ReadonlyArray<string | null | undefined>): string | undefined {
  const lines: string[] = [];
  for (const comment of comments) if (comment) lines.push(...comment.split("\n"));
  while (lines[0] === "") lines.shift();
  while (lines.at(-1) === "") lines.pop();
  const last = lines.lastIndexOf("");
  if (last !== -1) lines.splice(last, 1);
  return lines.length === 0 ? undefined : lines.join("\n");
}

/**
 * One document of a file as the engine reads it: {@link ParsedDocument} with the document node and
 * without its source text (the engine writes every document from its node).
 */
export interface NodeParsedDocument extends Omit<ParsedDocument, "doc" | "source"> {
  node: YNode;
}

/** A package file as the engine reads it: {@link ParsedFile} with document nodes. */
export interface NodeParsedFile extends Omit<ParsedFile, "docs"> {
  docs: NodeParsedDocument[];
}

/**
 * Reads one YAML file into document nodes for the engine (`parseYamlFile` without the Documents):
 * the same documents, indexes and sequence indentation. A file our reader refuses goes through
 * `parseYamlFile`'s fallback, which words the error as kpt does (or reads it: its Documents are
 * then converted once).
 * @throws YamlSyntaxError (file and Go-worded line) on bad YAML.
 */
export function readYamlFileNodes(path: string, text: string): NodeParsedFile {
  let stream: StreamDocument[] | undefined;
  if (process.env.PORCHLIGHT_OLD_READER !== "1") {
    try {
      stream = readYamlStream(text);
    } catch (err) {
      separatorProblem(path, err);
      stream = undefined;
    }
  }
  if (!stream) {
    const parsed = parseYamlFileWithYamlPackage(path, text);
    return {
      ...parsed,
      docs: parsed.docs.map(({ doc, index, seqIndent }) => ({ node: documentNode(doc), index, seqIndent })),
    };
  }
  const docs: NodeParsedDocument[] = stream.map((d, index) => ({
    node: d.node,
    index,
    seqIndent: d.seqIndent,
  }));
  return { path, text, seqIndent: docs[0]?.seqIndent ?? deriveSeqIndent(text), docs };
}

/** A file's documents as our reader gave them, each with its source chunk when the chunks line up. */
function streamFile(path: string, text: string, stream: StreamDocument[]): ParsedFile {
  let contentChunks = stream.length > 0 ? splitChunks(text).filter((c) => !isBlankChunk(c)) : [];
  // A `null` document is no resource either (kyaml skips it); only read when there may be one.
  if (contentChunks.length > stream.length) contentChunks = contentChunks.filter((c) => !isNullChunk(c));
  const sourceOk = contentChunks.length === stream.length;
  const docs: ParsedDocument[] = stream.map((d, index) => ({
    doc: nodeToDocument(d.node),
    source: sourceOk ? contentChunks[index] : undefined,
    index,
    seqIndent: d.seqIndent,
  }));
  return { path, text, seqIndent: docs[0]?.seqIndent ?? deriveSeqIndent(text), docs };
}

/** Whether a chunk's document is one kyaml skips (`null`, `~`, ...); false when it is not YAML. */
function isNullChunk(chunk: string): boolean {
  try {
    const nodes = parseStream(chunk);
    return nodes.length > 0 && nodes.every(isEmptyDocument);
  } catch {
    return false;
  }
}

/** A document node written as kyaml writes a changed document (`serializeChanged` on a node). */
export function serializeNode(node: YNode, seqIndent: SeqIndent): string {
  if (process.env.PORCHLIGHT_OLD_WRITER !== "1") return printDocument(node, seqIndent);
  return serializeWithYamlPackage(nodeToDocument(node), seqIndent);
}

/** One document node to write into a file, with its sequence indentation (see {@link DocumentToWrite}). */
export interface NodeToWrite {
  node: YNode;
  seqIndent: SeqIndent;
}

/** The text of a file holding `docs` in order (`renderFileText` on nodes): `---` lines between. */
export function renderNodeFileText(docs: readonly NodeToWrite[]): string {
  let out = "";
  for (let i = 0; i < docs.length; i++) {
    if (i > 0) out += "---\n";
    out += serializeNode(docs[i].node, docs[i].seqIndent);
  }
  return out;
}

/**
 * The head comments of a document node as the `yaml` Document reads them (`nodeToDocument`): the
 * document's, the root mapping's and its first key's; undefined for a root that is no block mapping
 * with a key.
 */
function documentHeads(
  doc: YNode,
): { key: YNode; doc?: string; contents?: string; first?: string } | undefined {
  const root = doc.content[0];
  if (root?.kind !== Kind.Mapping || (root.style & Style.Flow) !== 0 || root.content.length === 0)
    return undefined;
  const key = root.content[0];
  const head = yamlComment(doc.headComment);
  const first = yamlComment(key.headComment);
  if (doc.value === "---") return { key, doc: head, contents: first };
  if (head !== undefined && first !== undefined) return { key, first: `${head}\n\n${first}` };
  return { key, doc: head, first };
}

/** Whether a document node's head comments need the Document to be folded (a flow root mapping). */
/**
 * The head comments a node fold works on, or undefined when there is none to fold or the fold was
 * done through a Document (`viaFold`, for the layouts the node fold does not take).
 */
function headsToFold(doc: YNode, viaFold: (d: Document) => void): ReturnType<typeof documentHeads> {
  if (!foldsViaDocument(doc)) return documentHeads(doc);
  viaDocument(doc, viaFold);
  return undefined;
}

function foldsViaDocument(doc: YNode): boolean {
  const root = doc.content[0];
  return (
    root?.kind === Kind.Mapping &&
    (root.style & Style.Flow) !== 0 &&
    root.content.length > 0 &&
    (doc.headComment !== "" || root.headComment !== "" || root.content[0].headComment !== "")
  );
}

/** Gives a document node's head comments to its first key, as the Document's `key.commentBefore`. */
function setFirstKeyComment(doc: YNode, key: YNode, comment: string): void {
  key.headComment = goComment(comment);
  doc.headComment = "";
  doc.value = "";
}

/** {@link foldDocumentComment} on a document node: the same comments once written. */
export function foldNodeDocumentComment(doc: YNode): void {
  const heads = headsToFold(doc, foldDocumentComment);
  if (!heads) return;
  const own = heads.contents?.replace(/\n+$/, "");
  const before = [heads.doc?.replace(/\n+$/, ""), own, heads.first].filter(
    (c): c is string => typeof c === "string" && c !== "",
  );
  if (before.length === 0 || (!heads.doc && heads.contents === own)) return;
  setFirstKeyComment(doc, heads.key, before.join("\n"));
}

/**
 * Whether a head comment comes back the same from the fold: every line a `#` comment (no blank line
 * to drop) other than `# ` (which the `yaml` form reads as a bare `#`).
 */
function keptAsWritten(comment: string): boolean {
  let start = 0;
  for (;;) {
    const end = comment.indexOf("\n", start);
    const stop = end < 0 ? comment.length : end;
    if (comment.charCodeAt(start) !== 35) return false;
    if (stop - start === 2 && comment.charCodeAt(start + 1) === 32) return false;
    if (end < 0) return true;
    start = end + 1;
  }
}

/** {@link foldReturnedResourceComment} on a document node: the same comments once written. */
export function foldNodeReturnedResourceComment(doc: YNode): void {
  if (doc.headComment === "") {
    const root = doc.content[0];
    if (root?.kind === Kind.Mapping && (root.style & Style.Flow) === 0 && root.content.length > 0) {
      // Only the first key has head comments (a fold done before): they stay as they are when every
      // line is a comment the trip keeps as written; none is no fold at all.
      const first = root.content[0].headComment;
      if (first === "") return;
      if (keptAsWritten(first)) {
        doc.value = "";
        return;
      }
    }
  }
  const heads = headsToFold(doc, foldReturnedResourceComment);
  if (!heads) return;
  const joined = returnedComment([heads.doc, heads.contents, heads.first]);
  if (joined === undefined) return;
  setFirstKeyComment(doc, heads.key, joined);
}
