/**
 * A step's `configPath` during a render (kpt's `refreshFnConfig`): the function gets the package's
 * resource at that path as earlier steps left it; when an earlier step moved it elsewhere, the file as
 * read from the package (what kpt's runner read before the pipeline ran) — never no functionConfig.
 */
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { createBuiltinRuntime } from "../../src/runtimes/builtin/registry.js";
import type { FunctionRunRequest, FunctionRuntime } from "../../src/runtimes/runtime.js";
import { fileText, loadFixture, withFile } from "./helpers.js";

/** The builtin runtime, recording the functionConfig each step got. */
function recording(): { runtime: FunctionRuntime; configs: Array<Record<string, unknown> | undefined> } {
  const builtin = createBuiltinRuntime();
  const configs: Array<Record<string, unknown> | undefined> = [];
  const runtime: FunctionRuntime = {
    name: "recording",
    run(request: FunctionRunRequest) {
      configs.push(request.input.functionConfig?.toJSON() as Record<string, unknown> | undefined);
      return builtin.run(request);
    },
  };
  return { runtime, configs };
}

describe("configPath of a file an earlier step moved", () => {
  it("gives the step the file as read from the package (kpt's fallback)", async () => {
    const files = await loadFixture("fnconfig-moved");
    const { runtime, configs } = recording();
    const result = await renderPackage({ files, runtime, packageName: "fnconfig-moved" });
    expect(result.ok, result.error).toBe(true);
    // The starlark step moved the ConfigMap to moved/labels.yaml and rewrote its owner.
    expect(fileText(result.files, "config/labels.yaml")).toBeUndefined();
    expect(fileText(result.files, "moved/labels.yaml")).toContain("owner: rewritten");
    // set-labels still got config/labels.yaml as it is in the package.
    expect(configs[1]).toMatchObject({ kind: "ConfigMap", data: { owner: "platform" } });
    expect(fileText(result.files, "service.yaml")).toContain("  labels:\n    owner: platform\n");
  });

  it("gives the step the rewritten resource when it stayed at its path", async () => {
    const base = await loadFixture("fnconfig-moved");
    const move = fileText(base, "move-config.yaml")!;
    const files = withFile(
      base,
      "move-config.yaml",
      move.replace(/^ {6}r\["metadata"\]\["annotations"\].*\n/m, ""),
    );
    const { runtime, configs } = recording();
    const result = await renderPackage({ files, runtime, packageName: "fnconfig-moved" });
    expect(result.ok, result.error).toBe(true);
    expect(configs[1]).toMatchObject({ data: { owner: "rewritten" } });
    expect(fileText(result.files, "service.yaml")).toContain("    owner: rewritten\n");
  });

  it("falls back for validators too", async () => {
    const base = await loadFixture("fnconfig-moved");
    const kptfile = `${fileText(base, "Kptfile")!}  validators:\n    - image: ghcr.io/kptdev/krm-functions-catalog/kubeval:v0.3\n      configPath: config/labels.yaml\n`;
    const { runtime, configs } = recording();
    const result = await renderPackage({
      files: withFile(base, "Kptfile", kptfile),
      runtime,
      packageName: "fnconfig-moved",
    });
    expect(configs).toHaveLength(3);
    expect(configs[2]).toMatchObject({ metadata: { name: "labels" }, data: { owner: "platform" } });
    expect(result.status.renderStatus?.validationSteps).toHaveLength(1);
  });
});
