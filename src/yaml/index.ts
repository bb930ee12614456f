/**
 * Our YAML layer: a reader and writer modelled on go-yaml v3 (scanner, parser, emitter) as kyaml
 * drives them. `parseStream` reads every document of a text into yaml.v3-shaped nodes;
 * `printDocument` writes one back exactly as kyaml's ByteWriter does; `readYamlStream` and
 * `printYamlStream` do a whole file the way kpt reads and writes a package file.
 */
import { emitDocument } from "./emitter.js";
import { fastReadDocument } from "./fast/index.js";
import type { YNode } from "./node.js";
import { parseStream } from "./parser.js";

export { type EmitOptions, emitDocument } from "./emitter.js";
export { cloneNode, Kind, mapGet, Style, scalar, YNode } from "./node.js";
export { parseStream } from "./parser.js";
export { longTag, resolvePlain, shortTag } from "./resolve.js";
export { YamlError } from "./scanner.js";

import { YamlError } from "./scanner.js";

/** kyaml's sequence indentation styles. */
export type SeqIndent = "compact" | "wide";

/** One resource document of a file as kpt reads it. */
export interface StreamDocument {
  node: YNode;
  /** Position among the file's non-empty documents (kpt's `config.kubernetes.io/index`). */
  index: number;
  /** The document's own sequence indentation (kyaml's `DeriveSeqIndentStyle` on its text). */
  seqIndent: SeqIndent;
}

/**
 * Whether kyaml's ByteReader skips a document: one with no content, or whose content is tagged
 * `!!null` (kyaml's `IsYNodeEmptyDoc`) — empty, `null`, `Null`, `NULL`, `~`, an anchored null, or
 * any node with an explicit `!!null` tag. The document goes with its comments.
 */
export function isEmptyDocument(doc: YNode): boolean {
  const c = doc.content[0];
  return c === undefined || c.tag === "!!null";
}

/**
 * A `---` line with more than a comment after it, past a file's first line (kyaml's
 * `splitDocuments` refuses it before any YAML is read): `message` is kyaml's words.
 */
export class DocumentSeparatorError extends YamlError {
  constructor(
    /** The separator line, trimmed. */
    readonly separator: string,
    /** The 1-based line of the separator. */
    readonly separatorLine: number,
  ) {
    super(
      `invalid document separator: ${separator}`,
      { index: 0, line: separatorLine - 1, column: 0 },
      "",
      separatorLine,
    );
    this.message = `invalid document separator: ${separator}`;
  }
}

/** How {@link readYamlStream} reads. */
export interface ReadStreamOptions {
  /**
   * Keep the documents kyaml's ByteReader skips ({@link isEmptyDocument}): for a Kptfile, whose
   * first YAML document kpt decodes whatever it holds (a leading `null` is an unknown resource type).
   */
  keepEmpty?: boolean;
}

/**
 * Reads a YAML file's documents as kyaml's ByteReader does: empty and null documents skipped (unless
 * `keepEmpty`), each remaining one indexed and given the sequence indentation of its own text.
 * @throws YamlError on bad YAML.
 */
export function readYamlStream(text: string, options: ReadStreamOptions = {}): StreamDocument[] {
  const keepEmpty = options.keepEmpty === true;
  // kyaml's ByteReader: CRLF to LF, then each `---` line splits off a document decoded on its own.
  const out: StreamDocument[] = [];
  let header = "";
  for (const { text: chunk, line, header: isHeader } of kyamlChunks(text)) {
    if (isHeader) {
      // Deliberately not kpt: a comment block above the first `---` (a licence header) is kept,
      // as the head comment of the document after it.
      header = headerComment(chunk);
      continue;
    }
    const nodes = fastReadDocument(chunk, line) ?? parseStream(chunk, line);
    for (const node of nodes) {
      if (!keepEmpty && isEmptyDocument(node)) continue;
      if (header !== "") {
        node.headComment = joinComment(header, node.headComment);
        header = "";
      }
      out.push({ node, index: out.length, seqIndent: deriveSeqIndent(chunk) });
    }
  }
  return out;
}

/** One document's text as kyaml decodes it, the 0-based line it starts at in the file. */
export interface KyamlChunk {
  text: string;
  line: number;
  /** The comment-only text above a file's first `---`. */
  header: boolean;
}

/**
 * A file's text cut as kyaml's ByteReader cuts it (CRLF to LF, split at `---` lines), each piece
 * with the line it starts at. @throws DocumentSeparatorError on a `---` line with more than a comment
 * after it.
 */
export function kyamlChunks(text: string): KyamlChunk[] {
  const src = text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
  const chunks = splitKyamlDocuments(src);
  const out: KyamlChunk[] = [];
  let line = 0;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = i < chunks.length - 1 ? `${chunks[i].text}\n` : chunks[i].text;
    out.push({ text: chunk, line, header: i === 0 && chunks.length > 1 && !hasContent(chunk) });
    line = chunks[i].nextLine;
  }
  return out;
}

