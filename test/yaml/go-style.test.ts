import { describe, expect, it } from "vitest";
import { Document, Scalar } from "yaml";
import { serializeChanged } from "../../src/krm/yaml-io.js";
import { goDoubleQuoted, goStringStyle } from "../../src/yaml/go-style.js";

describe("Go yaml.v3 string styles", () => {
  it("double-quotes strings that would read back as another type", () => {
    for (const text of [
      "True",
      "false",
      "yes",
      "on",
      "0",
      "1.5",
      "~",
      "null",
      "",
      "0x1F",
      "1e3",
      "08",
      "0_9",
      "-019",
      "1_0.5",
    ]) {
      expect(goStringStyle(text), text).toBe(Scalar.QUOTE_DOUBLE);
    }
  });

  it("single-quotes strings plain YAML cannot hold", () => {
    for (const text of [
      'set annotations: {"a":"b"}',
      "`FunctionConfig` is not given",
      "- x",
      "#x",
      "a #b",
      "x:",
    ]) {
      expect(goStringStyle(text), text).toBe(Scalar.QUOTE_SINGLE);
    }
  });

  it("keeps ordinary strings plain", () => {
    for (const text of ['namespace [default] updated to "db", 1 value(s) changed', "nginx:1.2.3", "a-b_c"]) {
      expect(goStringStyle(text), text).toBe(Scalar.PLAIN);
    }
  });

  it("writes multi-line text as a literal block unless a line ends with a space", () => {
    expect(goStringStyle("pkg.render: pkg .:\n\tpipeline.run: x")).toBe(Scalar.BLOCK_LITERAL);
    expect(goStringStyle("a \nb")).toBe(Scalar.QUOTE_DOUBLE);
    expect(goStringStyle("colour \u001b[31m")).toBe(Scalar.QUOTE_DOUBLE);
  });
});

describe("Go yaml.v3 double-quoted strings", () => {
  it("stay on one line with breaks and non-printable characters escaped, spaces kept", () => {
    expect(goDoubleQuoted('a "b"\\ \n  c\t\n')).toBe('"a \\"b\\"\\\\ \\n  c\\t\\n"');
    expect(goDoubleQuoted("\u0000\u0007\u001b\u007f\u0085\u00a0\u2028\ufeff\u{1F600}é")).toBe(
      '"\\0\\a\\e\\x7F\\N\u00a0\\L\\uFEFF\\U0001F600é"',
    );
  });

  it("are how a changed document writes a string set to double quotes", () => {
    const doc = new Document({});
    const text = new Scalar("line one  \n    \nline three\n");
    text.type = Scalar.QUOTE_DOUBLE;
    (doc.contents as { set(k: string, v: unknown): void }).set("data", text);
    expect(serializeChanged(doc, "compact")).toBe('data: "line one  \\n    \\nline three\\n"\n');
  });
});
