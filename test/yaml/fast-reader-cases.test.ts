/**
 * The fast reader on fixtures of each construct it reads (it must take them, and build the full
 * parser's nodes), on constructs it must leave to the parser, and on generated block YAML (a
 * fast-check property: never a different tree, never a text the parser refuses).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastReadDocument } from "../../src/yaml/fast/index.js";
import { blockYaml } from "./fast-reader-gen.js";
import { compareChunk } from "./fast-reader-helpers.js";

const TAKEN: Record<string, string> = {
  "plain scalars and their tags":
    "a: 1\nb: true\nc: null\nd: ~\ne: 0x1F\nf: 1.5e3\ng: 2001-12-14\nh: -x\ni: a:b\nj: é\n",
  "empty values": "a:\nb: \nc: # line\nd: 1\n",
  "nested mappings": "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
  "keys of every kind": "'q k': 1\n\"d k\": 2\nk with spaces  : 3\n1: x\ntrue: y\n<<: z\n",
  "sequences, wide and compact": "a:\n- x\n- y: 1\n  z: 2\nb:\n  - p\n  -   q: 1\n      r: 2\n",
  "root sequence": "- a\n- b: c\n",
  "single-quoted": "a: 'it''s'\nb: ''\nc: 'two  spaces'\nd: 'multi\n  line\n\n  folded'\n",
  "double-quoted":
    'a: "t\\tb\\n\\u00e9\\x41\\"\\\\"\nb: ""\nc: "multi\n  line \\\n  joined"\nd: "x\n\n\n  y"\n',
  "plain multi-line": "a: first\n  second\n\n  third\nb: x\n  - y\n",
  "literal block scalars": "a: |\n  x\n\n   y\nb: |-\n  s\nc: |+\n  k\n\nd: |2\n    four\ne: |\nf: 1\n",
  "folded block scalars": "a: >\n  p\n  q\n\n  r\n    more\n  s\nb: >-\n  x\nc: >+ # keep\n  y\n\n",
  "line comments":
    "a: 1 # one\nb: 'q' # two\nc: |  # three\n  x\nd: # four\n  e: 1\nf: {} # five\n- x # six\n".replace(
      "\n- x # six\n",
      "\ng:\n- x # six\n",
    ),
  "head comments":
    "# doc\n\n# first\na: 1\n# b\nb:\n  # c\n  c: 1\n\n# d\n\n\n# d2\nd: 2\ne:\n# item\n- x\n# map item\n- y: 1\n",
  "document marker": "---\n# c\n\na: 1\n",
  "empty flow collections": "a: {}\nb: []\nc:\n- {}\n- []\nd: [ ]\ne: { }\n",
  "simple flow collections":
    'a: [x, "y", \'z\', 1, true, ~]\nb: [ a b , c ]  # c\nc: [p,]\nd:\n- {key: k.io/x, operator: In}\n- ["*"]\ne: {"q k": v, n: 1.5}\n',
  "dedent with comment at the new column": "a:\n  b:\n    c: 1\n# top\nd: 2\n",
  "comment block after a key": "a:\n  # one\n\n  # two\n  b: 1\n",
  "tags of texts starting with a letter":
    "true: TRUE\nFalse: nulls\nNULL: Null\nnull: x\nyes: no\nfalse1: tru\nTruex: fALSE\nNu: nUll\n",
  "a key's line comment before its sequence":
    "a: # c\n  - x\n  - y: 1\nb: # d\n- z\nc:\n- d: # e\n    - w\n  f: # g\n  # h\n  - v\n",
  "an indented document": "  a: 1\n  b:\n  - x\n  c:\n    d: 2\n",
  "an indented root sequence": "  # h\n  - a\n  - b: c\n",
  "values on the line below their key":
    "a:\n  {}\nb: # l\n  [x, 'y'] # m\nc:\n  # h\n  plain\n  more\nd:\n  \"q\"\ne:\n  |\n   lit\nf:\n    {}\n  \ng: 1\n",
  "comments at another column than the line below them":
    "a:\n  b: 1\n    # h1\n  c: 2\nd:\n# h2\n  e: 3\nf:\n    # h3\n  # h4\n  g: 4\n",
  "feet of values before a line left of them":
    "a:\n  b:\n  - n: x\n    v: y\n      # f1\n  c: 1\n  d: 'q'\n    # f2\n    # f3\ne:\n  f: [x]\n  # f4\n# h\ng:\n  - p\n  - q\n  # f5\nh: 1\n",
  "a document's foot comment": "a:\n  b: 1\n\n# t\n  # u\n\n",
  "tabs in block scalars' content": "a: |\n  x\n  \ty\n\n  \t\nb: >\n  p\n  \tq\n  r\n",
};

const LEFT: Record<string, string> = {
  "nested flow collections": "a: [1, [2]]\nb: {c: {d: e}}\n",
  "flow collections over lines": "a: [1,\n  2]\n",
  "a comment in a flow collection": "a: [1, # c\n  2]\n",
  "a flow entry of one pair": "a: [b: c]\n",
  "an empty flow entry": "a: [b, , c]\n",
  "a flow key without a value": "a: {b}\n",
  "a flow key with an empty value": "a: {b: }\n",
  "an alias in a flow collection": "a: &x 1\nb: [*x]\n",
  "text after a flow collection": "a: [b] c\n",
  anchors: "a: &x 1\nb: *x\n",
  tags: "a: !!str 1\n",
  "complex keys": "? a\n: b\n",
  tabs: "a:\tb\n",
  "a tab after a plain scalar": "a: b\t\n",
  "a tab in a comment": "a: 1 #\tc\n",
  "a tab in a block scalar's indentation": "a: |\n  x\n \ty\n",
  "a tab where a block scalar's indentation is found": "a: |-\n   \t x\n",
  "a tab in a plain continuation": "a: b\n \tc\n",
  directives: "%YAML 1.2\n---\na: 1\n",
  "foot comment": "a: 1\n# foot\n\nb: 2\n",
  "trailing comment": "a:\n  b: 1\n  # c\n",
  "scalar document": "just text\n",
  "compact nested sequence": "- - a\n",
  "bad escape": 'a: "\\q"\n',
  "mapping value in a plain scalar": "a: b: c\n",
  // yaml.v3 refuses a simple key whose `:` is over 1024 chars from its start: the full parser decides.
  "a long quoted key": `"${"k".repeat(1023)}": v\n`,
  "a key with long spaces before its colon": `${"k".repeat(990)}${" ".repeat(35)}: v\n`,
  "a short quoted key far from its colon": `"k"${" ".repeat(1022)}: v\n`,
  "nesting deeper than the stack": `${Array.from({ length: 6000 }, (_, i) => `${" ".repeat(i)}a:`).join("\n")}\n`,
};

describe("the fast reader's fixtures", () => {
  for (const [name, text] of Object.entries(TAKEN)) {
    it(`reads ${name} as the full parser does`, () => {
      expect(compareChunk(text, 3)).toEqual({ kind: "same" });
    });
  }
  for (const [name, text] of Object.entries(LEFT)) {
    it(`leaves ${name} to the full parser`, () => {
      expect(fastReadDocument(text)).toBeUndefined();
    });
  }
});

describe("the fast reader on texts cut short", () => {
  // Past a text's end its code units read as undefined: a loop that only stops at a char would spin.
  it("ends on every prefix of every fixture, building the full parser's tree or leaving it", () => {
    const texts = [...Object.values(TAKEN), ...Object.values(LEFT).filter((t) => t.length < 2000)];
    texts.push("kind: [", "a: {b: c", "a: [x, 'y'", "- [a,", "a: {b");
    let cut = 0;
    for (const text of texts)
      for (let n = 1; n <= text.length; n++) {
        const v = compareChunk(text.slice(0, n));
        expect(v, JSON.stringify(text.slice(0, n))).not.toHaveProperty("why");
        cut++;
      }
    expect(cut).toBeGreaterThan(1000);
  });

  it("leaves an unclosed flow collection to the full parser", () => {
    for (const text of ["kind: [", "kind: [a", "kind: {a: b", "kind: [a, b,", "- {a: 'b'"])
      expect(fastReadDocument(text), text).toBeUndefined();
  });
});

describe("the fast reader's shared code buffer", () => {
  it("reads a short text after a longer one as if alone (nothing of the longer one past its end)", () => {
    expect(compareChunk(`a:\n  b: ${"c ".repeat(200)}\n    d\n  e: f\n`, 0)).toEqual({ kind: "same" });
    for (const short of ["a: b", "a:\n  b: c", "a: 'b'", "a: |\n  b", "- a", "a:\n- b"])
      expect(compareChunk(short, 0)).toEqual({ kind: "same" });
  });
});

describe("the fast reader on generated block YAML", () => {
  it("never builds another tree than the full parser, nor reads what it refuses", () => {
    let taken = 0;
    fc.assert(
      fc.property(blockYaml, (text) => {
        const v = compareChunk(text);
        if (v.kind === "same") taken++;
        expect(v, text).not.toHaveProperty("why");
      }),
      { numRuns: 3000 },
    );
    // The property tests the fast path, not only its bail-outs.
    expect(taken).toBeGreaterThan(600);
  });
});
