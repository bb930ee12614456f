/**
 * kpt 1.0's Kptfile function fields and image resolution: a step's `name` is kept, `tag` replaces the
 * image's tag (an exact version or tag) or is a semver constraint (resolved against a registry by
 * kpt: porchlight records the image without a tag), the image prefix applies to short names, and
 * `:latest` is added to an image without a tag. Builtins run whatever the tag.
 */
import { describe, expect, it } from "vitest";
import { classifyTag, imagePrefixProblem, statusImage } from "../../src/engine/image.js";
import { renderPackage } from "../../src/engine/render.js";
import { createBuiltinRuntime } from "../../src/runtimes/builtin/registry.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n";

function pkg(step: string): Map<string, Uint8Array> {
  const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n${step}`;
  return new Map([
    ["Kptfile", encoder.encode(kptfile)],
    ["cm.yaml", encoder.encode(CM)],
  ]);
}

async function render(step: string, imagePrefix?: string) {
  return renderPackage({
    files: pkg(step),
    runtime: createBuiltinRuntime(),
    packageName: "pkg",
    imagePrefix,
  });
}

describe("image resolution (kpt 1.0)", () => {
  it.each([
    ["set-labels", undefined, undefined, "ghcr.io/kptdev/krm-functions-catalog/set-labels:latest"],
    ["set-labels:v0.1", "v0.2.1", undefined, "ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.1"],
    ["gcr.io/kpt-fn/set-labels:v0.1@sha256:ab", "unstable", undefined, "gcr.io/kpt-fn/set-labels:unstable"],
    ["set-labels:v0.1", "~0.2", undefined, "ghcr.io/kptdev/krm-functions-catalog/set-labels"],
    ["set-labels", undefined, "registry.example.com/fns/", "registry.example.com/fns/set-labels:latest"],
    ["set-labels", undefined, "", "set-labels:latest"],
  ])("%s tag=%s prefix=%s -> %s", (image, tag, prefix, expected) => {
    expect(statusImage(image, { tag, prefix })).toBe(expected);
  });

  it("reads a tag as kpt's Masterminds semver does, and refuses one that is not an image tag", () => {
    expect(classifyTag("v1.2")).toBe("version");
    expect(classifyTag("0.4.1 - 0.4.3")).toBe("constraint");
    expect(classifyTag(">= 1.2, < 2")).toBe("constraint");
    expect(classifyTag("unstable")).toBe("literal");
    expect(() => classifyTag("not a tag")).toThrow(/`function.tag` "not a tag" must be a valid image tag/);
  });

  it("refuses an image prefix with a scheme, as kpt does", () => {
    expect(imagePrefixProblem("https://r.example.com")).toMatch(/must not include a scheme/);
    expect(imagePrefixProblem("r.example.com/fns")).toBeUndefined();
  });
});

describe("Kptfile step name and tag", () => {
  it("runs the builtin whatever the tag, records the tagged image, and keeps name and tag in the Kptfile", async () => {
    const result = await render(
      "    - name: label-all\n      image: set-labels:v0.1\n      tag: v0.2.1\n      configMap:\n        team: a\n",
    );
    expect(result.ok, result.error).toBe(true);
    expect(fileText(result.files, "cm.yaml")).toContain("team: a");
    const kptfile = fileText(result.files, "Kptfile")!;
    expect(kptfile).toContain(
      "    - image: set-labels:v0.1\n      configMap:\n        team: a\n      name: label-all\n      tag: v0.2.1\n",
    );
    expect(kptfile).toContain("      - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.1\n");
  });

  it("records a constraint's image without a tag, and uses the image prefix for short names", async () => {
    const result = await render(
      "    - image: set-labels\n      tag: ~0.2\n      configMap:\n        team: a\n",
      "registry.example.com/fns",
    );
    expect(result.ok, result.error).toBe(true);
    expect(fileText(result.files, "Kptfile")).toContain(
      "      - image: registry.example.com/fns/set-labels\n",
    );
  });

  it("fails the pipeline on a tag that is no image tag, as kpt's runner does", async () => {
    const result = await render(
      "    - image: set-labels\n      tag: not a tag\n      configMap:\n        team: a\n",
    );
    expect(result.ok).toBe(false);
    expect(result.error).toBe(
      'pkg.render: pkg .:\n\tpipeline.run: `function.tag` "not a tag" must be a valid image tag: must start with an alphanumeric character or underscore, followed by at most 127 alphanumeric characters, underscores, periods, or dashes',
    );
  });
});
