// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
/**
 * kpt 1.0's usage attribution: `kpt fn render` records `krm-fn` in the
 * `cnrm.cloud.google.com/blueprint` annotation of every Config Connector resource it stores.
 */
import { describe, expect, it } from "vitest";
import { recordAction } from "../../src/engine/attribution.js";
import { renderPackage } from "../../src/engine/render.js";
import { createBuiltinRuntime } from "../../src/runtimes/builtin/registry.js";
import { fileText, loadFixture, withFile } from "./helpers.js";

describe("recordAction (kpt 1.0)", () => {
  it.each([
    ["", "fn", "krm-fn"],
    ["cnrm/landing-zone:networking/v0.4.2", "fn", "cnrm/landing-zone:networking/v0.4.2,krm-fn"],
    ["cnrm/x/v1,krm-pkg,blueprints_controller", "fn", "cnrm/x/v1,krm-pkg-fn,blueprints_controller"],
    ["krm-fn-live", "fn", "krm-fn-live"],
    ["krm-live", "pkg", "krm-pkg-live"],
    ["kpt-pkg-fn-live", "fn", "kpt-pkg-fn-live,krm-fn"],
  ])("%j after %s -> %j", (current, group, expected) => {
    expect(recordAction(current, group)).toBe(expected);
  });
});

describe("render attribution", () => {
  it("records krm-fn on Config Connector resources only, and a second render changes nothing", async () => {
    const files = await loadFixture("cnrm");
    const runtime = createBuiltinRuntime();
    const first = await renderPackage({ files, runtime, packageName: "cnrm" });
    expect(first.ok, first.error).toBe(true);
    const text = fileText(first.files, "resources.yaml") ?? "";
    // As kpt writes it: the annotations map kpt's reader added stays where it was, before the labels.
    expect(text).toContain(
      "  name: vpc\n  annotations:\n    cnrm.cloud.google.com/blueprint: 'krm-fn'\n  labels:\n    team: net\n",
    );
    expect(text).toContain(
      "    cnrm.cloud.google.com/blueprint: cnrm/landing-zone:networking/v0.4.2,krm-fn\n    cnrm.cloud.google.com/project-id: project-id # kpt-set: ${project-id}\n",
    );
    expect(text).toContain("    cnrm.cloud.google.com/blueprint: 'kpt-pkg-fn-live,krm-fn'\n");
    expect(text).not.toMatch(/name: not-cnrm\n(.*\n)*?.*blueprint/);
    const second = await renderPackage({ files: first.files!, runtime, packageName: "cnrm" });
    expect(fileText(second.files, "resources.yaml")).toBe(text);
  });

  it("leaves resources alone when attribution is off (KRM_DISABLE_ATTRIBUTION) or the render failed", async () => {
    const files = await loadFixture("cnrm");
    const off = await renderPackage({
      files,
      runtime: createBuiltinRuntime(),
      packageName: "cnrm",
      attribution: false,
    });
    expect(fileText(off.files, "resources.yaml")).not.toContain("krm-fn");
    const failing = withFile(
      files,
      "Kptfile",
      fileText(files, "Kptfile")!.replace("      configMap:\n        team: net\n", ""),
    );
    const failed = await renderPackage({
      files: failing,
      runtime: createBuiltinRuntime(),
      packageName: "cnrm",
    });
    expect(failed.ok).toBe(false);
    expect(fileText(failed.files, "resources.yaml")).toBe(fileText(files, "resources.yaml"));
  });
});
