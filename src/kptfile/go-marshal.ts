/**
 * Go yaml.v3 marshalling of plain ordered data (kpt writes its Kptfile and results files so): Go's
 * quoting rules, map keys in the data's order, sequences indented under their key (kyaml "wide").
 */
import { Document, isScalar, visit } from "yaml";
import { goStringStyle } from "../yaml/go-style.js";

type Ordered = Record<string, unknown>;

/**
 * Serializes plain ordered data like Go's yaml.v3 marshaller with kyaml's wide sequence indent.
 * Written directly (a status can hold tens of thousands of results): each top-level field whose
 * data holds only single-line strings, numbers, booleans, nulls, arrays and plain objects is laid
 * out here. Scalar and key texts are written here too when they are printable ASCII, safe integers,
 * booleans or null (a Kptfile status holds little else); other ones are taken from
 * `marshalWithDocument` (the reference, through the `yaml` package) once per distinct value. Any
 * other field goes through the reference whole. `fresh`: top-level keys whose data the caller built
 * anew (no object in it reached twice or from elsewhere), not searched for shared objects.
 */
export function goMarshal(value: Ordered, fresh: readonly string[] = []): string {
  const keys = Object.keys(value);
  if (keys.length === 0 || sharesObjectsBut(value, fresh)) return marshalWithDocument(value);
  const out: Out = { parts: [], chunks: [] };
  for (const key of keys) {
    const field = value[key];
    if (field === undefined) continue;
    flush(out);
    const before = out.chunks.length;
    if (!emitPair(key, field, out)) {
      out.parts.length = 0;
      out.chunks.length = before;
      out.chunks.push(marshalWithDocument({ [key]: field }));
    }
  }
  flush(out);
  return out.chunks.join("");
}

/**
 * The text written so far: `parts` (pieces, most of them shared: indentations, key and scalar
 * texts) joined into `chunks` a few thousand at a time. A status of tens of thousands of results is
 * then neither a tree of partial strings nor one array of all its pieces (which a join would copy).
 */
interface Out {
  parts: string[];
  chunks: string[];
}

/** Pieces joined at once (a chunk of about 20 KB of text). */
const CHUNK_PARTS = 4096;

/** Joins the pieces written into a chunk (the same `parts` array is reused). */
function flush(out: Out): void {
  if (out.parts.length === 0) return;
  out.chunks.push(out.parts.join(""));
  out.parts.length = 0;
}

/** {@link sharesObjects} of `value`, the data under its `fresh` keys left out. */
function sharesObjectsBut(value: Ordered, fresh: readonly string[]): boolean {
  if (fresh.length === 0) return sharesObjects(value);
  const seen = new Set<object>([value]);
  for (const key in value) {
    if (fresh.includes(key)) continue;
    const item = value[key];
    if (typeof item === "object" && item !== null && sharesObjects(item, seen)) return true;
  }
  return false;
}

/** Whether an object or array is reached twice (the `yaml` package would write an anchor and alias). */
function sharesObjects(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (seen.has(value)) return true;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value)
      if (typeof item === "object" && item !== null && sharesObjects(item, seen)) return true;
    return false;
  }
  for (const key in value) {
    const item = (value as Ordered)[key];
    if (typeof item === "object" && item !== null && sharesObjects(item, seen)) return true;
  }
  return false;
}

/** Text with no control character, line or paragraph separator or byte order mark. */
function plainLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x85 || c === 0x2028 || c === 0x2029 || c === 0xfeff) return false;
  }
  return true;
}

const scalarTexts = new Map<unknown, string | null>();
const keyTexts = new Map<string, string | null>();

/**
 * The text of a printable-ASCII string (0x20-0x7e) as yaml.v3 marshals it, the way
 * `marshalWithDocument` writes it: plain, double-quoted (only `\\` and `"` to escape in that range) or
 * single-quoted; undefined for any other string (left to the reference).
 */
function asciiStringText(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return undefined;
  }
  switch (goStringStyle(text)) {
    // The `yaml` package's Scalar.PLAIN ... (the strings themselves: no need to load it for them)
    case "PLAIN":
      return text;
    case "QUOTE_DOUBLE":
      return `"${text.replace(/[\\"]/g, "\\$&")}"`;
    case "QUOTE_SINGLE":
      return `'${text.replaceAll("'", "''")}'`;
    default:
      return undefined;
  }
}

/** A scalar's text written without the reference (see {@link goMarshal}), or undefined. */
function directScalarText(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number")
    return Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : undefined;
  return typeof value === "string" ? asciiStringText(value) : undefined;
}

