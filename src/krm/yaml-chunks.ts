/**
 * A package file's documents as read (kyaml's `ByteReader` view): the parsed-file shapes, the
 * document chunks between `---` lines, and kyaml's per-document sequence indentation
 * (`DeriveSeqIndentStyle`).
 */
import { type Document, isScalar } from "yaml";

/** kyaml's sequence indentation styles. */
export type SeqIndent = "compact" | "wide";

/** One document of a file as read. */
export interface ParsedDocument {
  doc: Document;
  /** The document's original text (separator line excluded), or undefined when it could not be located. */
  source: string | undefined;
  /** Position among the file's non-empty documents (kpt's `config.kubernetes.io/index`). */
  index: number;
  /** The document's own sequence indentation (kyaml derives it per document). */
  seqIndent: SeqIndent;
}

/** A parsed YAML file of a package. */
export interface ParsedFile {
  path: string;
  text: string;
  /** The sequence indentation of the file's first document (for resources added to the file). */
  seqIndent: SeqIndent;
  /** Non-empty documents (null documents and comment-only documents are not resources). */
  docs: ParsedDocument[];
}

/** `toString` options matching kyaml's encoder for a given sequence style. */
export function stringifyOptions(seqIndent: SeqIndent) {
  return { indent: 2, indentSeq: seqIndent === "wide", lineWidth: 0, minContentWidth: 0 } as const;
}

/**
 * kyaml's `DeriveSeqIndentStyle`, applied to one document's text: the first sequence item (`- `
 * after spaces only) whose key line (the nearest line above it that is not a comment, without its
 * trailing `# comment`) is a single `key:` decides: same indentation => compact, two more spaces =>
 * wide; default compact.
 */
export function deriveSeqIndentStyle(text: string): SeqIndent {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^( *)- /.exec(lines[i]);
    if (!m) continue;
    const keyLine = keyLineBefore(lines, i);
    if (keyLine === undefined) continue;
    const trimmed = keyLine.replace(/^ +| +$/g, "");
    if (trimmed.split(":").length !== 2 || !trimmed.endsWith(":")) continue;
    const keyIndent = keyLine.length - keyLine.replace(/^ +/, "").length;
    if (keyIndent === m[1].length) return "compact";
    if (m[1].length - keyIndent === 2) return "wide";
  }
  return "compact";
}

/** kyaml's `keyLineBeforeSeqElem`: the nearest non-comment line above `index`, trailing comment cut. */
function keyLineBefore(lines: readonly string[], index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const line = lines[i];
    if (line.replace(/^ +| +$/g, "").startsWith("#")) continue;
    const hash = line.indexOf("#");
    return hash < 0 ? line : line.slice(0, hash);
  }
  return undefined;
}

/** Splits text into document chunks at `---` separator lines. */
export function splitChunks(text: string): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  const lines = text.split(/(?<=\n)/);
  for (const line of lines) {
    if (/^---(?:[ \t]+#.*)?\r?\n?$/.test(line) || /^---[ \t]*\r?\n?$/.test(line)) {
      chunks.push(current.join(""));
      current = [];
    } else {
      current.push(line);
    }
  }
  chunks.push(current.join(""));
  return chunks;
}

/** Whether a document holds nothing (kyaml skips it). */
export function isNullDocument(doc: Document): boolean {
  return doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null);
}

/** Whether a chunk holds only blank and comment lines. */
export function isBlankChunk(chunk: string): boolean {
  return chunk.split("\n").every((l) => l.trim() === "" || l.trimStart().startsWith("#"));
}
