import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCaseFile } from "../../src/rego/testing.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";

// microsoft/regorus's interpreter cases (../shared/rego/regorus-cases), the files regorus runs by default.
const corpus = path.join(sharedDir, "rego", "regorus-cases");
const available = providedByCi("the regorus cases", existsSync(corpus), `${corpus} is absent`);
if (!available) {
  if (process.env.CI === "true")
    throw new Error(`rego corpus ${corpus} is absent (CI=true: .ci/run provides ../shared)`);
  console.warn(`rego corpus skipped: ${corpus} is absent`);
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (name.endsWith(".yaml")) out.push(p);
  }
  return out;
}

describe.skipIf(!available)("regorus interpreter cases (../shared/rego/regorus-cases)", () => {
  it("passes at least 95% of the 603 cases regorus runs by default", () => {
    const files = yamlFiles(corpus)
      .map((f) => path.relative(corpus, f))
      .filter((f) => !f.startsWith("target/") && !f.startsWith("rego-extensions/"));
    expect(files).toHaveLength(103);
    let passed = 0;
    const failures: string[] = [];
    for (const f of files) {
      for (const r of runCaseFile(f, readFileSync(path.join(corpus, f), "utf8"))) {
        if (r.status === "passed") passed++;
        else if (r.status === "failed") failures.push(`${f}: ${r.note}: ${(r.problem ?? "").slice(0, 200)}`);
      }
    }
    console.log(
      `regorus cases: ${passed} passed, ${failures.length} failed${failures.map((x) => `\n  ${x}`).join("")}`,
    );
    expect(passed + failures.length).toBe(603);
    expect(passed).toBeGreaterThanOrEqual(576);
  });
});
