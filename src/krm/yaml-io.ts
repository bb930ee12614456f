/**
 * Reading and writing the YAML files of a package, kyaml-style: multi-document files, per-file
 * sequence indentation (kyaml's `PreserveSeqIndent`: `compact` or `wide`), comments and key order
 * kept. A document no function changed is written back byte for byte; a changed one is serialized
 * the way kyaml does (2-space indent, no line folding, no blank lines, Go-style quoting of new
 * strings).
 */
import {
  type Document,
  isCollection,
  isDocument,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseAllDocuments,
  Scalar,
  type ScalarTag,
  type Schema,
  type ToStringOptions,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { writeDocument } from "../yaml/from-document.js";
import { goDoubleQuoted, goStringStyle } from "../yaml/go-style.js";
import { deriveSeqIndent, readYamlStream, type StreamDocument } from "../yaml/index.js";
import { nodeToDocument } from "../yaml/to-document.js";
import { toYamlSyntaxError } from "./yaml-errors.js";

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
function splitChunks(text: string): string[] {
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

function isNullDocument(doc: Document): boolean {
  return doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null);
}

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

/** `parseYamlFile` through the `yaml` package and the fix-ups of its comment placement. */
function parseYamlFileWithYamlPackage(path: string, text: string): ParsedFile {
  // The yaml package's own duplicate-key check compares each key with every earlier one (quadratic in
  // a map's size); keys are checked here with a set instead, and a file that has a duplicate (or any
  // error) is parsed again with the package's check, whose errors are the ones reported.
  let all = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: false });
  if (Array.isArray(all) && all.some((d) => d.errors.length > 0 || hasDuplicateKey(d.contents)))
    all = parseAllDocuments(text, { prettyErrors: true });
  else if (Array.isArray(all)) for (const d of all) d.options.uniqueKeys = true;
  const list = Array.isArray(all) ? all : [];
  if (!Array.isArray(all)) {
    // An empty stream.
    return { path, text, seqIndent: deriveSeqIndentStyle(text), docs: [] };
  }
  const errors = list.flatMap((d) => d.errors);
  if (errors.length > 0) throw toYamlSyntaxError(path, errors);
  const chunks = splitChunks(text);
  const contentChunks = chunks.filter((c) => !isBlankChunk(c));
  const contentDocs = list.filter((d) => !isNullDocument(d));
  const sourceOk = contentChunks.length === contentDocs.length;
  for (const doc of contentDocs) restoreKeyLineComments(doc, text);
  const last = contentDocs.at(-1);
  if (last && !/\n[ \t]*$/.test(text)) clipUnterminatedBlock(last.contents, text);
  // Without a `#` there is no comment to move.
  if (text.includes("#")) {
    for (const doc of contentDocs) {
      restoreOuterComments(doc.contents, text);
      restoreDocumentFoot(doc, text);
    }
  }
  const docs: ParsedDocument[] = contentDocs.map((doc, index) => {
    const source = sourceOk ? contentChunks[index] : undefined;
    const seqIndent = deriveSeqIndentStyle(source ?? docText(doc, text));
    return { doc, source, index, seqIndent };
  });
  return { path, text, seqIndent: docs[0]?.seqIndent ?? deriveSeqIndentStyle(text), docs };
}

/**
 * A block scalar with the default (clip) chomping that ends a file without a line break has no final
 * line break in yaml.v3 (kpt writes `|-`); the \`yaml\` package gives it one. Takes it off the last
 * scalar under `node` when that is such a block.
 */
