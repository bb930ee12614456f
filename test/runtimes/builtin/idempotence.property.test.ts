import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { KrmResource } from "../../../src/krm/resource-list.js";
import type { BuiltinFunction } from "../../../src/runtimes/builtin/builtin-function.js";
import { setAnnotations } from "../../../src/runtimes/builtin/set-annotations.js";
import { setImage } from "../../../src/runtimes/builtin/set-image.js";
import { setLabels } from "../../../src/runtimes/builtin/set-labels.js";
import { setNamespace } from "../../../src/runtimes/builtin/set-namespace.js";
import { configMap, docs, dump } from "../helpers.js";

const name = fc.constantFrom("a", "web", "db-1", "x.y");
const resource = fc.record({
  kind: fc.constantFrom("ConfigMap", "Deployment", "Service", "StatefulSet", "Widget"),
  name,
  namespace: fc.option(fc.constantFrom("dev", "prod"), { nil: undefined }),
  withTemplate: fc.boolean(),
});

function toYaml(
  r: { kind: string; name: string; namespace?: string; withTemplate: boolean },
  i: number,
): string {
  const apiVersion =
    r.kind === "Widget" ? "x.io/v1" : ["ConfigMap", "Service"].includes(r.kind) ? "v1" : "apps/v1";
  const lines = [
    `# resource ${i}`,
    `apiVersion: ${apiVersion}`,
    `kind: ${r.kind}`,
    "metadata:",
    `  name: ${r.name}-${i} # c${i}`,
  ];
  if (r.namespace) lines.push(`  namespace: ${r.namespace}`);
  // Workloads always carry a pod template: without one, set-annotations creates
  // `spec.template.metadata.annotations` and a later set-labels then labels that template, so a
  // second render differs (the catalog functions behave the same; see the pinned test below).
  const workload = r.kind === "Deployment" || r.kind === "StatefulSet";
  if (workload || (r.withTemplate && r.kind !== "ConfigMap")) {
    lines.push(
      "spec:",
      "  template:",
      "    spec:",
      "      containers:",
      `        - name: c # inner${i}`,
      "          image: nginx:1.0",
    );
  }
  return `${lines.join("\n")}\n`;
}

type Step = { fn: BuiltinFunction; config: () => KrmResource };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc
    .constantFrom("ns-a", "ns-b")
    .map((ns) => ({ fn: setNamespace, config: () => configMap({ namespace: ns }) })),
  fc.constantFrom("blue", "green").map((v) => ({ fn: setLabels, config: () => configMap({ tier: v }) })),
  fc.constantFrom("x", "y").map((v) => ({ fn: setAnnotations, config: () => configMap({ owner: v }) })),
  fc
    .constantFrom("1.1", "2.0")
    .map((t) => ({ fn: setImage, config: () => configMap({ name: "nginx", newTag: t }) })),
);

async function runPipeline(text: string, steps: Step[]): Promise<string> {
  let items = docs(text);
  for (const s of steps) items = (await s.fn.run({ items, functionConfig: s.config(), results: [] })).items;
  return dump(items);
}

describe("builtin pipelines (property)", () => {
  it("are idempotent and keep every comment", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(resource, { minLength: 1, maxLength: 5 }),
        fc.array(step, { maxLength: 4 }),
        async (rs, steps) => {
          const text = rs.map(toYaml).join("---\n");
          const once = await runPipeline(text, steps);
          const twice = await runPipeline(once, steps);
          expect(twice).toBe(once);
          rs.forEach((r, i) => {
            expect(once).toContain(`# resource ${i}\n`);
            expect(once).toContain(` # c${i}\n`);
            const workload = r.kind === "Deployment" || r.kind === "StatefulSet";
            if (workload || (r.withTemplate && r.kind !== "ConfigMap"))
              expect(once).toContain(` # inner${i}\n`);
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("pins the catalog quirk: set-annotations then set-labels on a workload without template", async () => {
    const text = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n";
    const steps: Step[] = [
      { fn: setLabels, config: () => configMap({ tier: "blue" }) },
      { fn: setAnnotations, config: () => configMap({ owner: "x" }) },
    ];
    const once = await runPipeline(text, steps);
    const twice = await runPipeline(once, steps);
    expect(once).not.toContain("    metadata:\n      labels:");
    expect(twice).toContain("      labels:\n        tier: blue\n");
  });
});
