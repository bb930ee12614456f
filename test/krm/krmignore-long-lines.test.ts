import { describe, expect, it } from "vitest";
import { evaluateFunction } from "../../src/engine/eval.js";
import { renderPackage } from "../../src/engine/render.js";
import { KrmignoreError, parseKrmignore } from "../../src/krm/krmignore.js";
import { loadFixture, testRuntime, withFile } from "../engine/helpers.js";

const huge = "x".repeat(100_000);

describe(".krmignore lines too long for the matcher", () => {
  it("is a KrmignoreError naming the file and the line (any pattern form, negated too)", () => {
    for (const line of [huge, `!${huge}`, "?".repeat(100_000), "a*".repeat(50_000)]) {
      let thrown: unknown;
      try {
        parseKrmignore(`.expected\n# ok\n${line}\n`, "db/.krmignore");
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(KrmignoreError);
      expect((thrown as KrmignoreError).message).toMatch(
        /^db\/\.krmignore line 3: pattern of \d+ characters is too long/,
      );
      expect((thrown as KrmignoreError).line).toBe(3);
    }
  });

  it("takes long lines the matcher can compile (trailing spaces are trimmed, comments skipped)", () => {
    const m = parseKrmignore(`a${" ".repeat(100_000)}\n# ${huge}\nb${"c".repeat(5_000)}\n`);
    expect(m.ignores("a", false)).toBe(true);
    expect(m.ignores(`b${"c".repeat(5_000)}`, false)).toBe(true);
    expect(m.ignores("b", false)).toBe(false);
  });

  it("fails a render with a clear error naming the .krmignore (no crash), leaving files untouched", async () => {
    const files = withFile(await loadFixture("app"), "db/.krmignore", `.expected\n${huge}\n`);
    const result = await renderPackage({ files, runtime: testRuntime(), packageName: "app" });
    expect(result.ok).toBe(false);
    expect(result.files).toBeUndefined();
    expect(result.error).toMatch(
      /^pkg\.render: pkg \.: db\/\.krmignore line 2: pattern of 100000 characters is too long/,
    );
    expect(result.cliError).toMatch(/^Error: db\/\.krmignore line 2: /);
  });

  it("fails fn eval with the same error", async () => {
    const files = withFile(await loadFixture("app"), ".krmignore", huge);
    const result = await evaluateFunction({
      files,
      packageName: "app",
      fn: { image: "test/add-label" },
      label: "test/add-label",
      runtime: testRuntime(),
      cwd: process.cwd(),
    });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^\.krmignore line 1: pattern of 100000 characters is too long/);
  });
});
