/**
 * Our YAML layer (src/yaml) against our own small fixtures: what yaml.v3 + kyaml read and write
 * (expected texts checked with kpt 1.0.0-beta.56, `kpt fn render` of a package holding the file).
 */
import { describe, expect, it } from "vitest";
import { parseYamlFile, renderFileText } from "../../src/krm/yaml-io.js";
import {
  Kind,
  mapGet,
  parseStream,
  printDocument,
  printYamlStream,
  readYamlStream,
  Style,
  YamlError,
} from "../../src/yaml/index.js";

const roundTrip = (text: string) => printYamlStream(readYamlStream(text));

describe("reader and writer, kpt's bytes", () => {
  it("keeps comments after a document's last node at column 0", () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: {x: "1"}\n# ---\n# kind: Role\n';
    expect(roundTrip(text)).toBe(text);
  });

  it("indents a trailing comment block before a dedent to the deepest preceding key", () => {
    const text =
      "spec:\n  containers:\n  - name: c\n    resources:\n      limits:\n        cpu: 1\n      # livenessProbe:\n      #   x: 1\n  restartPolicy: Always\n";
    expect(roundTrip(text)).toBe(
      "spec:\n  containers:\n  - name: c\n    resources:\n      limits:\n        cpu: 1\n        # livenessProbe:\n        #   x: 1\n  restartPolicy: Always\n",
    );
  });

  it("reads CRLF input, keeping a key line's comment on the key line, and writes LF", () => {
    const text = "kind: ConfigMap\r\nmetadata: # kpt-merge: /x\r\n  name: x\r\ndata:\r\n  a: b # c\r\n";
    expect(roundTrip(text)).toBe(
      "kind: ConfigMap\nmetadata: # kpt-merge: /x\n  name: x\ndata:\n  a: b # c\n",
    );
  });

  it("writes a null value followed by a blank line and comments as kpt does", () => {
    const text = "containers:\n- name: c\n  resources:\n\n# a comment\n# another\n  image: x\n";
    expect(roundTrip(text)).toBe(
      "containers:\n- name: c\n  resources:\n  # a comment\n  # another\n  image: x\n",
    );
  });

  it("keeps a flow sequence with a comment inside in flow layout, and blank lines inside comment blocks", () => {
    const text =
      'c:\n- name: c\n  command: ["/bin/sh", "-c",\n  # c\n  "sleep 5"]\n  # one\n\n  # two\n  image: x\n';
    expect(roundTrip(text)).toBe(
      'c:\n- name: c\n  command: ["/bin/sh", "-c",\n    # c\n    "sleep 5"]\n  # one\n\n  # two\n  image: x\n',
    );
  });

  it("keeps a key's line comment pending before a flow value, as yaml.v3 does (kpt writes it after a later scalar)", () => {
    const text = "a: # c\n  {}\nz: # e\n  []\nw: # f\n  [x, y]\nv: # g\n  {k: v}\nu: 1\n";
    expect(roundTrip(text)).toBe("a: {}\nz: []\nw: [x, y]\nv: {k: v}\nu: 1 # g\n");
  });

  it("reads duplicate mapping keys (both kept, the last one found by lookups)", () => {
    const [doc] = readYamlStream('data:\n  a: "1"\n  a: "2"\n');
    expect(printDocument(doc.node)).toBe('data:\n  a: "1"\n  a: "2"\n');
    const data = mapGet(doc.node.content[0], "data")!;
    expect(mapGet(data, "a")?.value).toBe("2");
  });

  it("reads a double-quoted scalar continued at its key's indentation", () => {
    expect(roundTrip('data:\n  msg: "hello\n  world"\n')).toBe('data:\n  msg: "hello world"\n');
  });

  it("adds nothing to a document without metadata", () => {
    const text = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- a.yaml\n";
    expect(roundTrip(text)).toBe(text);
  });

  it("keeps a licence header above the first --- (set apart by a blank line)", () => {
    expect(roundTrip("# Copyright\n# Licence\n---\na: 1\n")).toBe("# Copyright\n# Licence\n\na: 1\n");
  });

  it("follows each document's own sequence indentation and joins documents with ---", () => {
    const text = "a:\n  - x\n---\nb:\n- y\n---\n";
    expect(roundTrip(text)).toBe("a:\n  - x\n---\nb:\n- y\n");
  });

  it("normalizes as yaml.v3 writes: blank lines between nodes dropped, folded plain scalars joined", () => {
    expect(roundTrip("a: 1\n\n\nb: some\n  folded text   \nc:    'x'\n")).toBe(
      "a: 1\nb: some folded text\nc: 'x'\n",
    );
  });

  it("writes block scalars with yaml.v3's chomping and indentation hints", () => {
    expect(
      roundTrip("a: |\n  x\n  y\nb: |-\n  z\nc: |+\n  k\n\nd: >\n  folded\n  text\ne: |2\n   lead\n"),
    ).toBe(
      // yaml.v3 writes a folded block on one line and, looking for more breaks at the wrong place, adds a blank line.
      "a: |\n  x\n  y\nb: |-\n  z\nc: |+\n  k\n\nd: >\n  folded text\n\ne: |2\n   lead\n",
    );
    // A block ending the file without a line break has none (yaml.v3 reads it so: |-).
    expect(roundTrip("a: |\n  x")).toBe("a: |-\n  x\n");
  });

  it("keeps anchors, aliases, tags and document markers' meaning", () => {
    const text = "base: &b\n  x: 1\nuse: *b\nbin: !!binary aGk=\ncustom: !Thing {a: 1}\n";
    expect(roundTrip(text)).toBe(text);
    const [doc] = parseStream(text);
    const use = mapGet(doc.content[0], "use")!;
    expect(use.kind).toBe(Kind.Alias);
    expect(use.alias).toBe(mapGet(doc.content[0], "base"));
    expect(mapGet(doc.content[0], "custom")!.style & Style.Tagged).toBeTruthy();
  });

  it("quotes as yaml.v3 does and escapes what it cannot print", () => {
    const text = 'a: \'it\'\'s\'\nb: "tab\\there"\nc: "\\x01"\nd: "é ü"\n';
    expect(roundTrip(text)).toBe('a: \'it\'\'s\'\nb: "tab\\there"\nc: "\\x01"\nd: "é ü"\n');
  });

  it("escapes 4-byte characters as yaml.v3 does (not in its printable set; checked with kpt)", () => {
    expect(roundTrip('data:\n  a: "x😀"\n  b: y😀\n')).toBe(
      'data:\n  a: "x\\U0001F600"\n  b: "y\\U0001F600"\n',
    );
  });

  it("gives nodes 1-based source positions", () => {
    const [doc] = parseStream("a:\n  b: c\n");
    const b = doc.content[0].content[1].content[0];
    expect([b.line, b.column]).toEqual([2, 3]);
  });

  it("skips empty documents and indexes the rest", () => {
    const docs = readYamlStream("---\n---\na: 1\n---\n# only a comment\n---\nb: 2\n");
    expect(docs.map((d) => d.index)).toEqual([0, 1]);
  });

  it("reports bad YAML in yaml.v3's words", () => {
    expect(() => parseStream("a: b: c\n")).toThrow(YamlError);
    expect(() => parseStream("a: b: c\n")).toThrow(/mapping values are not allowed in this context/);
    expect(() => parseStream("a: [1, 2\n")).toThrow(/did not find expected ',' or ']'/);
  });
});

