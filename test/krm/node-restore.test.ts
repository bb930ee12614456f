/**
 * Differential test of kyaml's CopyComments / SyncOrder on nodes (src/krm/node-restore.ts) against
 * the Document forms: for every document of the fixtures below and of ../shared/conformance and
 * ../shared/real-packages, and every edit a function may make, the node path's output
 * (`printDocument`) must be byte for byte the Document path's (`writeDocument` after
 * `copyComments` / `syncFieldOrder` from `documentShape(nodeToDocument(input))`), and the node shape
 * must be that very DocumentShape. Fails (does not skip) without ../shared when CI=true.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyComments } from "../../src/krm/comments.js";
import { syncFieldOrder } from "../../src/krm/field-order.js";
import { restoreFromNode, restoreNodeShape, takeNodeShape } from "../../src/krm/node-restore.js";
import { documentShape } from "../../src/krm/resource-shape.js";
import { writeDocument } from "../../src/yaml/from-document.js";
import {
  cloneNode,
  Kind,
  printDocument,
  readYamlStream,
  resolvePlain,
  type SeqIndent,
  scalar,
  type YNode,
} from "../../src/yaml/index.js";
import { nodeToDocument } from "../../src/yaml/to-document.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";
import { yamlFiles } from "../helpers/yaml-files.js";

const FIXTURES: Record<string, string> = {
  "comments everywhere": `# head of the document
apiVersion: v1 # line on a value
kind: ConfigMap
metadata:
  # head of a nested key
  name: cm # the name
  annotations: # line on a key with a map
    a: "1"
    # foot of a
  labels:
    x: y
data:
  # before the first item
  k1: v1
  k2: |
    text
  # between keys

  k3: 'v3' # quoted
# foot of the document
`,
  "lists of maps with names": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
        # the main container
        - name: main # kpt-set: \${name}
          image: nginx:1.2 # kpt-set: \${image}
          ports:
            - containerPort: 80 # http
              name: http
        - name: sidecar
          # head of image
          image: envoy
          args:
            - --a # first
            - --b
            # foot of the args
      volumes: [] # none
`,
  "scalar lists": `list:
  - a # one
  - b
  # before c
  - c # three
  - 1 # a number
  - 0x1F # hex
nested:
  - - x # inner
    - y
  - [p, q] # flow
`,
  "document marker": `---
# head of the document after the marker
---
# above the first key
a: 1
b:
  - c # item
`,
  "flow and odd keys": `{x: 1, y: 2} # flow root
`,
  "numbers as keys": `1: one # one
01: zero-one
true: yes # bool key
~: null-key
"quoted": q
m:
  ? [complex, key]
  : v # complex
`,
  anchors: `base: &b # anchor
  x: 1
use: *b # alias
list:
  - &i item
  - *i
`,
  "foot comments below lists": `a:
  - x: 1
    y: 2
  # below the list of maps
b:
  - s
  # below the scalar list
c: 3
`,
  "empty and null": `a:
b: ~
c: {}
d: []
e: "" # empty string
`,
  "plain deployment": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  labels:
    app: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        env:
        - name: A
          value: "1"
        - name: B
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
`,
  "duplicate names": `items:
  - name: a # first a
    v: 1
  - name: a
    v: 2 # second a
  - name: b
  - v: 3 # unnamed
`,
  "sequence root": `# the list
- a: 1 # one
  b: 2
- c # scalar item
`,
  "scalar root": `# just a scalar
hello # line
`,
  "comment lines only at the end": `a: 1
b: 2

# trailing block
# of two lines
`,
};

type Edit = (doc: YNode) => void;

function walk(n: YNode, visit: (n: YNode) => void): void {
  visit(n);
  for (const c of n.content) walk(c, visit);
}

const dropComments: Edit = (doc) =>
  walk(doc, (n) => {
    n.headComment = "";
    n.lineComment = "";
    n.footComment = "";
  });

function reversePairs(n: YNode): void {
  const c = n.content;
  const out: YNode[] = [];
  for (let i = c.length - 2; i >= 0; i -= 2) out.push(c[i], c[i + 1]);
  n.content = out;
}

const reverseKeys: Edit = (doc) => walk(doc, (n) => n.kind === Kind.Mapping && reversePairs(n));

/** Rotates keys: the first goes last (a function that writes one field after the others). */
const rotateKeys: Edit = (doc) =>
  walk(doc, (n) => {
    if (n.kind === Kind.Mapping && n.content.length >= 4)
      n.content = [...n.content.slice(2), ...n.content.slice(0, 2)];
  });

const reverseItems: Edit = (doc) => walk(doc, (n) => n.kind === Kind.Sequence && n.content.reverse());

/** Every plain or quoted string value gets a new text (keys keep theirs). */
const replaceScalars: Edit = (doc) =>
  walk(doc, (n) => {
    if (n.kind !== Kind.Mapping && n.kind !== Kind.Sequence) return;
    const step = n.kind === Kind.Mapping ? 2 : 1;
    for (let i = step - 1; i < n.content.length; i += step) {
      const v = n.content[i];
      if (v.kind === Kind.Scalar && v.tag === "!!str" && (v.style & ~6) === 0) v.value = `${v.value}z`;
    }
  });

/** Every map gets a new field at its end, the root a new map (a generator's or mutator's additions). */
const addFields: Edit = (doc) =>
  walk(doc, (n) => {
    if (n.kind !== Kind.Mapping) return;
    n.content.push(scalar("added"), scalar("7", resolvePlain("7")));
  });

/** Every second field of every map goes. */
const removeFields: Edit = (doc) =>
  walk(doc, (n) => {
    if (n.kind === Kind.Mapping) n.content = n.content.filter((_, i) => i % 4 < 2);
  });

