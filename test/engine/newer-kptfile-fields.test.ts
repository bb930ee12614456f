import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { evaluateWhen, WhenConditionError } from "../../src/engine/when-condition.js";
import { fileText, testRuntime } from "./helpers.js";

const encoder = new TextEncoder();
const HEAD = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n";
const CM = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

function pkg(kptfile: string, resources: Record<string, string>): Map<string, Uint8Array> {
  const files = new Map([["Kptfile", encoder.encode(kptfile)]]);
  for (const [rel, text] of Object.entries(resources)) files.set(rel, encoder.encode(text));
  return files;
}

describe("selector resourceFileRegexp", () => {
  it("selects and excludes resources by the path of their file", async () => {
    const kptfile = `${HEAD}    - image: test/add-label\n      configMap:\n        team: a\n      selectors:\n        - resourceFileRegexp: "apps/.*"\n      exclude:\n        - resourceFileRegexp: "apps/old.*"\n`;
    const result = await renderPackage({
      files: pkg(kptfile, {
        "apps/web.yaml": CM("web"),
        "apps/old.yaml": CM("old"),
        "other.yaml": CM("other"),
      }),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "apps/web.yaml")).toContain("team: a");
    expect(fileText(result.files, "apps/old.yaml")).not.toContain("team: a");
    expect(fileText(result.files, "other.yaml")).not.toContain("team: a");
    // The Kptfile is written back with the field (kpt's Go marshalling drops the needless quotes).
    expect(fileText(result.files, "Kptfile")).toContain("- resourceFileRegexp: apps/.*\n");
  });
});

describe("selector resourceFileRegexp validation", () => {
  it("refuses a regexp that does not compile, naming the Kptfile field", async () => {
    const kptfile = `${HEAD}    - image: test/add-label\n      configMap:\n        team: a\n      exclude:\n        - resourceFileRegexp: "a("\n`;
    const result = await renderPackage({
      files: pkg(kptfile, { "cm.yaml": CM("cm") }),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(false);
    expect(result.error).toContain("pipeline.mutators[0].exclude[0].resourceFileRegexp");
    expect(fileText(result.files, "cm.yaml") ?? "").not.toContain("team: a");
  });
});

describe("step `when` condition", () => {
  it("runs a step whose condition holds and skips one whose condition is false", async () => {
    const kptfile =
      `${HEAD}    - image: test/add-label\n      configMap:\n        a: x\n      when: resources.exists(r, r.kind == 'ConfigMap')\n` +
      `    - image: test/add-label\n      configMap:\n        b: y\n      when: resources.exists(r, r.kind == 'Secret')\n`;
    const events: string[] = [];
    const result = await renderPackage({
      files: pkg(kptfile, { "cm.yaml": CM("cm") }),
      runtime: testRuntime(),
      packageName: "pkg",
      onEvent: (e) => {
        if (e.type === "step-end") events.push(e.step.status.skipped ? "skipped" : "ran");
      },
    });
    expect(result.ok).toBe(true);
    expect(events).toEqual(["ran", "skipped"]);
    const cm = fileText(result.files, "cm.yaml") ?? "";
    expect(cm).toContain("a: x");
    expect(cm).not.toContain("b: y");
    const written = fileText(result.files, "Kptfile") ?? "";
    expect(written).toContain(
      "      - image: test/add-label:latest\n        exitCode: 0\n        when: resources.exists(r, r.kind == 'Secret')\n        skipped: true\n",
    );
  });

  it("fails the render with a message naming the expression when it cannot be evaluated", async () => {
    const kptfile = `${HEAD}    - image: test/add-label\n      configMap:\n        a: x\n      when: resources.exists(r, r.kind ==\n`;
    const result = await renderPackage({
      files: pkg(kptfile, { "cm.yaml": CM("cm") }),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(false);
    expect(result.error).toContain("invalid when condition");
  });
});

describe("evaluateWhen (CEL subset)", () => {
  const resources = [
    { kind: "ConfigMap", metadata: { name: "a", labels: { app: "web" } } },
    { kind: "Deployment", metadata: { name: "b" }, spec: { replicas: 3 } },
  ];
  it.each([
    ["resources.exists(r, r.kind == 'ConfigMap' && r.metadata.name == 'a')", true],
    ["resources.exists(r, r.kind == 'ConfigMap' && r.metadata.name == 'b')", false],
    ["resources.all(r, has(r.metadata.name))", true],
    ["resources.filter(r, r.kind == 'Deployment').size() == 1", true],
    ["size(resources) > 1 || false", true],
    ["resources.exists(r, r.spec.replicas >= 3)", true],
    ["resources.exists(r, 'app' in r.metadata.labels && r.metadata.labels['app'].startsWith('we'))", true],
    ['!resources.exists_one(r, r.kind == "Secret")', true],
    ["resources.map(r, r.metadata.name) == ['a', 'b']", true],
    ["resources.exists(r, r.kind.lowerAscii() == 'configmap')", true],
    ["resources.exists(r, int(r.spec.replicas) + 1 == 4 && string(r.spec.replicas) == '3')", true],
  ])("%s -> %s", (expr, expected) => {
    expect(evaluateWhen(expr, resources)).toBe(expected);
  });
  it("rejects expressions that are not bools or use unknown functions", () => {
    expect(() => evaluateWhen("size(resources)", resources)).toThrow(WhenConditionError);
    expect(() => evaluateWhen("resources.frobnicate()", resources)).toThrow(WhenConditionError);
  });
});
