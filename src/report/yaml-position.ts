/**
 * Where in a YAML file a function result points: the line of a resource (by kpt's `file.index` or
 * by `resourceRef`) or of one of its fields (`field.path`, kyaml's dotted path such as
 * `spec.template.spec.containers[0].image` or `spec.containers[name=app].image`).
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, type Pair, parseAllDocuments } from "yaml";
import type { ResultResourceRef } from "../krm/resource-list.js";

/** A 1-based position; `column`/`endColumn` are given only when the whole span is on one line. */
export interface YamlPosition {
  line: number;
  endLine: number;
  column?: number;
  endColumn?: number;
}

/** Options of {@link locateInYaml}. */
export interface LocateOptions {
  /** The file's text (multi-document YAML allowed). */
  text: string;
  /** Document index in the file (kpt's `file.index`, 0-based). */
  index?: number;
  resourceRef?: ResultResourceRef;
  /** Field path inside the resource, e.g. `metadata.labels.app`. */
  fieldPath?: string;
}

type Segment = { key: string } | { index: number } | { match: [string, string] };

/** Splits `a.b[0].c[name=x]` into segments; keys may be quoted with `[...]` brackets only. */
export function parseFieldPath(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of path.match(/[^.[\]]+|\[[^\]]*\]/g) ?? []) {
    if (part.startsWith("[")) {
      const inner = part.slice(1, -1);
      const eq = inner.indexOf("=");
      if (/^\d+$/.test(inner)) segments.push({ index: Number(inner) });
      else if (eq > 0) segments.push({ match: [inner.slice(0, eq), inner.slice(eq + 1)] });
      else if (inner) segments.push({ key: inner });
    } else {
      segments.push({ key: part });
    }
  }
  return segments;
}

function scalarOf(node: unknown): string | undefined {
  return isScalar(node) ? String(node.value) : undefined;
}

function field(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  return node.items.find((p) => scalarOf(p.key) === key)?.value;
}

function matchesRef(contents: unknown, ref: ResultResourceRef): boolean {
  const meta = field(contents, "metadata");
  const checks: [unknown, string | undefined][] = [
    [field(contents, "kind"), ref.kind],
    [field(contents, "apiVersion"), ref.apiVersion],
    [field(meta, "name"), ref.name],
    [field(meta, "namespace"), ref.namespace],
  ];
  return checks.every(([node, want]) => want === undefined || want === "" || scalarOf(node) === want);
}

/** Walks `segments` from `root`; returns the deepest node or pair reached (a pair points at its key). */
function walk(root: unknown, segments: Segment[]): Node | Pair | undefined {
  let current: unknown = root;
  let found: Node | Pair | undefined;
  for (const segment of segments) {
    if ("key" in segment && isMap(current)) {
      const pair = current.items.find((p) => scalarOf(p.key) === segment.key);
      if (!pair) return found;
      found = pair;
      current = pair.value;
    } else if ("index" in segment && isSeq(current)) {
      const item = current.items[segment.index];
      if (!item) return found;
      found = item as Node;
      current = item;
    } else if ("match" in segment && isSeq(current)) {
      const [k, v] = segment.match;
      const item = current.items.find((i) => scalarOf(field(i, k)) === v);
      if (!item) return found;
      found = item as Node;
      current = item;
    } else {
      return found;
    }
  }
  return found;
}

function rangeOf(target: Node | Pair): [number, number] | undefined {
  if (isPair(target)) {
    const key = target.key as Node | null;
    const value = target.value as Node | null;
    const start = key?.range?.[0];
    const end = isScalar(value) ? value.range?.[1] : key?.range?.[1];
    return start !== undefined && end !== undefined ? [start, end] : undefined;
  }
  return target.range ? [target.range[0], target.range[1]] : undefined;
}

/** A file parsed once for {@link locateInParsed}: its documents and line counter. */
export interface ParsedYaml {
  docs: ReturnType<typeof parseAllDocuments>;
  lineCounter: LineCounter;
}

/**
 * Parses `text` once for locating many results in it (no duplicate-key check: it is quadratic in the
 * keys of one map and positions do not need it). `undefined` when the text is not YAML.
 */
export function parseForLocate(text: string): ParsedYaml | undefined {
  const lineCounter = new LineCounter();
  try {
    const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: false });
    return Array.isArray(docs) && docs.length > 0 ? { docs, lineCounter } : undefined;
  } catch {
    return undefined;
  }
}

/** Where a result points in a file already parsed by {@link parseForLocate} (see {@link locateInYaml}). */
export function locateInParsed(
  parsed: ParsedYaml,
  options: Omit<LocateOptions, "text">,
): YamlPosition | undefined {
  const { docs, lineCounter } = parsed;
  const ref = options.resourceRef;
  const byIndex = options.index !== undefined ? docs[options.index] : undefined;
  const doc =
    byIndex && (!ref || matchesRef(byIndex.contents, ref))
      ? byIndex
      : ((ref ? docs.find((d) => matchesRef(d.contents, ref)) : undefined) ?? byIndex ?? docs[0]);
  if (!doc?.contents) return undefined;
  const target =
    (options.fieldPath ? walk(doc.contents, parseFieldPath(options.fieldPath)) : undefined) ?? doc.contents;
  const range = rangeOf(target);
  if (!range) return undefined;
  const start = lineCounter.linePos(range[0]);
  if (target === doc.contents) return { line: start.line, endLine: start.line };
  const end = lineCounter.linePos(Math.max(range[0], range[1]));
  if (end.line !== start.line) return { line: start.line, endLine: start.line };
  return { line: start.line, endLine: start.line, column: start.col, endColumn: end.col };
}

/**
 * Resolves the position a result points at. Returns `undefined` when the text is not parseable YAML
 * or the document cannot be found; a field that cannot be found falls back to its resource's line.
 * Parses the text each call: to locate many results in one file use {@link parseForLocate} once.
 */
export function locateInYaml(options: LocateOptions): YamlPosition | undefined {
  const parsed = parseForLocate(options.text);
  return parsed ? locateInParsed(parsed, options) : undefined;
}
