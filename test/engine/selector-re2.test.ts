import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { fileText, testRuntime } from "./helpers.js";

const encoder = new TextEncoder();
const KPTFILE = (regexp: string) =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n    - image: test/add-label\n      configMap:\n        team: a\n      selectors:\n        - resourceFileRegexp: '${regexp}'\n`;
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n";

async function render(regexp: string, fileName: string) {
  return renderPackage({
    files: new Map([
      ["Kptfile", encoder.encode(KPTFILE(regexp))],
      [fileName, encoder.encode(CM)],
    ]),
    runtime: testRuntime(),
    packageName: "pkg",
  });
}

describe("resourceFileRegexp is Go's regexp (RE2), as in kpt", () => {
  it("takes RE2 syntax JavaScript lacks (named group (?P<x>), \\pL)", async () => {
    const result = await render("^(?P<dir>\\pL+)/cm\\.yaml$", "apps/cm.yaml");
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "apps/cm.yaml")).toContain("team: a");
  });

  it("matches a catastrophic pattern against a long file path in linear time", async () => {
    const name = `${"a".repeat(3000)}!.yaml`;
    const result = await render("^(a+)+$", name);
    expect(result.ok).toBe(true);
    expect(fileText(result.files, name)).not.toContain("team: a");
  });

  it("refuses a backreference (RE2 has none) naming the field", async () => {
    const result = await render("(a)\\1", "cm.yaml");
    expect(result.ok).toBe(false);
    expect(result.error).toContain("resourceFileRegexp");
    expect(result.error).toContain("invalid escape sequence");
  });
});

describe("CEL matches() in a step's `when` is RE2, as in cel-go", () => {
  it("takes RE2 syntax, answers a catastrophic pattern in linear time, refuses what RE2 refuses", async () => {
    const { evaluateWhen, WhenConditionError } = await import("../../src/engine/when-condition.js");
    const resources = [{ kind: "ConfigMap", metadata: { name: `${"a".repeat(50_000)}!` } }];
    expect(evaluateWhen("resources.exists(r, r.metadata.name.matches('^(a+)+$'))", resources)).toBe(false);
    expect(evaluateWhen("resources.exists(r, r.kind.matches('^(?P<k>Config)\\\\pL+$'))", resources)).toBe(
      true,
    );
    expect(() => evaluateWhen("resources.exists(r, r.kind.matches('(a)\\\\1'))", resources)).toThrow(
      WhenConditionError,
    );
  });
});