const EDITS: Record<string, Edit> = {
  none: () => {},
  "drop comments": dropComments,
  "reverse keys": reverseKeys,
  "rotate keys": rotateKeys,
  "reverse list items": reverseItems,
  "replace scalars": replaceScalars,
  "add fields": addFields,
  "remove fields": removeFields,
  // What an exec function's output looks like: comments gone, fields in its own order, values set.
  "exec-like": (doc) => {
    dropComments(doc);
    reverseKeys(doc);
    replaceScalars(doc);
    addFields(doc);
  },
  "drop comments, rotate, remove": (doc) => {
    dropComments(doc);
    rotateKeys(doc);
    removeFields(doc);
  },
  "drop comments, reverse items": (doc) => {
    dropComments(doc);
    reverseItems(doc);
  },
};

/** The Document path: the input's shape, the output converted, copied into, synced, written. */
function documentPath(input: YNode, output: YNode, seqIndent: SeqIndent): string {
  const shape = documentShape(nodeToDocument(input));
  const doc = nodeToDocument(output);
  copyComments(shape, doc);
  syncFieldOrder(shape, doc);
  return writeDocument(doc, seqIndent === "compact");
}

interface Mismatch {
  where: string;
  edit: string;
  expected: string;
  actual: string;
}

/** Compares both paths for one document under every edit; returns the mismatches. */
function compare(where: string, input: YNode, seqIndent: SeqIndent, edits = EDITS): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [name, edit] of Object.entries(edits)) {
    const edited = cloneNode(input);
    edit(edited);
    const expected = documentPath(input, edited, seqIndent);
    // In place: the shape is taken, then the function edits the input itself.
    const inPlace = cloneNode(input);
    const taken = takeNodeShape(inPlace);
    edit(inPlace);
    restoreNodeShape(taken, inPlace);
    const actual = printDocument(inPlace, seqIndent);
    if (actual !== expected) out.push({ where, edit: name, expected, actual });
    // Kept input: the input node is the shape.
    const kept = cloneNode(edited);
    restoreFromNode(input, kept);
    const fromNode = printDocument(kept, seqIndent);
    if (fromNode !== expected) out.push({ where, edit: `${name} (from node)`, expected, actual: fromNode });
  }
  return out;
}

describe("CopyComments and SyncOrder on nodes, against the Document forms", () => {
  for (const [name, text] of Object.entries(FIXTURES)) {
    it(`gives the same bytes: ${name}`, () => {
      const docs = readYamlStream(text);
      expect(docs.length).toBeGreaterThan(0);
      const mismatches = docs.flatMap((d, i) => compare(`${name}#${i}`, d.node, d.seqIndent));
      expect(mismatches).toEqual([]);
    });
  }

  it("restores comments and order a function dropped", () => {
    const [input] = readYamlStream(FIXTURES["lists of maps with names"]);
    const out = cloneNode(input.node);
    EDITS["exec-like"](out);
    restoreFromNode(input.node, out);
    const text = printDocument(out, input.seqIndent);
    // Items are matched by name: the renamed ones get no comments back, the others do.
    expect(text).toContain("# the main container\n        - name: mainz\n");
    expect(text).toContain("volumes: [] # none");
    expect(text.indexOf("apiVersion:")).toBe(0);
    expect(text.trimEnd().endsWith("added: 7")).toBe(true);
  });

  it("reorders a comment-free document's own nodes (nothing rebuilt)", () => {
    const [input] = readYamlStream(FIXTURES["plain deployment"]);
    const out = cloneNode(input.node);
    reverseKeys(out);
    const spec = out.content[0].content[1];
    restoreNodeShape(takeNodeShape(input.node), out);
    expect(out.content[0].content[7]).toBe(spec);
    expect(printDocument(out, input.seqIndent)).toBe(FIXTURES["plain deployment"]);
  });

  it("does not modify the input it takes the shape of", () => {
    for (const text of Object.values(FIXTURES)) {
      for (const d of readYamlStream(text)) {
        const before = printDocument(d.node, d.seqIndent);
        const out = cloneNode(d.node);
        dropComments(out);
        reverseKeys(out);
        restoreFromNode(d.node, out);
        expect(printDocument(d.node, d.seqIndent)).toBe(before);
      }
    }
  });
});

const roots = ["conformance", "real-packages"].map((d) => path.join(sharedDir, d));
/** Fewer edits over the ~3,000 shared documents (each edit is two renders of every document). */
const SHARED_EDITS: Record<string, Edit> = {
  none: EDITS.none,
  "reverse keys": reverseKeys,
  "exec-like": EDITS["exec-like"],
  "drop comments, rotate, remove": EDITS["drop comments, rotate, remove"],
  "drop comments, reverse items": EDITS["drop comments, reverse items"],
};

const shared = providedByCi("node-restore differential over ../shared", roots.every(existsSync));

describe.skipIf(!shared)("CopyComments and SyncOrder on nodes, every document of ../shared", () => {
  it("gives the Document forms' bytes under every edit", () => {
    const files = roots.flatMap((r) => yamlFiles(r));
    expect(files.length).toBeGreaterThan(1000);
    let documents = 0;
    const mismatches: Mismatch[] = [];
    for (const file of files) {
      let docs: ReturnType<typeof readYamlStream>;
      try {
        docs = readYamlStream(readFileSync(file, "utf8"));
      } catch {
        continue; // Invalid YAML (a case testing the error).
      }
      for (const d of docs) {
        documents++;
        mismatches.push(
          ...compare(`${path.relative(sharedDir, file)}#${d.index}`, d.node, d.seqIndent, SHARED_EDITS),
        );
      }
    }
    expect(documents).toBeGreaterThan(2000);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(mismatches.length).toBe(0);
  }, 300_000);
});
