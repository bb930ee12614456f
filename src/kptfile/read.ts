/**
 * Reading a Kptfile like kpt's `pkg.Kptfile()`: YAML syntax, the `kpt.dev/v1` version check (old
 * `v1alpha1`/`v1alpha2` schemas get kpt's migration message) and strict decoding (`./check.ts`: a
 * hand check, zod for the errors).
 */
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument, type Scalar } from "yaml";
import { YamlSyntaxError } from "../krm/yaml-errors.js";
import { parseYamlFile } from "../krm/yaml-io.js";
import { readYamlStream } from "../yaml/index.js";
import { Kind, Style, type YNode } from "../yaml/node.js";
import { resolvePlain } from "../yaml/resolve.js";
import { decodeKptfileData } from "./check.js";
import { goTypeName, type Kptfile } from "./schema.js";

/**
 * A Kptfile that cannot be read (kpt's `KptfileError`). `detail` is the cause (Go-worded, e.g.
 * `yaml: line 3: could not find expected ':'`); `kind` selects kpt's CLI wording.
 */
export class KptfileError extends Error {
  readonly file: string;
  readonly detail: string;
  readonly kind: "read" | "missing" | "deprecated" | "unknown-type";
  readonly version: string | undefined;
  constructor(options: {
    file: string;
    detail: string;
    kind?: KptfileError["kind"];
    version?: string;
  }) {
    super(`${options.file}: ${options.detail}`);
    this.name = "KptfileError";
    this.file = options.file;
    this.detail = options.detail;
    this.kind = options.kind ?? "read";
    this.version = options.version;
  }

  /** kpt's CLI message for this error; `pkgPath` is the package directory as the user gave it. */
  cliMessage(pkgPath: string): string {
    switch (this.kind) {
      case "missing":
        return `Error: No Kptfile found at ${JSON.stringify(pkgPath)}.`;
      case "deprecated": {
        const head = `Error: Kptfile at ${JSON.stringify(pkgPath)} has an old version (${JSON.stringify(this.version)}) of the Kptfile schema.\n`;
        return this.version === "v1alpha1"
          ? `${head}Please update the package to the latest format by following https://kpt.dev/installation/migration.`
          : `${head}Please run "kpt fn eval <PKG_PATH> -i gcr.io/kpt-fn/fix:v0.1" to upgrade the package and retry.`;
      }
      case "unknown-type":
        return `Error: Kptfile at ${JSON.stringify(pkgPath)} has an unknown resource type (${JSON.stringify(this.version)}).`;
      default:
        return `Error: Kptfile at ${JSON.stringify(pkgPath)} can't be read.\n\nDetails:\n${this.detail}`;
    }
  }

  /** kpt's `KptfileError.Error()`: `error reading Kptfile at "<pkg>": <detail>`. */
  chainMessage(displayPath: string): string {
    return `error reading Kptfile at ${JSON.stringify(displayPath)}: ${this.detail}`;
  }
}

/** A Kptfile as read: its document (for the pipeline) and the decoded typed value. */
export interface ReadKptfile {
  doc: Document;
  kptfile: Kptfile;
}

/** Converts a YAML node to plain data the way yaml.v3 decodes into string fields: every scalar as text. */
export function toPlain(node: unknown): unknown {
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const value = toPlain(pair.value);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (isSeq(node)) return node.items.map(toPlain);
  if (isScalar(node)) return node.value === null || node.value === undefined ? undefined : scalarText(node);
  return undefined;
}

/**
 * A scalar's text as yaml.v3 gives a string field: a plain number or boolean as written (`commit:
 * 0123456`, a 40-digit sha, `ref: 0777`), not as the number it resolves to; the value when the node
 * was changed after parsing (its source no longer says it).
 */
