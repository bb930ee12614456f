import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kindOf, readChunks, runTestFile } from "../../src/starlark/testing.js";
import { repoRoot } from "../helpers/built-cli.js";

// Our own chunked test files, in go.starlark.net's format (test/fixtures/starlark).
const fixtures = path.join(repoRoot, "test/fixtures/starlark");

function files(sub: string): string[] {
  const dir = path.join(fixtures, sub);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".star"))
    .map((f) => path.join(dir, f));
}

describe("Starlark fixtures", () => {
  const all = [...files("eval"), ...files("syntax/testdata"), ...files("resolve/testdata")];
  it.each(all.map((f) => [path.relative(fixtures, f), f]))("%s passes every chunk", (_name, file) => {
    const results = runTestFile(file, readFileSync(file, "latin1"));
    expect(results.length).toBeGreaterThan(0);
    expect(results.flatMap((r) => r.problems)).toEqual([]);
  });

  it("chooses the harness by directory as upstream's tests do", () => {
    expect(kindOf("x/syntax/testdata/a.star")).toBe("parse");
    expect(kindOf("x/resolve/testdata/a.star")).toBe("resolve");
    expect(kindOf("x/starlark/testdata/a.star")).toBe("eval");
  });

  it("reports wrong, unexpected and missing errors and failed assertions", () => {
    const text = [
      'load("assert.star", "assert")',
      "assert.eq(1, 2)",
      "---",
      'x = 1 // 0 ### "wrong message"',
      "---",
      'x = 1 ### "expected but absent"',
      "---",
      "y = 1 // 0",
      "---",
      'z = 1 // 0 ### "division by zero"',
    ].join("\n");
    const results = runTestFile("neg/testdata/neg.star", text, "eval");
    expect(results.map((r) => r.ok)).toEqual([false, false, false, false, true]);
    expect(results[0]!.problems[0]).toMatch(/assertion failed: .*1 != 2/);
    expect(results[1]!.problems[0]).toMatch(
      /line 4: error "floored division by zero" does not match pattern/,
    );
    expect(results[2]!.problems[0]).toMatch(/line 6: expected error matching "expected but absent"/);
    expect(results[3]!.problems[0]).toMatch(/line 8: unexpected error: floored division by zero/);
  });

  it("numbers chunk lines as in the file and reads option: flags and Go-quoted patterns", () => {
    const { chunks } = readChunks('a\n---\nb ### `x\\d`\n---\nc ### "y\\\\+"\n');
    expect(chunks.map((c) => c.line)).toEqual([1, 3, 5]);
    expect(chunks[1]!.source).toBe("\n\nb ### `x\\d`");
    expect(chunks[1]!.wantErrs.get(3)!.pattern).toBe("x\\d");
    expect(chunks[2]!.wantErrs.get(5)!.pattern).toBe("y\\+");
  });
});
