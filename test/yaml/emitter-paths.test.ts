/**
 * The writer's short ways against the general ways they stand for, over our fixtures, every YAML file
 * of ../shared (real packages, conformance, pkg-update) and random text:
 * - the event cursor (one reused event, no list) against yaml.v3 encoder's walk written out plainly
 *   as a list of events (`referenceEvents` below);
 * - the scalar analysis (simple-text check, inner-character classes; the block and single-quoted
 *   bits by regex search) against the per-character loop;
 * - the double-quoted escaper (runs of plain ASCII copied at once) against one code point at a time;
 * - the literal scalar writer (the lines after the first at once when "\n" is the only break) against
 *   its line loop.
 * Fails (does not skip) without ../shared when CI=true.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  A_BLOCK,
  A_SINGLE,
  analyzeBlock,
  analyzeScalar,
  analyzeScalarGeneral,
  analyzeSingle,
} from "../../src/yaml/emit/analyze.js";
import { E, EventCursor } from "../../src/yaml/emit/events.js";
import { Emitter } from "../../src/yaml/emit/output.js";
import { escapeDoubleQuoted, writeLiteral, writeLiteralGeneral } from "../../src/yaml/emit/scalars.js";
import { Kind, readYamlStream, Style, type YNode } from "../../src/yaml/index.js";
import { longTag, resolvePlain, shortTag } from "../../src/yaml/resolve.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";
import { yamlFiles } from "../helpers/yaml-files.js";

const here = path.dirname(new URL(import.meta.url).pathname);
const roots = ["real-packages", "conformance", "pkg-update"].map((d) => path.join(sharedDir, d));
const shared = providedByCi("../shared (real packages, conformance)", roots.every(existsSync));

/** Every readable document of the fixtures and (when present) ../shared. */
function documents(): YNode[] {
  const files = yamlFiles(path.join(here, "..", "fixtures"));
  if (shared) for (const r of roots) yamlFiles(r, files);
  const out: YNode[] = [];
  for (const f of files) {
    try {
      for (const d of readYamlStream(readFileSync(f, "utf8"))) out.push(d.node);
    } catch {
      // Invalid YAML (a case testing the error).
    }
  }
  return out;
}

type Event = [E, string, string, string, boolean, number, boolean, string, string, string, string];

/** yaml.v3 encoder's `node` walk as a list (the event fields the emitter reads). */
function referenceEvents(node: YNode, tail: string, out: Event[]): void {
  const ev = (type: E, fields: Partial<Record<"a" | "t" | "v" | "h" | "l" | "f" | "tl", string>> = {}) =>
    out.push([
      type,
      fields.a ?? "",
      fields.t ?? "",
      fields.v ?? "",
      false,
      0,
      false,
      fields.h ?? "",
      fields.l ?? "",
      fields.f ?? "",
      fields.tl ?? "",
    ]);
  let tag = node.tag;
  let force = false;
  if (tag !== "" && (node.style & Style.Tagged) === 0) {
    const stag = shortTag(tag);
    const quoted =
      (node.style & (Style.SingleQuoted | Style.DoubleQuoted | Style.Literal | Style.Folded)) !== 0;
    if (node.kind === Kind.Scalar) {
      if (stag === "!!str" && quoted) tag = "";
      else if (resolvePlain(node.value) === stag) tag = "";
      else if (stag === "!!str") [tag, force] = ["", true];
    } else if ((node.kind === Kind.Mapping ? "!!map" : node.kind === Kind.Sequence ? "!!seq" : "") === stag)
      tag = "";
  }
  const start = (type: E) => {
    ev(type, {
      a: node.anchor,
      t: longTag(tag),
      h: node.headComment,
      tl: type === E.MappingStart ? tail : "",
    });
    const e = out[out.length - 1];
    e[4] = tag === "";
    e[6] = (node.style & Style.Flow) !== 0;
  };
  if (node.kind === Kind.Sequence) {
    start(E.SequenceStart);
    for (const c of node.content) referenceEvents(c, "", out);
    ev(E.SequenceEnd, { l: node.lineComment, f: node.footComment });
  } else if (node.kind === Kind.Mapping) {
    start(E.MappingStart);
    let t = "";
    const c = node.content;
    for (let i = 0; i + 1 < c.length; i += 2) {
      const foot = c[i].footComment;
      c[i].footComment = "";
      referenceEvents(c[i], t, out);
      c[i].footComment = foot;
      t = foot;
      referenceEvents(c[i + 1], "", out);
    }
    ev(E.MappingEnd, { tl: t, l: node.lineComment, f: node.footComment });
  } else if (node.kind === Kind.Alias) {
    ev(E.Alias, { a: node.value, h: node.headComment, l: node.lineComment, f: node.footComment });
  } else {
    const st = node.style;
    const style =
      st & Style.DoubleQuoted
        ? 3
        : st & Style.SingleQuoted
          ? 2
          : st & Style.Literal
            ? 4
            : st & Style.Folded
              ? 5
              : node.value.includes("\n")
                ? 4
                : force
                  ? 3
                  : 1;
    ev(E.Scalar, {
      a: node.anchor,
      t: tag === "" ? "" : longTag(tag),
      v: node.value,
      h: node.headComment,
      l: node.lineComment,
      f: node.footComment,
      tl: tail,
    });
    out[out.length - 1][4] = tag === "";
    out[out.length - 1][5] = style;
  }
}