function scalarText(node: Scalar): string {
  const { value, source } = node;
  if (typeof value === "string" || typeof source !== "string" || node.type !== "PLAIN") return String(value);
  if (typeof value === "number" && (Number(source) === value || !Number.isFinite(value))) return source;
  if (typeof value === "bigint" && /^[-+]?\d+$/.test(source) && BigInt(source) === value) return source;
  if (typeof value === "boolean" && source.toLowerCase() === String(value)) return source;
  return String(value);
}

/**
 * Decodes a Kptfile document strictly. Throws `KptfileError` on old schemas, other kinds, unknown
 * fields or wrong types (detail worded like yaml.v3: `yaml: unmarshal errors:\n  line N: ...`).
 */
function decodeKptfile(file: string, doc: Document, text: string): Kptfile {
  const plain = toPlain(doc.contents);
  const obj = (plain && typeof plain === "object" ? plain : {}) as Record<string, unknown>;
  const apiVersion = typeof obj.apiVersion === "string" ? obj.apiVersion : "";
  const kind = typeof obj.kind === "string" ? obj.kind : "";
  if (apiVersion === "kpt.dev/v1alpha1" || apiVersion === "kpt.dev/v1alpha2") {
    const version = apiVersion.slice("kpt.dev/".length);
    throw new KptfileError({ file, detail: `old version ${version}`, kind: "deprecated", version });
  }
  if (apiVersion !== "kpt.dev/v1" || kind !== "Kptfile") {
    const gvk = `${apiVersion || "/"}, Kind=${kind}`;
    throw new KptfileError({
      file,
      detail: `unknown resource type ${gvk}`,
      kind: "unknown-type",
      version: gvk,
    });
  }
  const parsed = decodeKptfileData(obj);
  if (parsed.success) return parsed.data;
  const lines = new LineCounter();
  const located = parseDocument(text, { lineCounter: lines });
  const messages = parsed.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const field = issue.keys[0];
      const line = lineOf(located, [...issue.path.map(String), field], lines);
      return `  line ${line}: field ${field} not found in type ${goTypeName(issue.path as (string | number)[])}`;
    }
    const { line, node } = locate(located, issue.path.map(String), lines);
    const tag = isSeq(node) ? "!!seq" : isMap(node) ? "!!map" : "!!str";
    const into = issue.code === "invalid_type" ? goKind(issue.expected) : "string";
    return `  line ${line}: cannot unmarshal ${tag} into ${into}`;
  });
  throw new KptfileError({ file, detail: `yaml: unmarshal errors:\n${messages.join("\n")}` });
}

function goKind(expected: string): string {
  switch (expected) {
    case "string":
      return "string";
    case "array":
      return "[]v1.Function";
    case "record":
    case "object":
      return "map[string]string";
    default:
      return expected;
  }
}

/** The line of the value at `path` (yaml.v3 reports type errors at the value) and the node. */
function locate(doc: Document, path: string[], lines: LineCounter): { line: number; node: unknown } {
  let node: unknown = doc.contents;
  for (const key of path) {
    if (isMap(node)) node = node.get(key, true);
    else if (isSeq(node)) node = node.items[Number(key)];
    else break;
  }
  const range = (node as { range?: [number, number, number] } | undefined)?.range;
  return { line: range ? lines.linePos(range[0]).line : lineOf(doc, path, lines), node };
}

function lineOf(doc: Document, path: string[], lines: LineCounter): number {
  let node: unknown = doc.contents;
  let offset = 0;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      if (!pair) break;
      if (isScalar(pair.key) && pair.key.range) offset = pair.key.range[0];
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(key)];
      if (!item) break;
      const range = (item as { range?: [number, number, number] }).range;
      if (range) offset = range[0];
      node = item;
    } else break;
  }
  return lines.linePos(offset).line;
}

