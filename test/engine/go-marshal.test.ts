import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goMarshal, marshalWithDocument } from "../../src/kptfile/go-marshal.js";

const text = fc.oneof(
  fc.constantFrom(
    "",
    "a",
    "true",
    "0",
    "1.5",
    "~",
    "null",
    "- x",
    "a: b",
    "#c",
    "x #y",
    "'q'",
    '"d"',
    "é",
    "y",
  ),
  fc.constantFrom("line\nbreak", "trailing ", " lead", "tab\there", "multi\nline\n", "\u2028", "😀", "a\\b"),
  fc.string({ maxLength: 6 }),
  // Printable ASCII rich in what decides a style (written without the reference).
  fc.string({
    unit: fc.constantFrom(..." :#-?'\"\\{}[],&*!|>%@`~.+_0123456789aeEflnNoOrstTuxyY"),
    maxLength: 8,
  }),
);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const key = fc.oneof(
  fc.constantFrom("message", "path", "index", "true", "1", "a b", "k: v", "-", ""),
  fc.string({ maxLength: 4 }),
);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("list"), tie("map")),
  list: fc.array(tie("tree"), { maxLength: 3 }),
  map: fc.dictionary(key, tie("tree"), { maxKeys: 4 }),
}));

describe("goMarshal", () => {
  it("writes what the yaml package writes for the same data", () => {
    fc.assert(
      fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 4 }), (data) => {
        expect(goMarshal(data)).toBe(marshalWithDocument(data));
      }),
      { numRuns: 2000 },
    );
  });

  it("writes a status of many results directly, as the yaml package would", () => {
    const results = Array.from({ length: 50 }, (_, i) => ({
      message: `set field value to "${i}"`,
      severity: "info",
      field: { path: "spec.replicas" },
      file: { path: `apps/a-${i}.yaml`, index: i },
    }));
    const data = {
      apiVersion: "kpt.dev/v1",
      kind: "Kptfile",
      info: { description: "two\nlines\n" },
      status: { renderStatus: { mutationSteps: [{ image: "x", exitCode: 0, results }] } },
    };
    expect(goMarshal(data)).toBe(marshalWithDocument(data));
  });

  it("writes thousands of pieces in order, and gives up on a long field without leaving any of it", () => {
    const results = () =>
      Array.from({ length: 1500 }, (_, i) => ({ message: `set ${i}`, file: { path: `f-${i % 7}.yaml` } }));
    const data = {
      first: { results: results() },
      // Direct writing fails only at its last value (two lines): thousands of pieces were written.
      second: { results: results(), last: "two\nlines" },
      third: "end",
    };
    const text = goMarshal(data);
    expect(text).toBe(marshalWithDocument(data));
    expect(text.match(/set 1499\n/g)).toHaveLength(2);
  });

  it("writes an object reached twice as the yaml package does (anchor and alias)", () => {
    const shared = { a: "1" };
    const data = { x: shared, y: [shared] };
    expect(goMarshal(data)).toBe(marshalWithDocument(data));
  });
});

describe("goMarshal's scalar texts", () => {
  it("tells -0 from 0", () => {
    expect(goMarshal({ a: -0 })).toBe(marshalWithDocument({ a: -0 }));
    expect(goMarshal({ a: 0 })).toBe("a: 0\n");
  });
});
