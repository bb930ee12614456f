import { describe, expect, it } from "vitest";
import { Document } from "yaml";
import { renderPackage } from "../../src/engine/render.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import type { FunctionRuntime } from "../../src/runtimes/runtime.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();

/** A package whose set-annotations step sets the path annotation to `target` on every resource. */
function movingPackage(target: string, extra: Record<string, string> = {}): Map<string, Uint8Array> {
  const files: Record<string, string> = {
    Kptfile: [
      "apiVersion: kpt.dev/v1",
      "kind: Kptfile",
      "metadata:",
      "  name: mover",
      "pipeline:",
      "  mutators:",
      "    - image: set-annotations:latest",
      "      configMap:",
      `        config.kubernetes.io/path: ${target}`,
      "      selectors:",
      "        - kind: ConfigMap",
      "",
    ].join("\n"),
    "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n",
    ...extra,
  };
  return new Map(Object.entries(files).map(([k, v]) => [k, encoder.encode(v)]));
}

async function render(files: Map<string, Uint8Array>) {
  return renderPackage({ files, runtime: createDefaultRuntime({ allowExec: false }), packageName: "mover" });
}

describe("path invariants on a function's output (kpt's enforcePathInvariants)", () => {
  it("fails the step when a resource is moved outside the package, and stores nothing outside", async () => {
    const result = await render(movingPackage("../escaped.yaml"));
    expect(result.ok).toBe(false);
    const message =
      "function must not modify resources outside of package: resource has path ../escaped.yaml";
    expect(result.cliError).toBe(message);
    expect(result.error).toBe(`pkg.render: pkg .:\n\tpipeline.run: ${message}`);
    const step = result.status.renderStatus?.mutationSteps?.[0];
    expect(step).toEqual({
      image: "ghcr.io/kptdev/krm-functions-catalog/set-annotations:latest",
      exitCode: 1,
      executionError: message,
    });
    expect(result.status.renderStatus?.errorSummary).toBe(
      `ghcr.io/kptdev/krm-functions-catalog/set-annotations:latest: ${message}`,
    );
    expect([...(result.files?.keys() ?? [])].sort()).toEqual(["Kptfile", "cm.yaml"]);
    expect(fileText(result.files, "cm.yaml")).not.toContain("escaped");
  });

  it("rejects nested escapes, takes an absolute path from the package root, accepts a path that stays inside", async () => {
    expect((await render(movingPackage("a/b/../../../x.yaml"))).cliError).toContain(
      "resource has path a/b/../../../x.yaml",
    );
    // kyaml writes `filepath.Join(pkg, path)`: `/etc/x.yaml` and `/../x.yaml` stay in the package.
    const absolute = await render(movingPackage("/etc/x.yaml"));
    expect(absolute.ok).toBe(true);
    expect([...absolute.files!.keys()].sort()).toEqual(["Kptfile", "etc/x.yaml"]);
    const clamped = await render(movingPackage("/../x.yaml"));
    expect([...clamped.files!.keys()].sort()).toEqual(["Kptfile", "x.yaml"]);
    expect((await render(movingPackage(".git/hooks/x.yaml"))).cliError).toContain(
      "resource has path .git/hooks/x.yaml",
    );
    const inside = await render(movingPackage("a/../moved.yaml"));
    expect(inside.ok).toBe(true);
    expect([...inside.files!.keys()].sort()).toEqual(["Kptfile", "moved.yaml"]);
  });

  it("refuses a path that names a directory of the package", async () => {
    const result = await render(movingPackage("d", { "d/other.txt": "x\n" }));
    expect(result.ok).toBe(false);
    expect(result.cliError).toBe("config.kubernetes.io/path cannot be a directory: d");
    expect(fileText(result.files, "d/other.txt")).toBe("x\n");
  });

  it("refuses a path below a file of the package", async () => {
    const result = await render(movingPackage("notes.txt/cm.yaml", { "notes.txt": "x\n" }));
    expect(result.ok).toBe(false);
    expect(result.cliError).toContain("config.kubernetes.io/path cannot be below a file: notes.txt/cm.yaml");
  });
});

describe("a generated resource without a path", () => {
  it("cannot leave the package through its namespace (kyaml's default <namespace>/<kind>_<name>.yaml)", async () => {
    const generator: FunctionRuntime = {
      name: "generator",
      async run(request) {
        const made = new Document({
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "made", namespace: "../.." },
        });
        return { exitCode: 0, stderr: "", output: { items: [...request.input.items, made], results: [] } };
      },
    };
    const files = new Map([
      [
        "Kptfile",
        encoder.encode(
          "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: g\npipeline:\n  mutators:\n    - image: gen:v1\n",
        ),
      ],
    ]);
    const result = await renderPackage({ files, runtime: generator, packageName: "g" });
    expect(result.ok).toBe(false);
    expect(result.cliError).toBe(
      "function must not modify resources outside of package: resource has path ../../configmap_made.yaml",
    );
  });
});
