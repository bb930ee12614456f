import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { testRuntime } from "./helpers.js";

const encoder = new TextEncoder();
const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n";
const LABEL_STEP = "pipeline:\n  mutators:\n    - image: test/add-label\n      configMap:\n        team: a\n";
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n";

async function render(kptfile: string, files: Record<string, Uint8Array>) {
  const result = await renderPackage({
    files: new Map([["Kptfile", encoder.encode(kptfile)], ...Object.entries(files)]),
    runtime: testRuntime(),
    packageName: "pkg",
  });
  expect(result.ok).toBe(true);
  return result.files!;
}

describe("resource files a render writes as they were read", () => {
  it("keep their bytes; a file the render reformats or a function changes gets new ones", async () => {
    const files = await render(KPTFILE, {
      "same.yaml": encoder.encode(CM),
      "reformatted.yaml": encoder.encode("apiVersion:   v1\nkind: ConfigMap\nmetadata: {name: r}\n"),
    });
    expect(Buffer.from(files.get("same.yaml")!).toString()).toBe(CM);
    expect(Buffer.from(files.get("reformatted.yaml")!).toString()).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\n",
    );
    const labelled = await render(KPTFILE + LABEL_STEP, { "same.yaml": encoder.encode(CM) });
    expect(Buffer.from(labelled.get("same.yaml")!).toString()).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    team: a\ndata:\n  k: v\n",
    );
  });

  it("lose a byte-order mark, as kpt writes them, even when the text is unchanged", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(CM)]);
    const files = await render(KPTFILE, { "bom.yaml": bom });
    expect([...files.get("bom.yaml")!.slice(0, 3)]).toEqual([...encoder.encode("api")]);
    expect(Buffer.from(files.get("bom.yaml")!).toString()).toBe(CM);
  });
});