function referenceDocument(doc: YNode): Event[] {
  const out: Event[] = [];
  const isDoc = doc.kind === Kind.Document;
  out.push([E.DocumentStart, "", "", "", true, 0, false, isDoc ? doc.headComment : "", "", "", ""]);
  for (const c of isDoc ? doc.content : [doc]) referenceEvents(c, "", out);
  out.push([E.DocumentEnd, "", "", "", true, 0, false, "", "", isDoc ? doc.footComment : "", ""]);
  return out;
}

function cursorEvents(doc: YNode): Event[] {
  const cursor = new EventCursor(doc);
  const out: Event[] = [];
  while (cursor.next()) {
    const e = cursor.ev;
    // yaml.v3's encoder gives a scalar the same implicit and quoted-implicit flags.
    const implicit = e.type === E.Scalar && e.quotedImplicit !== e.implicit ? null : e.implicit;
    out.push([
      e.type,
      e.anchor,
      e.tag,
      e.value,
      implicit as boolean,
      e.style,
      e.flow,
      e.head,
      e.line,
      e.foot,
      e.tail,
    ]);
  }
  return out;
}

function scalarValues(n: YNode, out: Set<string>): Set<string> {
  if (n.kind === Kind.Scalar) out.add(n.value);
  for (const c of n.content) scalarValues(c, out);
  return out;
}

/** The double-quoted escaper one code point at a time (yaml.v3's loop). */
function referenceEscape(value: string): string {
  const names: Record<number, string> = {
    0: "0",
    7: "a",
    8: "b",
    9: "t",
    10: "n",
    11: "v",
    12: "f",
    13: "r",
    27: "e",
    34: '"',
    92: "\\",
    133: "N",
    160: "_",
    8232: "L",
    8233: "P",
  };
  let out = "";
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    const printable =
      cp === 10 ||
      (cp >= 0x20 && cp <= 0x7e) ||
      cp === 0x85 ||
      (cp >= 0xa0 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
    const brk = cp === 10 || cp === 13 || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
    if (printable && !brk && cp !== 34 && cp !== 92) out += ch;
    else if (names[cp]) out += `\\${names[cp]}`;
    else {
      const hex = cp.toString(16).toUpperCase();
      out +=
        cp <= 0xff
          ? `\\x${hex.padStart(2, "0")}`
          : cp <= 0xffff
            ? `\\u${hex.padStart(4, "0")}`
            : `\\U${hex.padStart(8, "0")}`;
    }
  }
  return out;
}

