import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runTestFile } from "../../src/starlark/testing.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";

// go.starlark.net's own language tests (../shared/starlark-go-testdata), run as upstream does.
const corpus = path.join(sharedDir, "starlark-go-testdata");
const available = providedByCi(
  "the go.starlark.net corpus",
  existsSync(path.join(corpus, "starlark", "testdata")),
  `${path.join(corpus, "starlark", "testdata")} is absent`,
);
if (!available) console.warn(`starlark corpus skipped: ${corpus} is absent`);

// Upstream's TestExecFile does not run these (proto needs descriptors; the others are a benchmark and paths).
const EXCLUDED = new Set(["proto.star", "benchmark.star", "paths.star"]);

function starFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".star"))
    .sort()
    .map((f) => path.join(dir, f));
}

function run(files: string[]) {
  let passed = 0;
  const failures: string[] = [];
  for (const file of files) {
    for (const r of runTestFile(file, readFileSync(file, "latin1"))) {
      if (r.ok) passed++;
      else failures.push(`${path.relative(corpus, file)}:${r.line}: ${r.problems.join("; ")}`);
    }
  }
  return { passed, failed: failures.length, failures };
}

describe.skipIf(!available)("go.starlark.net test corpus (../shared/starlark-go-testdata)", () => {
  it("passes at least 95% of the chunks of the executed files", () => {
    const files = starFiles(path.join(corpus, "starlark", "testdata"))
      .filter((f) => !EXCLUDED.has(path.basename(f)))
      .concat(starFiles(path.join(corpus, "starlarkstruct", "testdata")));
    expect(files.length).toBeGreaterThan(10);
    const { passed, failed, failures } = run(files);
    console.log(
      `starlark eval corpus: ${passed} passed, ${failed} failed${failures.map((f) => `\n  ${f}`).join("")}`,
    );
    expect(passed / (passed + failed)).toBeGreaterThanOrEqual(0.95);
  });

  it("passes every chunk of the parse and resolve files", () => {
    const files = starFiles(path.join(corpus, "syntax", "testdata")).concat(
      starFiles(path.join(corpus, "resolve", "testdata")),
    );
    expect(files.length).toBeGreaterThanOrEqual(3);
    const { passed, failures } = run(files);
    expect(failures).toEqual([]);
    expect(passed).toBeGreaterThan(90);
  });
});