function joinComment(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `${a}\n${b}`;
}

/** A comment-only text's comment lines, as yaml.v3 holds a comment (blank lines inside kept). */
function headerComment(text: string): string {
  const lines = text.split("\n").map((l) => l.trim());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/**
 * kyaml's `splitDocuments`: the text between separator lines (`\n---` to the end of its line); the
 * line number each next chunk starts at.
 */
function splitKyamlDocuments(text: string): Array<{ text: string; nextLine: number }> {
  const out: Array<{ text: string; nextLine: number }> = [];
  let prev = 0;
  let line = 0;
  let at = text.indexOf("\n---");
  while (at >= 0) {
    const end = text.indexOf("\n", at + 1);
    if (end < 0) break;
    const rest = text.slice(at + 4, end).trim();
    const piece = text.slice(prev, at);
    if (rest.length > 0 && rest[0] !== "#")
      throw new DocumentSeparatorError(text.slice(at + 1, end).trim(), line + countLines(piece) + 2);
    line += countLines(piece) + 2;
    out.push({ text: piece, nextLine: line });
    prev = end + 1;
    at = text.indexOf("\n---", prev - 1);
    if (at < prev - 1) break;
  }
  out.push({ text: text.slice(prev), nextLine: line });
  return out;
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** Writes one document as kyaml does (no `---`), compact or wide sequences. */
export function printDocument(doc: YNode, seqIndent: SeqIndent = "compact"): string {
  return emitDocument(doc, { compactSeq: seqIndent === "compact", indent: 2 });
}

/** Writes documents as one file, as kyaml's ByteWriter joins them (`---` lines between). */
export function printYamlStream(docs: readonly StreamDocument[]): string {
  let out = "";
  for (let i = 0; i < docs.length; i++) {
    if (i > 0) out += "---\n";
    out += printDocument(docs[i].node, docs[i].seqIndent);
  }
  return out;
}

/** The text of each document of a stream, split at `---` lines (yaml.v3 starts a document there). */
export function splitDocuments(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let at = 0;
  let first = true;
  while (at <= text.length) {
    const lineEnd = text.indexOf("\n", at);
    const end = lineEnd < 0 ? text.length : lineEnd;
    if (
      text.charCodeAt(at) === 45 &&
      text.charCodeAt(at + 1) === 45 &&
      text.charCodeAt(at + 2) === 45 &&
      (at + 3 >= end || text.charCodeAt(at + 3) <= 32)
    ) {
      // Text before the first `---` that holds no document (comments only) belongs to it.
      if (!first || hasContent(text.slice(start, at))) out.push(text.slice(start, at));
      start = at;
      first = false;
    }
    if (lineEnd < 0) break;
    at = lineEnd + 1;
  }
  out.push(text.slice(start));
  return out;
}

function hasContent(text: string): boolean {
  let lineStart = true;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      comment = false;
    } else if (comment || c === 32 || c === 9 || c === 13) {
      // nothing
    } else if (c === 35 && lineStart) comment = true;
    else return true;
  }
  return false;
}

/**
 * kyaml's `DeriveSeqIndentStyle`: the first sequence item (`- ` after spaces) whose key line (the
 * nearest non-comment line above it, trailing `# comment` cut) is a single `key:` decides — same
 * indentation is compact, two more spaces wide; default compact.
 */
export function deriveSeqIndent(text: string): SeqIndent {
  let at = text.indexOf("- ");
  while (at >= 0) {
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    let onlySpaces = true;
    for (let i = lineStart; i < at; i++) {
      if (text.charCodeAt(i) !== 32) {
        onlySpaces = false;
        break;
      }
    }
    if (onlySpaces) {
      const style = styleFromKeyLine(text, lineStart, at - lineStart);
      if (style) return style;
    }
    at = text.indexOf("- ", at + 2);
  }
  return "compact";
}

function styleFromKeyLine(text: string, itemLineStart: number, itemIndent: number): SeqIndent | undefined {
  let end = itemLineStart - 1;
  while (end > 0) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    const trimmed = line.trim();
    end = start - 1;
    if (trimmed.startsWith("#")) continue;
    const hash = line.indexOf("#");
    const keyLine = hash < 0 ? line : line.slice(0, hash);
    const key = keyLine.trim();
    if (key.split(":").length !== 2 || !key.endsWith(":")) return undefined;
    const keyIndent = keyLine.length - keyLine.trimStart().length;
    if (keyIndent === itemIndent) return "compact";
    if (itemIndent - keyIndent === 2) return "wide";
    return undefined;
  }
  return undefined;
}
