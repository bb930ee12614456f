/**
 * A fast reader for the block-style YAML most package files are written in: it builds the very
 * nodes `parseStream` builds (kinds, tags, values, styles, head and line comments, positions,
 * the `---` marker) straight from the text, and gives up — returns undefined, so the caller uses
 * the full parser — on anything outside its subset: flow collections, anchors, aliases, tags,
 * complex keys, tabs outside block scalars' content, directives, foot comments, a scalar document.
 */
import { Kind, type YNode } from "../node.js";
import { mapping, sequence } from "./collections.js";
import { BAIL, Cursor, LF } from "./cursor.js";
import { blankAt, isKeyLine } from "./scalars.js";

/** What the fast reader leaves to the full parser wherever it is (one search of the text). */
const REFUSED = /[\r\0\uFEFF\x85\u2028\u2029]|\n(?:---|\.\.\.)/;

/**
 * The one document of `text` (a kyaml document chunk: no `---` line after its start) as
 * `parseStream(text, firstLine)` would read it, or undefined where the fast reader is unsure.
 * @throws nothing of its own: text it cannot read is left to the full parser.
 */
export function fastReadDocument(text: string, firstLine = 0): YNode[] | undefined {
  if (REFUSED.test(text)) return undefined;
  if (text.startsWith("...") || text.startsWith("%")) return undefined;
  try {
    const c = new Cursor(text, firstLine);
    const tab = text.indexOf("\t");
    if (tab >= 0) c.tabRanges = [];
    const doc = documentOf(c);
    if (tab >= 0 && !tabsInBlockScalars(text, tab, c.tabRanges as number[])) return undefined;
    return [doc];
  } catch (err) {
    // Nesting deeper than the stack allows is left to the full parser too.
    if (err === BAIL || err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Whether every tab of `text` from `first` on lies in one of `ranges` (sorted start, end pairs). */
function tabsInBlockScalars(text: string, first: number, ranges: number[]): boolean {
  let r = 0;
  for (let t = first; t >= 0; t = text.indexOf("\t", t + 1)) {
    while (r < ranges.length && ranges[r + 1] <= t) r += 2;
    if (r >= ranges.length || ranges[r] > t) return false;
  }
  return true;
}

function documentOf(c: Cursor): YNode {
  const s = c.src;
  const b = c.code;
  const explicit = s.startsWith("---") && (c.len === 3 || b[3] === LF);
  if (explicit) c.pos = 3;
  else if (s.startsWith("---")) throw BAIL;
  else {
    c.pos = -1;
    c.line = -1;
  }
  c.gap(0, true);
  if (c.atEnd) throw BAIL;
  const doc = explicit
    ? c.node(Kind.Document, "", "---", 0, 0, 0)
    : c.node(Kind.Document, "", "", c.pos, c.line, c.lineStart);
  if (!explicit) splitDocumentHead(c, doc);
  let root: YNode;
  // The root collection may be indented: its column is the one its first line sets.
  if (b[c.pos] === 45 && blankAt(b, c.pos + 1)) root = sequence(c, c.column);
  else if (isKeyLine(c)) root = mapping(c, c.column);
  else throw BAIL;
  if (!c.atEnd) throw BAIL;
  doc.content = [root];
  doc.footComment = c.tail;
  return doc;
}

/** yaml.v3: the part of the first comment above its last blank line heads the document. */
function splitDocumentHead(c: Cursor, doc: YNode): void {
  const hc = c.head;
  for (let i = hc.length - 1; i > 0; i--) {
    if (hc.charCodeAt(i) !== LF) continue;
    if (i === hc.length - 1) {
      doc.headComment = hc.slice(0, i);
      c.head = hc.slice(i + 1);
      return;
    }
    if (hc.charCodeAt(i - 1) === LF) {
      doc.headComment = hc.slice(0, i - 1);
      c.head = hc.slice(i + 1);
      return;
    }
  }
}