describe("the engine's reading and writing through our layer (src/krm/yaml-io.ts)", () => {
  const file = (text: string) => {
    const parsed = parseYamlFile("r.yaml", text);
    return renderFileText({
      path: "r.yaml",
      docs: parsed.docs.map((d) => ({ doc: d.doc, origin: d, originFile: parsed })),
    });
  };

  it("reads a file with a duplicate mapping key and one with a double-quoted scalar at its key's indent", () => {
    expect(file('kind: A\ndata:\n  a: "1"\n  a: "2"\n')).toBe('kind: A\ndata:\n  a: "1"\n  a: "2"\n');
    expect(file('kind: A\ndata:\n  msg: "hello\n  world"\n')).toBe('kind: A\ndata:\n  msg: "hello world"\n');
  });

  it("keeps a comment at column 0 before --- below the document, without a blank line (kyaml splits documents)", () => {
    const text = "kind: A\nspec:\n  c:\n    y: 1\n    # inner end\n  # outer end\n# doc end\n---\nkind: B\n";
    expect(file(text)).toBe(text);
  });

  it("writes a CRLF file's key-line comment on its key line", () => {
    expect(file("kind: A\r\nmetadata: # kpt-merge: /x\r\n  name: x\r\n")).toBe(
      "kind: A\nmetadata: # kpt-merge: /x\n  name: x\n",
    );
  });

  it("reads into Documents a function can edit, written back with the edit only", () => {
    const parsed = parseYamlFile(
      "r.yaml",
      "kind: A # k\nmetadata:\n  # n\n  name: x\nlist:\n- a\n- b # two\n",
    );
    const doc = parsed.docs[0].doc;
    doc.setIn(["metadata", "namespace"], "prod");
    expect(
      renderFileText({ path: "r.yaml", docs: [{ doc, origin: parsed.docs[0], originFile: parsed }] }),
    ).toBe("kind: A # k\nmetadata:\n  # n\n  name: x\n  namespace: prod\nlist:\n- a\n- b # two\n");
  });
});
