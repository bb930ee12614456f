/**
 * kpt's package path during a render: functions see each resource's package in
 * `internal.config.kubernetes.io/package-path` (`.` for the root, else its path from the root), and an
 * output resource is written into the package that annotation names — so a generator in a parent
 * pipeline that copies its source's annotations puts the new file in the source's subpackage. The
 * annotation is never written to a file.
 */
import { describe, expect, it } from "vitest";
import { Document } from "yaml";
import { renderPackage } from "../../src/engine/render.js";
import { createBuiltinRuntime } from "../../src/runtimes/builtin/registry.js";
import type { FunctionRuntime } from "../../src/runtimes/runtime.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();
const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([k, v]) => [k, encoder.encode(v)]));

const kptfile = (name: string, image?: string) =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n${image ? `pipeline:\n  mutators:\n    - image: ${image}\n` : ""}`;

describe("package-path annotation (kpt render)", () => {
  it("tells functions each resource's package and places outputs in the package they name", async () => {
    const seen: Array<[string, string | undefined]> = [];
    // A generator: one ConfigMap per Source, carrying the source's annotations but its own file; and one
    // resource with no package-path at all.
    const runtime: FunctionRuntime = {
      name: "test",
      async run(request) {
        if (!request.fn.image?.includes("copy-gen")) return undefined;
        const items = [...request.input.items];
        for (const item of request.input.items) {
          const annotations =
            (item.getIn(["metadata", "annotations"]) as { toJSON(): Record<string, string> })?.toJSON() ?? {};
          seen.push([
            String(item.getIn(["metadata", "name"])),
            annotations["internal.config.kubernetes.io/package-path"],
          ]);
          if (item.get("kind") !== "Source") continue;
          const copied: Record<string, string> = {
            ...annotations,
            "internal.config.kubernetes.io/path": "gen.yaml",
          };
          delete copied["config.kubernetes.io/path"];
          delete copied["internal.config.kubernetes.io/index"];
          delete copied["config.kubernetes.io/index"];
          delete copied["config.k8s.io/id"];
          items.push(
            new Document({
              apiVersion: "v1",
              kind: "ConfigMap",
              metadata: { name: `from-${String(item.getIn(["metadata", "name"]))}`, annotations: copied },
            }),
          );
        }
        items.push(new Document({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "plain" } }));
        return { exitCode: 0, stderr: "", output: { items, results: [] } };
      },
    };
    const result = await renderPackage({
      files: files({
        Kptfile: kptfile("root", "test/copy-gen"),
        "top.yaml": "apiVersion: x/v1\nkind: Source\nmetadata:\n  name: top\n",
        "sub/Kptfile": kptfile("sub"),
        "sub/src.yaml": "apiVersion: x/v1\nkind: Source\nmetadata:\n  name: deep\n",
      }),
      runtime,
      packageName: "root",
    });
    expect(result.ok, result.error).toBe(true);
    expect(seen.sort()).toEqual([
      ["deep", "sub"],
      ["root", "."],
      ["sub", "sub"],
      ["top", "."],
    ]);
    expect(fileText(result.files, "gen.yaml")).toContain("name: from-top\n");
    expect(fileText(result.files, "sub/gen.yaml")).toContain("name: from-deep\n");
    expect(fileText(result.files, "configmap_plain.yaml")).toContain("name: plain\n");
    for (const [name, bytes] of result.files ?? []) {
      expect(new TextDecoder().decode(bytes), name).not.toContain("package-path");
    }
  });

  it("lets enable-gcp-services in the root pipeline regenerate a subpackage's services in that subpackage", async () => {
    const set = (name: string, project: string) =>
      `apiVersion: blueprints.cloud.google.com/v1alpha1\nkind: ProjectServiceSet\nmetadata:\n  name: ${name}\nspec:\n  services:\n    - compute.googleapis.com\n  projectID: ${project}\n`;
    const result = await renderPackage({
      files: files({
        Kptfile: kptfile("root", "gcr.io/kpt-fn/enable-gcp-services:unstable"),
        "services.yaml": set("root-set", "root"),
        "team/Kptfile": kptfile("team", "gcr.io/kpt-fn/enable-gcp-services:unstable"),
        "team/services.yaml": set("team-set", "team"),
      }),
      runtime: createBuiltinRuntime(),
      packageName: "root",
    });
    expect(result.ok, result.error).toBe(true);
    expect([...(result.files?.keys() ?? [])].filter((f) => f.includes("service_")).sort()).toEqual([
      "service_root-set-compute.yaml",
      "team/service_team-set-compute.yaml",
    ]);
    expect(fileText(result.files, "team/service_team-set-compute.yaml")).toContain("external: team\n");
  });
});
