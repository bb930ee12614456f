import { describe, expect, it } from "vitest";
import {
  outcomeAnnotations,
  overrideAnnotations,
  upgradeCheckOutput,
  upgradeNeedsReview,
  upgradePullBody,
} from "../../src/report/upgrade.js";

const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: side
          image: side:1
        - name: web
          image: nginx:1.27
`;

describe("upgrade reports", () => {
  it("puts a warning at the line of each overridden field, list elements found by their merge key", () => {
    const annotations = overrideAnnotations({
      packagePath: "east/app",
      text: (file) => (file === "east/app/deploy.yaml" ? text : undefined),
      overrides: [
        {
          file: "deploy.yaml",
          resource: { apiVersion: "apps/v1", kind: "Deployment", namespace: "", name: "web" },
          path: ["spec", "template", "spec", "containers", "[name=web]", "image"],
          kind: "changed",
          local: "nginx:local",
          upstream: "nginx:1.27",
          original: "nginx:1.25",
        },
      ],
    });
    expect(annotations).toEqual([
      {
        path: "east/app/deploy.yaml",
        start_line: 12,
        end_line: 12,
        annotation_level: "warning",
        title: "Local edit overridden by upstream",
        message:
          "deploy.yaml Deployment/web spec.template.spec.containers[name=web].image: your nginx:local becomes upstream's nginx:1.27 (was nginx:1.25)",
      },
    ]);
  });

  it("lists every resource-level outcome in the pull request and the check, kept-but-deleted-upstream flagged at its line", () => {
    const nsText =
      "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: old\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: new\n";
    const res = (kind: string, name: string) => ({ apiVersion: "v1", kind, namespace: "", name });
    const state = {
      package: "east",
      upstream: { repo: "acme/blueprints", package: "basens" },
      from: 1,
      to: 2,
      commit: "c2",
      overrides: [],
      outcomes: [
        { kind: "added-upstream" as const, file: "ns.yaml", resource: res("Namespace", "new") },
        { kind: "kept-changed" as const, file: "ns.yaml", resource: res("Namespace", "old") },
        { kind: "deleted-upstream" as const, file: "gone.yaml", resource: res("ConfigMap", "gone") },
        { kind: "added-locally" as const, file: "mine.yaml", resource: res("ConfigMap", "mine") },
      ],
    };
    expect(upgradeNeedsReview(state)).toBe(true);
    const body = upgradePullBody({
      state,
      strategy: "resource-merge",
      upstreamChanges: { added: [], modified: ["ns.yaml"], removed: ["gone.yaml"] },
    });
    expect(body).toContain("### Resources added and deleted");
    expect(body).toContain("`ns.yaml` Namespace/old: deleted upstream but **kept because you changed it**");
    expect(body).toContain("`ns.yaml` Namespace/new: added upstream");
    expect(body).toContain("`gone.yaml` ConfigMap/gone: deleted upstream, so removed here");
    expect(body).toContain("`mine.yaml` ConfigMap/mine: added by you, kept");
    const annotations = outcomeAnnotations({
      outcomes: state.outcomes,
      packagePath: "east",
      text: (file) => (file === "east/ns.yaml" ? nsText : undefined),
    });
    expect(annotations.map((a) => [a.path, a.start_line, a.annotation_level])).toEqual([
      ["east/ns.yaml", 9, "notice"],
      ["east/ns.yaml", 4, "warning"],
    ]);
    const check = upgradeCheckOutput(state, annotations);
    expect(check.title).toBe("Upgrade keeps every local edit; keeps 1 resource upstream deleted");
    expect(check.summary).toContain("Namespace/old: deleted upstream but **kept because you changed it**");
  });
});

describe("blast radius", () => {
  it("names the resources a publish would keep although upstream deletes them", async () => {
    const { blastRadiusOutput } = await import("../../src/report/blast-radius.js");
    const out = blastRadiusOutput([
      {
        upstreamPackage: "basens",
        downstream: "acme/deployments/east",
        revision: 1,
        overrides: [],
        outcomes: [
          {
            kind: "kept-changed",
            file: "ns.yaml",
            resource: { apiVersion: "v1", kind: "Namespace", namespace: "", name: "old" },
          },
        ],
      },
    ]);
    expect(out.summary).toContain("✅ keeps every local edit; ⚠️ keeps 1 resource upstream deletes");
    expect(out.summary).toContain("### Resources a publish would add or delete");
    expect(out.summary).toContain(
      "`ns.yaml` Namespace/old: deleted upstream but **kept because you changed it**",
    );
  });
});
