import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import {
  goBool,
  goFloat,
  goFormatFloat,
  goInt,
  goString,
  resolvePlain,
} from "../../../src/runtimes/builtin/go-values.js";

describe("typed reads as the catalog's Go SDK makes them", () => {
  const doc = parseDocument(`s: text
quoted: "80"
n: 80
hex: 0x10
f: 1.0
half: .5
b: true
sb: "true"
tagged: !!str 5
nested: {deep: x}
`);

  it("reads a string only from a !!str node, an int only from a decimal !!int", () => {
    expect(goString(doc, ["s"])).toBe("text");
    expect(goString(doc, ["quoted"])).toBe("80");
    expect(goString(doc, ["n"])).toBeUndefined();
    expect(goString(doc, ["tagged"])).toBe("5");
    expect(goString(doc, ["s", "under"])).toBeUndefined();
    expect(goString(doc, ["nested", "deep"])).toBe("x");
    expect(goInt(doc, ["n"])).toBe(80);
    expect(goInt(doc, ["quoted"])).toBeUndefined();
    expect(goInt(doc, ["hex"])).toBeUndefined();
    expect(goInt(doc, ["f"])).toBeUndefined();
    expect(goFloat(doc, ["f"])).toBe(1);
    expect(goFloat(doc, ["half"])).toBe(0.5);
    expect(goFloat(doc, ["n"])).toBeUndefined();
  });

  it("reads a bool only from a !!bool node", () => {
    expect(goBool(doc, ["b"])).toEqual({ found: true, value: true });
    expect(goBool(doc, ["sb"])).toEqual({ found: true, value: false });
    expect(goBool(doc, ["missing"])).toEqual({ found: false, value: false });
  });

  it("resolves plain scalars as yaml.v3 does", () => {
    expect(
      [
        "~",
        "null",
        "true",
        "False",
        "1_000",
        "0o17",
        "-0x1F",
        "1e3",
        ".inf",
        "2024-01-02",
        "yes",
        "1.2.3",
      ].map(resolvePlain),
    ).toEqual([
      "!!null",
      "!!null",
      "!!bool",
      "!!bool",
      "!!int",
      "!!int",
      "!!int",
      "!!float",
      "!!float",
      "!!timestamp",
      "!!str",
      "!!str",
    ]);
  });

  it("prints floats as Go's %v does", () => {
    expect([0, 0.5, 30, 0.04, 123456, 1234567, 1e6, 0.0001, 0.00001, -2.5, 1e21].map(goFormatFloat)).toEqual([
      "0",
      "0.5",
      "30",
      "0.04",
      "123456",
      "1.234567e+06",
      "1e+06",
      "0.0001",
      "1e-05",
      "-2.5",
      "1e+21",
    ]);
  });
});