/** Reads and decodes a Kptfile's text. Throws `KptfileError`. */
export function readKptfile(file: string, text: string): ReadKptfile {
  let parsedFile: ReturnType<typeof parseYamlFile>;
  try {
    // kpt decodes the Kptfile's first YAML document, a `null` one too (an unknown resource type).
    parsedFile = parseYamlFile(file, text, { keepEmpty: true });
  } catch (err) {
    if (err instanceof YamlSyntaxError) throw new KptfileError({ file, detail: err.detail });
    throw err;
  }
  const doc = parsedFile.docs[0]?.doc;
  if (!doc) throw new KptfileError({ file, detail: "EOF" });
  return { doc, kptfile: decodeKptfile(file, doc, text) };
}

/** A node `nodePlain` leaves to the Document reading (an alias, a tag, a key that is not a scalar). */
class NotPlain extends Error {}

/**
 * A node as {@link toPlain} gives the same YAML read as a `yaml` Document: mappings as objects (the
 * last of repeated keys wins, null values left out), sequences as arrays, every scalar as its text
 * (a plain number or boolean as written), a plain null as undefined. @throws NotPlain
 */
function nodePlain(n: YNode): unknown {
  if (n.kind === Kind.Mapping) {
    const out: Record<string, unknown> = {};
    const c = n.content;
    for (let i = 0; i + 1 < c.length; i += 2) {
      const value = nodePlain(c[i + 1]);
      if (value !== undefined) out[keyText(c[i])] = value;
    }
    return out;
  }
  if (n.kind === Kind.Sequence) return n.content.map(nodePlain);
  if (n.kind !== Kind.Scalar || (n.style & Style.Tagged) !== 0 || n.anchor !== "") throw new NotPlain();
  const plain = (n.style & (Style.DoubleQuoted | Style.SingleQuoted | Style.Literal | Style.Folded)) === 0;
  return plain && resolvePlain(n.value) === "!!null" ? undefined : n.value;
}

/**
 * A node as plain data, as {@link toPlain} gives its `yaml` Document form (`nodeToDocument`), or
 * undefined for a node holding an alias, a tag or a key that is not a string.
 */
export function nodeToPlain(n: YNode): { value: unknown } | undefined {
  try {
    return { value: nodePlain(n) };
  } catch (err) {
    if (err instanceof NotPlain) return undefined;
    throw err;
  }
}

/** A mapping key as `toPlain` names it: a string key's text, a plain null as "null". @throws NotPlain */
function keyText(k: YNode): string {
  if (k.kind !== Kind.Scalar || (k.style & Style.Tagged) !== 0) throw new NotPlain();
  const quoted = (k.style & (Style.DoubleQuoted | Style.SingleQuoted | Style.Literal | Style.Folded)) !== 0;
  if (quoted) return k.value;
  const tag = resolvePlain(k.value);
  if (tag === "!!null") return "null";
  // A number or boolean key is named by its value there (`0x10` is "16"): left to the Document.
  if (tag !== "!!str") throw new NotPlain();
  return k.value;
}

/**
 * The typed Kptfile of a Kptfile's text read with our YAML layer alone (no `yaml` Document: a rendered
 * status can hold megabytes of results), when the text is one `kpt.dev/v1` Kptfile document that
 * decodes cleanly and holds no alias, tag or non-string key; otherwise undefined. Never throws.
 */
export function kptfileFromNodes(text: string): Kptfile | undefined {
  try {
    const docs = readYamlStream(text, { keepEmpty: true });
    const root = docs.length === 1 ? docs[0].node.content[0] : undefined;
    const obj = root ? (nodePlain(root) as Record<string, unknown> | undefined) : undefined;
    if (!obj || typeof obj !== "object" || obj.apiVersion !== "kpt.dev/v1" || obj.kind !== "Kptfile")
      return undefined;
    const parsed = decodeKptfileData(obj);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The typed Kptfile of a Kptfile's text, as `readKptfile(file, text).kptfile`: {@link kptfileFromNodes}
 * when it reads it, else `readKptfile`, which words kpt's error. Throws `KptfileError`.
 */
export function readKptfileData(file: string, text: string): Kptfile {
  return kptfileFromNodes(text) ?? readKptfile(file, text).kptfile;
}
