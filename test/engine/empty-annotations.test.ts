import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { fileText, testRuntime } from "./helpers.js";

const encoder = new TextEncoder();
const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n";
const LABEL_STEP = "pipeline:\n  mutators:\n    - image: test/add-label\n      configMap:\n        team: a\n";

function pkg(kptfile: string, resource: string): Map<string, Uint8Array> {
  return new Map([
    ["Kptfile", encoder.encode(kptfile)],
    ["sa.yaml", encoder.encode(resource)],
  ]);
}

describe("metadata.annotations across a render", () => {
  it("drops an empty or null `annotations` the user wrote, as kyaml's writer does (checked with kpt)", async () => {
    const resource =
      "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  annotations: {}\n  name: sa\n---\n" +
      "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sb\n  annotations:\n  labels: {}\n";
    const result = await renderPackage({
      files: pkg(KPTFILE, resource),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "sa.yaml")).toBe(
      "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n---\n" +
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sb\n  labels: {}\n",
    );
  });

  it("adds no annotations map to a resource that had none", async () => {
    const resource = "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n";
    const result = await renderPackage({
      files: pkg(KPTFILE + LABEL_STEP, resource),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "sa.yaml")).not.toContain("annotations");
    expect(fileText(result.files, "sa.yaml")).toContain("team: a");
  });
});