function clipUnterminatedBlock(node: unknown, text: string): void {
  let last = node;
  while (isCollection(last) && last.items.length > 0) {
    const item: unknown = last.items[last.items.length - 1];
    last = isPair(item) ? item.value : item;
  }
  if (!isScalar(last) || !last.range || typeof last.value !== "string") return;
  if (last.type !== Scalar.BLOCK_LITERAL && last.type !== Scalar.BLOCK_FOLDED) return;
  if (!/^[|>][1-9]?[ \t]*(#.*)?\r?\n/.test(text.slice(last.range[0]))) return;
  if (text.slice(last.range[1]).trim() === "" && last.value.endsWith("\n"))
    last.value = last.value.slice(0, -1);
}

/**
 * Whether a map under `node` has two scalar keys with the same value (the yaml package's default
 * `uniqueKeys` test; NaN counts as a duplicate here, which only costs a second parse).
 */
function hasDuplicateKey(node: unknown): boolean {
  if (isPair(node)) return hasDuplicateKey(node.key) || hasDuplicateKey(node.value);
  if (!isCollection(node)) return false;
  const items = node.items as unknown[];
  if (isMap(node) && items.length > 1) {
    if (items.length <= 8) {
      for (let i = 1; i < items.length; i++) {
        const a = (items[i] as Pair).key;
        if (!isScalar(a)) continue;
        for (let j = 0; j < i; j++) {
          const b = (items[j] as Pair).key;
          if (isScalar(b) && b.value === a.value) return true;
        }
      }
    } else {
      const seen = new Set<unknown>();
      for (const item of items) {
        const key = (item as Pair).key;
        if (!isScalar(key)) continue;
        if (seen.has(key.value)) return true;
        seen.add(key.value);
      }
    }
  }
  for (const item of items) if (hasDuplicateKey(item)) return true;
  return false;
}

/**
 * The \`yaml\` package folds a comment written on a \`key:\` line whose value is a block collection
 * (\`metadata: # kpt-merge: ...\`) into the comment before the collection; Go's yaml.v3 keeps it on
 * the key line. Moves such a comment back onto the key so a re-serialized document keeps it there.
 * `text` is the source the nodes were parsed from (their ranges index into it).
 */
export function restoreKeyLineComments(doc: Document | Node, text: string): void {
  // Without a `#` there is no comment to move.
  if (!text.includes("#")) return;
  eachPair(isDocument(doc) ? doc.contents : doc, (pair) => {
    const key = pair.key;
    const value = pair.value;
    if (!isScalar(key) || !key.range || !isCollection(value) || !value.commentBefore) return;
    const lineEnd = text.indexOf("\n", key.range[1]);
    const rest = text.slice(key.range[1], lineEnd === -1 ? undefined : lineEnd);
    const m = /^\s*:\s*#(.*)$/.exec(rest);
    if (!m) return;
    const [first, ...others] = value.commentBefore.split("\n");
    if (first !== m[1]) return;
    key.comment = first;
    value.commentBefore = others.length > 0 ? others.join("\n") : undefined;
  });
}

/** Calls `fn` for every pair under `node` (what `visit` with a `Pair` visitor reaches, without its paths). */
function eachPair(node: unknown, fn: (pair: Pair<unknown, unknown>) => void): void {
  if (isPair(node)) {
    fn(node);
    eachPair(node.key, fn);
    eachPair(node.value, fn);
  } else if (isCollection(node)) {
    for (const item of node.items as unknown[]) eachPair(item, fn);
  }
}

/** A collection on the way down to a trailing comment: its column and the item after the one walked into. */
interface Level {
  node: YAMLMap | YAMLSeq;
  indent: number;
  next: unknown;
}

/**
 * The \`yaml\` package gives every comment line after a nested block to the innermost collection, so
 * lines written at a parent's indentation (`  # b's comment` after `a:`'s block) would be printed at
 * the nested one. Go's yaml.v3 keeps them at their level: each line goes to the outermost collection
 * still open at its column — the head comment of that collection's next item, or its own trailing
 * comment when none follows. A blank line where a comment changes level goes (as yaml.v3 writes it).
 * `text` is the source the nodes were parsed from (their ranges index into it).
 */
export function restoreOuterComments(node: unknown, text: string, levels: Level[] = []): void {
  if (!(isMap(node) || isSeq(node)) || node.flow || !node.range) return;
  const lineStart = text.lastIndexOf("\n", node.range[0] - 1) + 1;
  const level: Level = { node, indent: node.range[0] - lineStart, next: undefined };
  if (node.comment && levels.length > 0) splitTrailingComment(node, text, [...levels, level]);
  const items = node.items as unknown[];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const child = isPair(item) ? item.value : item;
    if (!isMap(child) && !isSeq(child)) continue;
    restoreOuterComments(child, text, [...levels, { ...level, next: items[i + 1] }]);
  }
}

function splitTrailingComment(node: YAMLMap | YAMLSeq, text: string, levels: Level[]): void {
  const range = node.range!;
  const source = text
    .slice(range[1], range[2])
    .split("\n")
    .map((line) => /^( *)#(.*?)\r?$/.exec(line) ?? (line.trim() === "" ? "" : undefined));
  if (source.some((line) => line === undefined)) return;
  const written = source.filter((line): line is RegExpExecArray => line !== "");
  const lines = (node.comment ?? "").split("\n");
  const texts = lines.filter((line) => line !== "");
  if (texts.length !== written.length || texts.some((t, i) => t !== written[i][2])) return;
  // Each comment line's level (index into `levels`); a blank line goes with the line after it.
  const segments: Array<{ at: number; lines: string[] }> = [];
  let w = 0;
  for (const line of lines) {
    let at = segments.at(-1)?.at ?? levels.length - 1;
    if (line !== "") {
      const indent = written[w++][1].length;
      at = 0;
      for (let i = levels.length - 1; i >= 0; i--) {
        if (levels[i].indent <= indent) {
          at = i;
          break;
        }
      }
    }
    const last = segments.at(-1);
    if (last && last.at === at) last.lines.push(line);
    else {
      // Blank lines before a line of another level go with it.
      let blanks = 0;
      while (last && last.lines.at(-1 - blanks) === "") blanks++;
      const moved = last && blanks > 0 ? last.lines.splice(-blanks) : [];
      segments.push({ at, lines: [...moved, line] });
    }
  }
  if (segments.every((s) => s.at === levels.length - 1)) return;
  node.comment = undefined;
  for (const segment of segments) {
    const level = levels[segment.at];
    const next = segment.at === levels.length - 1 ? undefined : level.next;
    // The document's foot comment keeps one blank line before it (see restoreDocumentFoot).
    const foot = segment.at === 0 && next === undefined && segment.lines[0] === "";
    while (segment.lines[0] === "") segment.lines.shift();
    while (segment.lines.at(-1) === "") segment.lines.pop();
    if (segment.lines.length === 0) continue;
    if (foot) segment.lines.unshift("");
    const comment = segment.lines.join("\n");
    const head = isPair(next) ? next.key : next;
    if (isNode(head)) head.commentBefore = head.commentBefore ? `${comment}\n${head.commentBefore}` : comment;
    else level.node.comment = level.node.comment ? `${level.node.comment}\n${comment}` : comment;
  }
}

/**
 * The comment after a document's content is its foot comment (`doc.comment`), with a leading empty
 * line when a blank line sets it apart in the source: yaml.v3 writes that blank line, and none when
 * the comment follows the content directly. Run after `restoreOuterComments`, whose document-level
 * lines are on the root mapping.
 */
export function restoreDocumentFoot(doc: Document, text: string): void {
  const root = doc.contents;
  let foot = doc.comment ?? "";
  if (foot && isCollection(root) && root.range && !/^\n/.test(foot)) {
    const after = text.slice(root.range[1], doc.range?.[2] ?? text.length).split("\n");
    const first = after.findIndex((line) => line.trimStart().startsWith("#"));
    if (first > 0 && after.slice(0, first).some((line) => line.trim() === "")) foot = `\n${foot}`;
  }
  if (isMap(root) && root.comment) {
    foot = foot ? `${root.comment}\n${foot}` : root.comment;
    root.comment = undefined;
  }
  doc.comment = foot || null;
}

/** The text a parsed document spans (for a document whose chunk could not be located). */
function docText(doc: Document, text: string): string {
  const range = (doc.contents as { range?: [number, number, number] } | null)?.range;
  return range ? text.slice(range[0], range[2]) : text;
}

function isBlankChunk(chunk: string): boolean {
  return chunk.split("\n").every((l) => l.trim() === "" || l.trimStart().startsWith("#"));
}

/**
 * `doc.toString` with kyaml's options. Directives are skipped when they would print nothing (the
 * `yaml` package otherwise walks the whole document looking for tags to declare).
 */
export function documentText(doc: Document, seqIndent: SeqIndent, extra: ToStringOptions = {}): string {
  const d = doc.directives;
  const silent =
    !d ||
    (!d.docStart &&
      !d.yaml.explicit &&
      Object.entries(d.tags).every(([handle, prefix]) => handle === "!!" && prefix === "tag:yaml.org,2002:"));
  return doc.toString({ ...stringifyOptions(seqIndent), ...(silent ? { directives: false } : {}), ...extra });
}

/**
 * Serializes a changed document like kyaml: blank lines dropped, new strings quoted as Go's yaml.v3
 * would, no `---` marker (the file writer adds separators). Mutates the document's formatting only.
 */
export function serializeChanged(doc: Document, seqIndent: SeqIndent): string {
  if (process.env.PORCHLIGHT_OLD_WRITER !== "1") return writeDocument(doc, seqIndent === "compact");
  goNormalize(doc);
  // yaml.v3 writes a document's trailing comment right after the content (no blank line).
  const foot = doc.comment;
  doc.comment = null;
  const text = documentText(doc, seqIndent, goStringifyOptions(seqIndent));
  doc.comment = foot;
  if (!foot) return text;
  // Blank lines between the comment's lines stay blank.
  return `${text}${foot
    .split("\n")
    .map((line) => (line === "" ? "" : `#${line}`))
    .join("\n")}\n`;
}

/** `toString` options of Go's yaml.v3 as kyaml uses it: `stringifyOptions` and unpadded flow collections. */
export function goStringifyOptions(seqIndent: SeqIndent) {
  return { ...stringifyOptions(seqIndent), flowCollectionPadding: false } as const;
}

/**
 * Prepares a document to be written the way Go's yaml.v3 writes it (see `serializeChanged`): no
 * `---` marker, no blank lines, Go's quoting of new strings, scalars keep their source text, folded
 * blocks become double-quoted. Mutates the document's formatting only.
 */
export function goNormalize(doc: Document): void {
  if (doc.directives) doc.directives.docStart = null;
  wrapRawValues(doc, doc.contents);
  normalizeTree(doc.contents);
  if (doc.commentBefore) doc.commentBefore = collapseBlankLines(doc.commentBefore);
  if (doc.comment) doc.comment = `${/^\n/.test(doc.comment) ? "\n" : ""}${collapseBlankLines(doc.comment)}`;
  doc.schema = goSchemaFor(doc.schema);
}

/** Every node under `node` (keys included) normalized once. */
function normalizeTree(node: unknown): void {
  if (isPair(node)) {
    normalizeTree(node.key);
    normalizeTree(node.value);
    return;
  }
  if (!isNode(node)) return;
  normalizeNode(node);
  if (isCollection(node)) for (const item of node.items as unknown[]) normalizeTree(item);
}

/** Go-style schemas made so far, by the schema they were made from (documents parsed alike share one). */
const goSchemas: Array<{ from: Schema; to: Schema }> = [];

function sameSchema(a: Schema, b: Schema): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = (a as unknown as Record<string, unknown>)[key];
    const y = (b as unknown as Record<string, unknown>)[key];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((t, i) => t !== y[i]))
      return false;
  }
  return true;
}

/** The schema `schema` becomes for writing like yaml.v3: scalars keep their text, Go's double quotes. */
function goSchemaFor(schema: Schema): Schema {
  for (const entry of goSchemas) if (sameSchema(entry.from, schema)) return entry.to;
  const to = schema.clone();
  const tags = to.tags;
  to.tags = tags.map((tag) => goDoubleQuotes(keepSourceText(tag, tags)));
  if (goSchemas.length < 16) goSchemas.push({ from: schema, to });
  return to;
}

/** Strings the document asks to double-quote are written as yaml.v3 writes them (see goDoubleQuoted). */
function goDoubleQuotes<T extends Schema["tags"][number]>(tag: T): T {
  if (tag.tag !== "tag:yaml.org,2002:str" || (tag as { collection?: string }).collection) return tag;
  const scalarTag = tag as ScalarTag;
  const original = scalarTag.stringify;
  return {
    ...scalarTag,
    stringify(item, ctx, onComment, onChompKeep) {
      if (item.type === Scalar.QUOTE_DOUBLE && typeof item.value === "string")
        return goDoubleQuoted(item.value);
      return original ? original(item, ctx, onComment, onChompKeep) : String(item.value);
    },
  } as T;
}

/**
 * Go's yaml.v3 keeps a scalar's text (`010`, `1e3`, `True`, `~`); the `yaml` package would print the
 * value canonically. A scalar whose value still matches its source text is printed as that text: the
 * text is resolved as the parser did, by the first of `tags` whose pattern matches it (the tag chosen
 * to print a number is not always the one that read it: `.5` is read by `float`, printed by `floatNaN`).
 */
function keepSourceText<T extends Schema["tags"][number]>(
  tag: T,
  tags: readonly Schema["tags"][number][],
): T {
  if ((tag as { collection?: string }).collection || tag.tag === "tag:yaml.org,2002:str") return tag;
  if (typeof (tag as ScalarTag).resolve !== "function" || !(tag as ScalarTag).stringify) return tag;
  const scalarTag = tag as ScalarTag;
  const original = scalarTag.stringify;
  return {
    ...scalarTag,
    stringify(item, ctx, onComment, onChompKeep) {
      const source = item.source;
      if (typeof source === "string" && (item.type === undefined || item.type === Scalar.PLAIN)) {
        const reader =
          (tags.find(
            (t) =>
              !(t as { collection?: string }).collection &&
              (t as ScalarTag).test instanceof RegExp &&
              typeof (t as ScalarTag).resolve === "function" &&
              (t as ScalarTag).test!.test(source),
          ) as ScalarTag | undefined) ?? scalarTag;
        let resolved: unknown;
        try {
          resolved = reader.resolve(source, () => undefined, {} as never);
        } catch {
          resolved = undefined;
        }
        const value = isScalar(resolved) ? resolved.value : resolved;
        if (sameValue(value, item.value)) return source;
      }
      // The \`yaml\` package folds !!binary text to the line width, which kyaml leaves unlimited.
      if (item.value instanceof Uint8Array) return Buffer.from(item.value).toString("base64");
      return original ? original(item, ctx, onComment, onChompKeep) : String(item.value);
    },
  } as T;
}

/** Whether a scalar's value equals the value its source text resolves to (bytes and dates by content). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a instanceof Uint8Array && b instanceof Uint8Array)
    return a.length === b.length && a.every((byte, i) => byte === b[i]);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return false;
}

/** Functions may store plain JS values in collections; turn them into nodes so their style can be set. */
function wrapRawValues(doc: Document, node: unknown): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isNode(pair.key)) pair.key = doc.createNode(pair.key);
      if (!isNode(pair.value) && pair.value !== null && pair.value !== undefined)
        pair.value = doc.createNode(pair.value);
      wrapRawValues(doc, pair.value);
    }
  } else if (isSeq(node)) {
    node.items = node.items.map((item) => (isNode(item) ? item : doc.createNode(item)));
    for (const item of node.items) wrapRawValues(doc, item);
  }
}

function normalizeNode(node: Node): void {
  node.spaceBefore = false;
  if (node.commentBefore) node.commentBefore = collapseBlankLines(node.commentBefore);
  if (isScalar(node) && node.type === undefined && typeof node.value === "string") {
    node.type = goStringStyle(node.value);
  }
  // yaml.v3 (as kpt configures it) writes a folded block as a double-quoted string, and a literal
  // block too when its text cannot be a block (see blockAllowed).
  if (isScalar(node) && node.type === Scalar.BLOCK_FOLDED) node.type = Scalar.QUOTE_DOUBLE;
  if (isScalar(node) && node.type === Scalar.BLOCK_LITERAL && !blockAllowed(String(node.value))) {
    node.type = Scalar.QUOTE_DOUBLE;
  }
}

/**
 * yaml.v3's emitter (`analyze_scalar`) refuses the block styles for a value that ends with a space,
 * has a space right before a line break, or holds a character it cannot print (control characters
 * other than tab and line breaks, a byte order mark); such a value is written double-quoted.
 */
function blockAllowed(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters yaml.v3 cannot print
  return !/ $| [\n\r]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufeff]/.test(value);
}

/**
 * yaml.v3 writes a comment block without the blank lines that set it apart from the nodes around it;
 * blank lines between the comment's own lines stay.
 */
function collapseBlankLines(comment: string): string {
  return comment.replace(/^\n+|\n+$/g, "");
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
