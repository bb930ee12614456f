/**
 * The README's PackageVariant and PackageVariantSet examples, exactly as written, committed to
 * `org/deployments` and reconciled (in memory) against a blueprint `org/blueprints` `base/v2`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "../../helpers/built-cli.js";
import { upstreamHarness } from "../support/upstream-harness.js";

/** The ```yaml blocks of the README section `heading` (up to the next `###` heading). */
function yamlBlocks(heading: string): string[] {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section ${heading}`);
  const end = readme.indexOf("\n### ", start + heading.length + 2);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
}

describe("README: PackageVariant and PackageVariantSet", () => {
  it("the examples run as written", async () => {
    const [variant, set] = yamlBlocks("### PackageVariant and PackageVariantSet");
    expect(variant).toContain("kind: PackageVariant\n");
    expect(set).toContain("kind: PackageVariantSet\n");
    const h = upstreamHarness();
    const blueprints = h.inst.add("org/blueprints", {
      "base/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\n",
      "base/settings.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  annotations:\n    kpt.dev/config-injection: optional\ndata:\n  tier: default\n",
    });
    blueprints.tags.set("base/v1", blueprints.heads.get("main")!);
    blueprints.tags.set(
      "base/v2",
      blueprints.push({ branch: "main", changes: { "base/README.md": "v2\n" } }).after,
    );
    const deployments = h.inst.add("org/deployments", {
      "package-variants/east.yaml": variant,
      "package-variants/edge.yaml": set,
      "package-variant-injectors/east-settings.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: east-settings\ndata:\n  tier: payments\n",
    });
    await h.drain(h.job("org/deployments", { type: "index" }));

    const heads = [...deployments.heads.keys()].filter((b) => b !== "main").sort();
    expect(heads).toEqual([
      "drafts/east/app/variant-east",
      "drafts/edge/east/variant-edge-east",
      "drafts/edge/west/variant-edge-west",
    ]);
    const east = deployments.heads.get("drafts/east/app/variant-east")!;
    const kptfile = parse(deployments.read(east, "east/app/Kptfile")!);
    expect(kptfile.upstreamLock.git.ref).toBe("base/v2");
    expect(kptfile.metadata.labels).toEqual({ team: "payments" });
    expect(kptfile.metadata.annotations["porchlight.dev/package-variant"]).toBe("east");
    expect(kptfile.pipeline.mutators.map((f: { name: string }) => f.name)).toEqual([
      "PackageVariant.east.labels.0",
    ]);
    expect(parse(deployments.read(east, "east/app/package-context.yaml")!).data.region).toBe("us-east1");
    expect(parse(deployments.read(east, "east/app/settings.yaml")!).data.tier).toBe("payments");
    const west = deployments.heads.get("drafts/edge/west/variant-edge-west")!;
    expect(parse(deployments.read(west, "edge/west/package-context.yaml")!).data).toEqual({
      name: "west",
      "package-path": "edge/west",
      site: "west",
    });
    const [status] = deployments.checkRuns.filter((r) => r.name === "porchlight/package-variants");
    expect(status.conclusion).toBe("success");
    expect([...deployments.pulls.values()].filter((p) => p.state === "open")).toHaveLength(3);
  });
});
