import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);

const resource = fc.record({
  // No workload kinds: set-labels only fills a pod template that exists, so a later set-annotations
  // creating one makes a second render differ (catalog behaviour, not the engine).
  kind: fc.constantFrom("ConfigMap", "Service", "Secret"),
  name: word,
  comment: fc.option(fc.stringMatching(/^[a-zA-Z0-9 ,.]{1,20}$/), { nil: undefined }),
});

const step = fc.oneof(
  fc.record({ fn: fc.constant("set-labels"), key: word, value: word }),
  fc.record({ fn: fc.constant("set-annotations"), key: word, value: word }),
  fc.record({ fn: fc.constant("set-namespace"), key: fc.constant("namespace"), value: word }),
);

function resourceYaml(r: { kind: string; name: string; comment: string | undefined }): string {
  const apiVersion = r.kind === "Deployment" ? "apps/v1" : "v1";
  const comment = r.comment ? ` # ${r.comment}` : "";
  return `apiVersion: ${apiVersion}\nkind: ${r.kind}\nmetadata:\n  name: ${r.name}${comment}\n`;
}

const untouched =
  "# keep me\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: untouched # untouched resource\ndata:\n  a: 'b' # trailing\n";

function buildPackage(
  resources: Array<{ kind: string; name: string; comment: string | undefined }>,
  steps: Array<{ fn: string; key: string; value: string }>,
  readme: string,
) {
  const mutators = steps
    .map(
      (s) =>
        `    - image: ghcr.io/kptdev/krm-functions-catalog/${s.fn}:latest\n      configMap:\n        ${s.key}: ${s.value}\n      exclude:\n        - name: untouched\n        - kind: Kptfile\n`,
    )
    .join("");
  const files = new Map<string, Uint8Array>();
  files.set(
    "Kptfile",
    encoder.encode(
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: gen\npipeline:\n  mutators:\n${mutators}`,
    ),
  );
  files.set("resources.yaml", encoder.encode(resources.map(resourceYaml).join("---\n")));
  files.set("untouched.yaml", encoder.encode(untouched));
  files.set("README.md", encoder.encode(readme));
  return files;
}

describe("rendering generated packages with builtin pipelines", () => {
  it("is idempotent and never loses a non-KRM file or a comment on an untouched resource", async () => {
    const runtime = createDefaultRuntime({ allowExec: false, useContainers: false });
    await fc.assert(
      fc.asyncProperty(
        fc.array(resource, { minLength: 1, maxLength: 4 }),
        fc.array(step, { minLength: 1, maxLength: 3 }),
        fc.string({ maxLength: 40 }),
        async (resources, steps, readme) => {
          const files = buildPackage(resources, steps, readme);
          const first = await renderPackage({ files, runtime, packageName: "gen" });
          expect(first.ok).toBe(true);
          expect(fileText(first.files, "README.md")).toBe(readme);
          expect(fileText(first.files, "untouched.yaml")).toBe(untouched);
          for (const r of resources) {
            if (r.comment) expect(fileText(first.files, "resources.yaml")).toContain(`# ${r.comment}`);
          }
          const second = await renderPackage({ files: first.files!, runtime, packageName: "gen" });
          expect([...second.files!.keys()].sort()).toEqual([...first.files!.keys()].sort());
          for (const path of first.files!.keys()) {
            // The Kptfile status quotes the functions' messages, which may say "already set" the
            // second time (kpt does the same); everything above the status must not change.
            const strip = (t: string | undefined) => (path === "Kptfile" ? t?.split("\nstatus:\n")[0] : t);
            expect(strip(fileText(second.files, path)), path).toBe(strip(fileText(first.files, path)));
          }
          // ...and the third render changes nothing at all.
          const third = await renderPackage({ files: second.files!, runtime, packageName: "gen" });
          for (const path of second.files!.keys()) {
            expect(fileText(third.files, path), path).toBe(fileText(second.files, path));
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