const tricky = fc.string({
  unit: fc.constantFrom(
    "a",
    "Z",
    "0",
    "-",
    ".",
    "/",
    "_",
    " ",
    "\n",
    "\t",
    "\r",
    ":",
    "#",
    ",",
    "?",
    "[",
    "{",
    "'",
    '"',
    "\\",
    "!",
    "&",
    "*",
    "|",
    ">",
    "%",
    "@",
    "`",
    "\u0085",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\ud7ff",
    "\ue000",
    "\ufeff",
    "\uffff",
    "\u0007",
    "é",
    "😀",
    "\ud800",
  ),
  maxLength: 12,
});

describe("the writer's short ways", () => {
  const docs = documents();

  it("makes the events yaml.v3's encoder makes, for every document", () => {
    expect(docs.length).toBeGreaterThan(shared ? 3000 : 10);
    for (const d of docs) {
      const [ours, reference] = [cursorEvents(d), referenceDocument(d)];
      if (JSON.stringify(ours) !== JSON.stringify(reference)) expect(ours).toEqual(reference);
    }
  }, 60_000);

  it("analyses every scalar as the per-character loop does", () => {
    const values = new Set<string>();
    for (const d of docs) scalarValues(d, values);
    expect(values.size).toBeGreaterThan(shared ? 5000 : 100);
    // The whole analysis, and the one bit a block or single-quoted style reads.
    const same = (v: string) =>
      analyzeScalar(v) === analyzeScalarGeneral(v) &&
      analyzeBlock(v) === (analyzeScalarGeneral(v) & A_BLOCK) &&
      analyzeSingle(v) === (analyzeScalarGeneral(v) & A_SINGLE);
    expect([...values].filter((v) => !same(v))).toEqual([]);
    fc.assert(fc.property(tricky, same), { numRuns: 5000 });
  }, 60_000);

  it("escapes double-quoted text as one code point at a time does", () => {
    fc.assert(
      fc.property(tricky, (v) => escapeDoubleQuoted(v) === referenceEscape(v)),
      { numRuns: 5000 },
    );
    expect(escapeDoubleQuoted('a"b\\c\u00e9\u0007😀\ud800')).toBe('a\\"b\\\\c\u00e9\\a\\U0001F600\\uD800');
  });

  it("writes literal scalars as the line loop does", () => {
    const values = new Set<string>();
    for (const d of docs) literalValues(d, values);
    expect(values.size).toBeGreaterThan(shared ? 500 : 2);
    const lines = fc.string({
      unit: fc.constantFrom("a", " ", "\t", "\n", "\n", "\r", "\u0085", "\u2028", "é"),
      maxLength: 16,
    });
    const differ = [...values].filter(
      (v) => literalState(writeLiteral, v, 2) !== literalState(writeLiteralGeneral, v, 2),
    );
    expect(differ).toEqual([]);
    fc.assert(
      fc.property(lines, fc.integer({ min: 0, max: 9 }), (v, indent) => {
        expect(literalState(writeLiteral, v, indent)).toBe(literalState(writeLiteralGeneral, v, indent));
      }),
      { numRuns: 5000 },
    );
  }, 60_000);
});

/** Every literal scalar's text under a node. */
function literalValues(n: YNode, out: Set<string>): void {
  if (n.kind === Kind.Scalar && (n.style & Style.Literal) !== 0) out.add(n.value);
  for (const c of n.content) literalValues(c, out);
}

/**
 * The text and emitter state after writing `value` as a literal scalar after `key:` at `indent`,
 * then the next key: what the caller goes on from.
 */
function literalState(write: (em: Emitter, v: string) => void, value: string, indent: number): string {
  const em = new Emitter(null, { indent: 2 });
  em.indent = indent;
  em.out = `${" ".repeat(indent)}key:`;
  em.column = em.out.length;
  em.whitespace = false;
  em.indention = false;
  write(em, value);
  const state = [em.out, em.column, em.whitespace, em.indention, em.footIndent];
  return JSON.stringify(state);
}
