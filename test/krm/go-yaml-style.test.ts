import { describe, expect, it } from "vitest";
import { Scalar } from "yaml";
import { goStringStyle } from "../../src/krm/go-yaml-style.js";

describe("Go yaml.v3 string styles", () => {
  it("double-quotes strings that would read back as another type", () => {
    for (const text of ["True", "false", "yes", "on", "0", "1.5", "~", "null", "", "0x1F", "1e3"]) {
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
