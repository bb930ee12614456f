import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { fileText, loadFixture, testRuntime, withFile } from "./helpers.js";

async function renderFailing(
  pushOnFailure?: "None" | "Unrendered" | "PartiallyRendered",
  files?: Map<string, Uint8Array>,
) {
  const input = files ?? (await loadFixture("failing"));
  const result = await renderPackage({
    files: input,
    runtime: testRuntime(),
    packageName: "failing",
    pushOnFailure,
  });
  return { input, result };
}

describe("a failing pipeline", () => {
  it("records kpt's status: failed step, error chain, errorSummary", async () => {
    const { result } = await renderFailing();
    expect(result.ok).toBe(false);
    expect(result.error).toBe("pkg.render: pkg .:\n\tpipeline.run: already handled error");
    const kptfile = fileText(result.files, "Kptfile")!;
    expect(kptfile).toContain(
      [
        "      - image: test/fail:v1",
        "        stderr: |",
        "          boom",
        "        exitCode: 1",
        "        results:",
        "          - message: it failed",
        "            severity: error",
        "        errorResults:",
        "          - message: it failed",
        "            severity: error",
        "    errorSummary: 'test/fail:v1: exit code 1'",
      ].join("\n"),
    );
    expect(kptfile).toContain(
      "      message: |-\n        pkg.render: pkg .:\n        \tpipeline.run: already handled error\n",
    );
  });

  it("None stores nothing", async () => {
    const { result } = await renderFailing("None");
    expect(result.files).toBeUndefined();
    expect(result.status.conditions[0].reason).toBe("RenderFailed");
  });

  it("Unrendered (default) stores the resources as given plus the Kptfile status", async () => {
    const { input, result } = await renderFailing();
    expect(fileText(result.files, "resources.yaml")).toBe(fileText(input, "resources.yaml"));
    expect(fileText(result.files, "Kptfile")).toContain('status: "False"');
  });

  it("PartiallyRendered stores the output of the steps that succeeded", async () => {
    const { result } = await renderFailing("PartiallyRendered");
    expect(fileText(result.files, "resources.yaml")).toContain("labels:\n    tier: web");
    expect(fileText(result.files, "Kptfile")).toContain("reason: RenderFailed");
  });

  it('kpt.dev/save-on-render-failure: "true" selects PartiallyRendered', async () => {
    const base = await loadFixture("failing");
    const kptfile = fileText(base, "Kptfile")!.replace(
      "  name: failing\n",
      '  name: failing\n  annotations:\n    kpt.dev/save-on-render-failure: "true"\n',
    );
    const { result } = await renderFailing(undefined, withFile(base, "Kptfile", kptfile));
    expect(fileText(result.files, "resources.yaml")).toContain("tier: web");
  });

  it("an unknown function fails its step with a message naming the image", async () => {
    const base = await loadFixture("fnconfig");
    const kptfile = fileText(base, "Kptfile")!.replace("test/add-label:v1", "example.com/unknown-fn:v2");
    const { result } = await renderFailing(undefined, withFile(base, "Kptfile", kptfile));
    expect(result.ok).toBe(false);
    expect(result.steps[0].status.executionError).toContain('"example.com/unknown-fn:v2"');
    expect(result.error).toContain("pipeline.run: no function runtime can run image");
  });

  it("a subpackage failure names the subpackage, passed up unwrapped as kpt 1.0 does", async () => {
    const base = await loadFixture("app");
    const files = withFile(
      base,
      "db/Kptfile",
      fileText(base, "db/Kptfile")!.replace("test/add-label:v1", "test/fail:v1"),
    );
    const result = await renderPackage({ files, runtime: testRuntime(), packageName: "app" });
    expect(result.error).toBe("pkg.render: pkg ./db:\n\tpipeline.run: already handled error");
  });
});

describe("a misbehaving runtime", () => {
  it("turns a throwing runtime into a failed step instead of crashing", async () => {
    const files = await loadFixture("fnconfig");
    const result = await renderPackage({
      files,
      packageName: "fnconfig",
      runtime: {
        name: "broken",
        run: async () => {
          throw new Error("kaboom");
        },
      },
    });
    expect(result.ok).toBe(false);
    expect(result.steps[0].status.executionError).toBe('function "test/add-label:v1" failed: kaboom');
    expect(fileText(result.files, "Kptfile")).toContain("errorSummary: 'test/add-label:v1: function");
  });
});
