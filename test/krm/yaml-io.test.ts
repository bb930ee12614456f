import { describe, expect, it } from "vitest";
import { isMap } from "yaml";
import { YamlSyntaxError } from "../../src/krm/yaml-errors.js";
import {
  deriveSeqIndentStyle,
  parseYamlFile,
  renderFileText,
  serializeChanged,
} from "../../src/krm/yaml-io.js";

describe("YAML files", () => {
  it("derives kyaml's sequence indent style", () => {
    expect(deriveSeqIndentStyle("a:\n- x\n")).toBe("compact");
    expect(deriveSeqIndentStyle("a:\n  - x\n")).toBe("wide");
    expect(deriveSeqIndentStyle("a: b\n")).toBe("compact");
  });

  it("reads every document of a multi-document file with its index", () => {
    const file = parseYamlFile("r.yaml", "a: 1\n---\nb: 2\n---\n# only a comment\n");
    expect(file.docs.map((d) => d.index)).toEqual([0, 1]);
    expect(file.docs[1].doc.get("b")).toBe(2);
  });

  it("writes every document as kyaml does, changed or not (checked against kpt fn render)", () => {
    const text = [
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x:   1   # odd\n\n",
      "  long: this is a long\n    folded plain scalar\n  lit: |\n    line one \n    line two\n",
      "  ok: |\n    fine\n    text\n  trail: |\n    ends with space \n---\n",
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  list:\n  - a\n  y:   keep\n",
    ].join("");
    const file = parseYamlFile("a.yaml", text);
    const docs = () => file.docs.map((d) => ({ doc: d.doc, origin: d, originFile: file }));
    const kpt = [
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: 1 # odd\n",
      '  long: this is a long folded plain scalar\n  lit: "line one \\nline two\\n"\n',
      '  ok: |\n    fine\n    text\n  trail: "ends with space \\n"\n---\n',
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  list:\n  - a\n  y: keep\n",
    ].join("");
    expect(renderFileText({ path: "a.yaml", docs: docs() })).toBe(kpt);
    // Already in kyaml's form: byte for byte.
    const again = parseYamlFile("a.yaml", kpt);
    expect(
      renderFileText({
        path: "a.yaml",
        docs: again.docs.map((d) => ({ doc: d.doc, origin: d, originFile: again })),
      }),
    ).toBe(kpt);
  });

  it("keeps a comment written after a nested block at its own level (checked against kpt fn render)", () => {
    const head = "apiVersion: v1\nkind: X\nmetadata:\n  name: a\nspec:\n";
    const text = [
      `${head}  a:\n    x: 1\n    # inner\n  # outer1\n\n  # outer2\n  b: 2\n`,
      "  c:\n    y: 1\n    # inner end\n  # outer end\n# doc end\n---\n",
      `${head}  a:\n    x:\n      z: 1\n      # in3\n    # in2\n\n  # in1\n`,
      "  l:\n  - q: 1\n    # l-in\n  # l-out\n  m: 1\n",
    ].join("");
    const file = parseYamlFile("x.yaml", text);
    const docs = file.docs.map((d) => ({ doc: d.doc, origin: d, originFile: file }));
    // As kpt writes it: every line at its level; the blank line where a comment changes level goes.
    expect(renderFileText({ path: "x.yaml", docs })).toBe(text.replace("# in2\n\n", "# in2\n"));
  });

  it("keeps the blank line that sets a document's foot comment apart, adds none (checked against kpt fn render)", () => {
    const head = "apiVersion: v1\nkind: X\nmetadata:\n  name: a\n";
    for (const foot of [
      "spec:\n  b: 1\n\n# foot\n",
      "spec:\n  b: 1\n# foot\n",
      "spec: 1\n\n# foot\n",
      "spec:\n  b: 1\n  # x\n\n# foot\n",
      "spec:\n  b: 1\n# foot\n\n# foot2\n",
    ]) {
      const file = parseYamlFile("x.yaml", head + foot);
      const docs = file.docs.map((d) => ({ doc: d.doc, origin: d, originFile: file }));
      expect(renderFileText({ path: "x.yaml", docs })).toBe(head + foot);
    }
  });

  it("reads a block scalar that ends the file without a line break as yaml.v3 does (checked against kpt fn render)", () => {
    const head = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: |\n    one\n    two";
    for (const [text, written] of [
      [head, `${head.replace("x: |", "x: |-")}\n`],
      [`${head}\n`, `${head}\n`],
      [`${head}\n  y: |\n    three`, `${head}\n  y: |-\n    three\n`],
    ]) {
      const file = parseYamlFile("a.yaml", text);
      const docs = file.docs.map((d) => ({ doc: d.doc, origin: d, originFile: file }));
      expect(renderFileText({ path: "a.yaml", docs })).toBe(written);
    }
  });

  it("keeps a comment on a `key:` line whose value is a block mapping", () => {
    const file = parseYamlFile("r.yaml", "metadata: # kpt-merge: ns/name\n  name: a\n");
    const doc = file.docs[0].doc;
    const meta = doc.get("metadata", true);
    if (isMap(meta)) meta.set("namespace", "b");
    expect(serializeChanged(doc, "compact")).toBe(
      "metadata: # kpt-merge: ns/name\n  name: a\n  namespace: b\n",
    );
  });

  it("drops blank lines in changed documents, as Go's yaml.v3 does", () => {
    const file = parseYamlFile("r.yaml", "a: 1\n\nb: 2\n");
    file.docs[0].doc.set("c", 3);
    expect(serializeChanged(file.docs[0].doc, "compact")).toBe("a: 1\nb: 2\nc: 3\n");
  });

  it("names the file and line of bad YAML", () => {
    let err: unknown;
    try {
      parseYamlFile("bad.yaml", "a: 1\nb: c: d\n");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(YamlSyntaxError);
    expect((err as YamlSyntaxError).file).toBe("bad.yaml");
    expect((err as YamlSyntaxError).line).toBe(2);
    expect((err as YamlSyntaxError).message).toMatch(/^bad\.yaml: yaml: line 2: /);
  });
});

describe("changed documents, written like Go's yaml.v3", () => {
  it("keeps scalar source text, unpadded flow collections and a trailing comment without blank line", () => {
    const file = parseYamlFile(
      "r.yaml",
      "a: 010\nb: 1e3\nc: 0x1F\nd: True\ne: {x: 1, y: [p, q]}\nf: >\n  folded\n  text\n# foot\n",
    );
    file.docs[0].doc.set("g", 2);
    expect(serializeChanged(file.docs[0].doc, "compact")).toBe(
      'a: 010\nb: 1e3\nc: 0x1F\nd: True\ne: {x: 1, y: [p, q]}\nf: "folded text\\n"\ng: 2\n# foot\n',
    );
  });

  it("prints a changed number as its new value, not its old text", () => {
    const file = parseYamlFile("r.yaml", "replicas: 03\n");
    file.docs[0].doc.set("replicas", 4);
    expect(serializeChanged(file.docs[0].doc, "compact")).toBe("replicas: 4\n");
  });
});