/** A scalar's text as `marshalWithDocument` writes it as a map value, or null when not one line. */
function scalarText(value: unknown): string | null {
  let text = Object.is(value, -0) ? undefined : scalarTexts.get(value);
  if (text !== undefined) return text;
  text = directScalarText(value);
  if (text !== undefined) {
    if (scalarTexts.size < 100_000) scalarTexts.set(value, text);
    return text;
  }
  const simple =
    value === null ||
    typeof value === "boolean" ||
    typeof value === "number" ||
    (typeof value === "string" && plainLine(value));
  const written = simple ? marshalWithDocument({ k: value }) : "";
  text =
    written.startsWith("k: ") && written.indexOf("\n") === written.length - 1 ? written.slice(3, -1) : null;
  // A map key treats -0 as 0, which is written differently.
  if (scalarTexts.size < 100_000 && !Object.is(value, -0)) scalarTexts.set(value, text);
  return text;
}

/** A key's text as `marshalWithDocument` writes it, or null when not a plain one-line key. */
function keyText(key: string): string | null {
  let text = keyTexts.get(key);
  if (text !== undefined) return text;
  text = key.length < 256 ? asciiStringText(key) : undefined;
  if (text !== undefined) {
    if (keyTexts.size < 100_000) keyTexts.set(key, text);
    return text;
  }
  const simple = plainLine(key) && key.length < 256;
  const written = simple ? marshalWithDocument({ [key]: 0 }) : "";
  text =
    written.endsWith(": 0\n") && !written.startsWith("? ") && written.indexOf("\n") === written.length - 1
      ? written.slice(0, -4)
      : null;
  if (keyTexts.size < 100_000) keyTexts.set(key, text);
  return text;
}

function isPlainData(value: unknown): value is Ordered {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Indentations by depth (two spaces a level), and the same followed by a list item's dash. */
const indents: string[] = [""];
const dashes: string[] = ["-"];

function indentAt(depth: number): string {
  while (indents.length <= depth) indents.push(`${indents[indents.length - 1]}  `);
  return indents[depth];
}

function dashAt(depth: number): string {
  while (dashes.length <= depth) dashes.push(`${indentAt(dashes.length)}-`);
  return dashes[depth];
}

/** Writes a top-level `key: value`; false when the value is not simple data (see `goMarshal`). */
function emitPair(key: string, value: unknown, out: Out): boolean {
  const k = keyText(key);
  if (k === null) return false;
  out.parts.push(k, ":");
  return emitValue(true, value, 0, out);
}

/**
 * Writes a value after its head, already in `out` (`key:` when `keyed`, else a list item's dash);
 * block collections go on the next lines at `depth` + 1.
 */
function emitValue(keyed: boolean, value: unknown, depth: number, out: Out): boolean {
  const parts = out.parts;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      parts.push(" []\n");
      return true;
    }
    if (keyed) parts.push("\n");
    return emitItems(value, depth + 1, out, !keyed);
  }
  if (isPlainData(value)) {
    let first = true;
    const inner = indentAt(depth + 1);
    for (const key in value) {
      const item = value[key];
      if (item === undefined) continue;
      const k = keyText(key);
      if (k === null) return false;
      // In a list item the first field follows the dash.
      if (first && !keyed) parts.push(" ", k, ":");
      else {
        if (first) parts.push("\n");
        parts.push(inner, k, ":");
      }
      first = false;
      if (!emitValue(true, item, depth + 1, out)) return false;
      if (parts.length >= CHUNK_PARTS) flush(out);
    }
    if (first) parts.push(" {}\n");
    return true;
  }
  if (value === undefined || (typeof value === "object" && value !== null)) return false;
  const text = scalarText(value);
  if (text === null) return false;
  parts.push(" ", text, "\n");
  return true;
}

/** Writes list items at `depth`; with `inline` the first one follows a parent item's dash. */
function emitItems(items: readonly unknown[], depth: number, out: Out, inline: boolean): boolean {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === undefined) return false;
    out.parts.push(i === 0 && inline ? " -" : dashAt(depth));
    if (!emitValue(false, item, depth, out)) return false;
    if (out.parts.length >= CHUNK_PARTS) flush(out);
  }
  return true;
}

/** `goMarshal` through a `yaml` Document (the reference it follows). */
export function marshalWithDocument(value: Ordered): string {
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === "string") node.type = goStringStyle(node.value);
    },
  });
  return doc.toString({ indent: 2, indentSeq: true, lineWidth: 0, minContentWidth: 0 });
}
