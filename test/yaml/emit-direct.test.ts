/**
 * The writer's direct way (src/yaml/emit/direct.ts) against yaml.v3's event machine it stands for
 * (`emitDocumentEvents`): every document of ../shared (conformance, real packages, pkg-update, rego,
 * starlark-go-testdata, read both as kpt reads a file and as raw streams), our fixtures, hand-made
 * documents of every scalar style and comment place, and random trees — the same bytes, compact and
 * wide. Fails (does not skip) without ../shared when CI=true.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emitDirect } from "../../src/yaml/emit/direct.js";
import { emitDocumentEvents } from "../../src/yaml/emitter.js";
import {
  emitDocument,
  Kind,
  parseStream,
  printDocument,
  readYamlStream,
  Style,
  scalar,
  YNode,
} from "../../src/yaml/index.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";
import { yamlFiles } from "../helpers/yaml-files.js";

const here = path.dirname(new URL(import.meta.url).pathname);
const sharedParts = ["conformance", "real-packages", "pkg-update", "rego", "starlark-go-testdata"];

/** Every document of a text, read as kpt reads a file and as a raw stream (CRLF kept). */
function documentsOf(text: string): YNode[] {
  const out: YNode[] = [];
  try {
    for (const d of readYamlStream(text)) out.push(d.node);
  } catch {
    // Invalid YAML (a case testing the error).
  }
  try {
    out.push(...parseStream(text));
  } catch {
    // Invalid YAML.
  }
  return out;
}

/** The direct way's bytes equal the event machine's, compact and wide; whether it wrote directly. */
function check(doc: YNode, differ: string[], where: string): boolean {
  let direct = false;
  for (const compactSeq of [true, false]) {
    const options = { compactSeq, indent: 2 };
    let expected: string;
    try {
      expected = emitDocumentEvents(doc, options);
    } catch (err) {
      // The event machine refuses it: so must the writer as a whole.
      expect(() => emitDocument(doc, options), where).toThrow();
      expect(String(err)).not.toBe("");
      continue;
    }
    const got = emitDirect(doc, options);
    if (got !== undefined) direct = true;
    if (got !== undefined && got !== expected) differ.push(`${where} (${compactSeq ? "compact" : "wide"})`);
    if (emitDocument(doc, options) !== expected) differ.push(`${where} via emitDocument`);
  }
  return direct;
}

