/**
 * Reading a package file through the `yaml` package (the fallback of `parseYamlFile`, and its words
 * for bad YAML), with the fix-ups that move its comments where yaml.v3 holds them (kyaml's reading):
 * key-line comments, trailing comments of collections, a document's foot comment.
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
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import {
  deriveSeqIndentStyle,
  isBlankChunk,
  isNullDocument,
  type ParsedDocument,
  type ParsedFile,
  splitChunks,
} from "./yaml-chunks.js";
import { toYamlSyntaxError } from "./yaml-errors.js";

/** `parseYamlFile` through the `yaml` package and the fix-ups of its comment placement. */
export function parseYamlFileWithYamlPackage(
  path: string,
  text: string,
  options: { keepEmpty?: boolean } = {},
): ParsedFile {
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
  const contentDocs = options.keepEmpty === true ? list : list.filter((d) => !isNullDocument(d));
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
