/**
 * Writing a changed document through the `yaml` package as Go's yaml.v3 writes it (the writer before
 * ours, kept behind PORCHLIGHT_OLD_WRITER=1 for the benchmarks): no blank lines, Go's quoting of new
 * strings, scalars keep their source text, folded blocks double-quoted.
 */
import {
  type Document,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  Scalar,
  type ScalarTag,
  type Schema,
  type ToStringOptions,
} from "yaml";
import { goDoubleQuoted, goStringStyle } from "../yaml/go-style.js";
import { type SeqIndent, stringifyOptions } from "./yaml-chunks.js";

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
 * `serializeChanged` through the `yaml` package (PORCHLIGHT_OLD_WRITER=1, the benchmarks' A/B
 * switch): Go's normalization, then `toString`, the trailing comment right after the content.
 */
export function serializeWithYamlPackage(doc: Document, seqIndent: SeqIndent): string {
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