describe("the direct writer against the event machine", () => {
  for (const part of sharedParts) {
    const dir = path.join(sharedDir, part);
    const present = providedByCi(`../shared/${part}`, existsSync(dir));
    it.skipIf(!present)(`writes every document of ../shared/${part} to the same bytes`, () => {
      const files = yamlFiles(dir);
      const differ: string[] = [];
      let docs = 0;
      let direct = 0;
      for (const f of files) {
        const text = readFileSync(f, "utf8");
        for (const [i, d] of documentsOf(text).entries()) {
          docs++;
          if (check(d, differ, `${f}#${i}`)) direct++;
        }
      }
      expect(differ).toEqual([]);
      if (part === "real-packages") {
        expect(docs).toBeGreaterThan(2000);
        // Nearly every real document goes the direct way (what gives up is counted in the report).
        expect(direct / docs).toBeGreaterThan(0.95);
      }
    });
  }

  it("writes every fixture document to the same bytes", () => {
    const differ: string[] = [];
    let docs = 0;
    for (const f of yamlFiles(path.join(here, "..", "fixtures")))
      for (const [i, d] of documentsOf(readFileSync(f, "utf8")).entries()) {
        docs++;
        check(d, differ, `${f}#${i}`);
      }
    expect(docs).toBeGreaterThan(50);
    expect(differ).toEqual([]);
  });

  const handMade: Record<string, string> = {
    "every scalar style": [
      "plain: text with spaces",
      "single: 'it''s'",
      'double: "tab\\there \\u00e9 \\U0001F600"',
      "literal: |",
      "  line one",
      "   indented",
      "",
      "  after a blank",
      "literalKeep: |+",
      "  kept",
      "",
      "folded: >-",
      "  folded text",
      "  more",
      "empty: ''",
      "null: ~",
      "nothing:",
      "bool: 'true'",
      "int: '012'",
      "number: 12",
      "float: 1.5e3",
      "colon: 'a: b'",
      "hash: 'a #b'",
      "lead: ' space'",
      "trail: 'space '",
      "dash: '- x'",
      "unicode: héllo wörld ✓",
      'control: "\\x01\\x7F"',
      'multi: "one\\ntwo\\n"',
      'spacebreak: "a \\nb"',
      `? ${"k".repeat(130)}`,
      ": long key",
      '"multi\\nline key": v',
      "'': empty key",
    ].join("\n"),
    "comments everywhere": [
      "# head of the document",
      "",
      "# head of the first key",
      "a: 1 # line of a",
      "# foot of a",
      "",
      "b: # line of b's key",
      "  # head of c",
      "  c: 2",
      "  # foot of c",
      "d: # key line",
      "  - x # item line",
      "  # foot of x",
      "  - y",
      "e: |- # literal line",
      "  text",
      "f: {} # empty map",
      "g: [] # empty seq",
      "h: # before a flow",
      "  - [1, 2]",
      "# foot of the document",
    ].join("\n"),
    "wide and compact sequences": [
      "spec:",
      "  containers:",
      "  - name: a",
      "    args:",
      "    - x",
      "    - - nested",
      "      - again",
      "    - {}",
      "    - []",
      "  -   - seq in seq",
      "  - ''",
      "top:",
      "    - wide",
    ].join("\n"),
    "empty collections": "a: {}\nb: []\nc:\n  - {}\n  - []\n  - d: {}\n",
    "a root scalar": "just text\n",
    "a root literal": "|\n  text\n  more\n",
    "a root sequence": "- a\n- b:\n    c: d\n- - e\n",
    "crlf origin": "a: 1\r\nb: |\r\n  x\r\n  y\r\n# c\r\nc: 'q\r\n  r'\r\n",
    "tags and anchors (given up)": "a: &x 1\nb: *x\nc: !custom v\nd: !!str 1\ne: {f: g}\n",
    "an odd mapping tail": "a:\n  b: 1\n  # foot of b\nc: 2\n",
  };
  for (const [name, text] of Object.entries(handMade))
    it(`writes ${name} to the same bytes`, () => {
      const differ: string[] = [];
      const docs = documentsOf(text);
      expect(docs.length).toBeGreaterThan(0);
      for (const [i, d] of docs.entries()) check(d, differ, `${name}#${i}`);
      expect(differ).toEqual([]);
    });

  it("writes the common document directly and what it does not handle through the machine", () => {
    const common = "a: 1 # c\nb:\n- x\n- {}\nc: |\n  t\nd: [1, 'x y']\ne: {f: g, h: ''}\n";
    const [doc] = parseStream(common);
    expect(emitDirect(doc, { compactSeq: true, indent: 2 })).toBe(common);
    for (const text of ["a: &x 1\nb: *x\n", "a: !t v\n", "a: [[1], 2]\n", "a: {b: [c]}\n", "? [k]\n: v\n"]) {
      const [doc] = parseStream(text);
      expect(emitDirect(doc, { indent: 2 }), text).toBeUndefined();
      expect(emitDocument(doc, { indent: 2 })).toBe(emitDocumentEvents(doc, { indent: 2 }));
    }
  });

  it("writes flow collections of scalars with comments directly, as the machine does", () => {
    const commented = (v: string, head: string, line: string, foot: string) => {
      const n = scalar(v);
      n.headComment = head;
      n.lineComment = line;
      n.footComment = foot;
      return n;
    };
    const items = () => [commented("a", "", "# l", ""), commented("b c", "# h", "", "# f"), scalar("")];
    const seq = new YNode(Kind.Sequence, "!!seq", "", items());
    seq.style = Style.Flow;
    seq.lineComment = "# s";
    const map = new YNode(Kind.Mapping, "!!map", "", items().concat(scalar("d")));
    map.style = Style.Flow;
    const root = new YNode(Kind.Mapping, "!!map", "", [scalar("s"), seq, commented("m", "", "# k", ""), map]);
    const doc = new YNode(Kind.Document, "", "", [root]);
    for (const compactSeq of [true, false]) {
      const options = { compactSeq, indent: 2 };
      const direct = emitDirect(doc, options);
      expect(direct).toBeDefined();
      expect(direct).toBe(emitDocumentEvents(doc, options));
    }
  });

  it("writes a document of several 64 Ki pieces (each flattened on its own) to the same bytes", () => {
    // A ResourceList-sized list of mappings, with a long mapping of mappings inside one item.
    const item = (i: number) => {
      const [doc] = parseStream(
        `# item ${i}\nkind: K\nmetadata:\n  name: n-${i} # c\nspec:\n  - a: [1, 2]\n    b: |\n      t\n`,
      );
      return doc.content[0];
    };
    const items = Array.from({ length: 3000 }, (_, i) => item(i));
    const wide = new YNode(Kind.Mapping, "!!map", "", []);
    for (let i = 0; i < 3000; i++) wide.content.push(scalar(`k${i}`), item(i));
    items.push(wide);
    const root = new YNode(Kind.Mapping, "!!map", "", [
      scalar("items"),
      new YNode(Kind.Sequence, "!!seq", "", items),
    ]);
    const doc = new YNode(Kind.Document, "", "", [root]);
    for (const compactSeq of [true, false]) {
      const options = { compactSeq, indent: 2 };
      const direct = emitDirect(doc, options);
      expect(direct?.length).toBeGreaterThan(4 * 65536);
      expect(direct).toBe(emitDocumentEvents(doc, options));
    }
  });

  it("leaves deep nesting to the machine (no deeper recursion than before)", () => {
    let node = scalar("leaf");
    for (let i = 0; i < 400; i++) node = new YNode(Kind.Mapping, "!!map", "", [scalar(`k${i % 3}`), node]);
    const doc = new YNode(Kind.Document, "", "", [node]);
    expect(emitDirect(doc, { indent: 2 })).toBeUndefined();
    expect(printDocument(doc, "wide")).toBe(emitDocumentEvents(doc, { compactSeq: false, indent: 2 }));
  });

  it("writes random texts of indicator characters as keys, values and items to the same bytes", () => {
    const chars = [..." :#-?.,[]{}!&*|>'\"%@`ab\t\n\r\u00e9\u2028"];
    const text = fc.array(fc.constantFrom(...chars), { maxLength: 8 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(text, text, text, fc.constantFrom(0, Style.Literal, Style.Folded), (k, v, x, st) => {
        const item = scalar(x, "!!str", st);
        const seq = new YNode(Kind.Sequence, "!!seq", "", [item, scalar(v)]);
        const map = new YNode(Kind.Mapping, "!!map", "", [scalar(k), scalar(v, "!!str", st), scalar(x), seq]);
        const differ: string[] = [];
        check(new YNode(Kind.Document, "", "", [map]), differ, "texts");
        return differ.length === 0;
      }),
      { numRuns: 5000 },
    );
  });

  it("writes random trees to the same bytes", () => {
    const text = fc.oneof(
      fc.constantFrom(
        "",
        "a",
        "true",
        "012",
        "- x",
        "a: b",
        "#x",
        " lead",
        "trail ",
        "a\nb",
        "a\n",
        "é✓",
        "\t",
      ),
      fc.string({ maxLength: 12 }),
    );
    const comment = fc.constantFrom("", "", "# c", "#x\n# y");
    const style = fc.constantFrom(0, 0, Style.DoubleQuoted, Style.SingleQuoted, Style.Literal, Style.Folded);
    const withComments = (n: YNode, [h, l, f]: string[]) => {
      n.headComment = h;
      n.lineComment = l;
      n.footComment = f;
      return n;
    };
    const comments = fc.tuple(comment, comment, comment);
    const flowStyle = fc.constantFrom(0, 0, Style.Flow);
    const tree = fc.letrec<{ node: YNode }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc
          .tuple(text, style, fc.constantFrom("!!str", "!!int", "!!null"), comments)
          .map(([v, s, t, c]) => withComments(scalar(v, t, s), c)),
        fc.tuple(fc.array(tie("node"), { maxLength: 4 }), comments, flowStyle).map(([items, c, flow]) => {
          const n = withComments(new YNode(Kind.Sequence, "!!seq", "", items), c);
          n.style = flow;
          return n;
        }),
        fc
          .tuple(fc.array(fc.tuple(text, comments, tie("node")), { maxLength: 4 }), comments, flowStyle)
          .map(([pairs, c, flow]) => {
            const n = withComments(
              new YNode(
                Kind.Mapping,
                "!!map",
                "",
                pairs.flatMap(([k, kc, v]) => [withComments(scalar(k), kc), v]),
              ),
              c,
            );
            n.style = flow;
            return n;
          }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, comments, (node, c) => {
        const doc = withComments(new YNode(Kind.Document, "", "", [node]), c);
        const differ: string[] = [];
        check(doc, differ, "random");
        return differ.length === 0;
      }),
      { numRuns: 3000 },
    );
  });
});
