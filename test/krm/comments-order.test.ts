// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { copyComments } from "../../src/krm/comments.js";
import { syncFieldOrder } from "../../src/krm/field-order.js";
import { parseYamlFile } from "../../src/krm/yaml-io.js";
import { parseResourceList, serializeResourceList } from "../../src/runtimes/exec/wire.js";

const opts = { indentSeq: true, lineWidth: 0 } as const;

describe("kyaml's CopyComments", () => {
  it("copies a comment once, however often it runs, and never onto a line that has one", () => {
    const text = "spec:\n  rrdatas: # kpt-set: ${records}\n    - a # first\n  ttl: 300 # kpt-set: ${ttl}\n";
    const input = parseYamlFile("r.yaml", text).docs[0].doc;
    const output = parseResourceList(serializeResourceList({ items: [input.clone()], results: [] })).items[0];
    copyComments(input, output);
    copyComments(input, output);
    expect(output.toString(opts)).toBe(text);
  });

  it("gives a changed map value its comment back, but a changed list item none", () => {
    const input = parseDocument("a: 1 # set by x\nl:\n  - p # keep\n  - q # gone\n");
    const output = parseDocument("a: 2\nl:\n  - p\n  - r\n");
    copyComments(input, output);
    expect(output.toString(opts)).toBe("a: 2 # set by x\nl:\n  - p # keep\n  - r\n");
  });
});

describe("kyaml's SyncOrder", () => {
  it("puts fields back in the input's order, new fields last, list items by position", () => {
    const input = parseDocument("b: 1\na:\n  y: 1\n  x: 2\nl:\n  - n: 1\n    m: 2\n");
    const output = parseDocument("a:\n  x: 2\n  z: 3\n  y: 1\nc: new\nl:\n  - m: 2\n    n: 1\nb: 1\n");
    syncFieldOrder(input, output);
    expect(output.toString(opts)).toBe("b: 1\na:\n  y: 1\n  x: 2\n  z: 3\nl:\n  - n: 1\n    m: 2\nc: new\n");
    expect(input.toString(opts)).toBe("b: 1\na:\n  y: 1\n  x: 2\nl:\n  - n: 1\n    m: 2\n");
  });
});
