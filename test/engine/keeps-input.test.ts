// A runtime that keeps its input (exec, container, function runner: the documents go out as text)
// declares it, and the engine then takes no shapes before the run and restores nothing on the items
// handed back as they were sent. Declaring it must not change a byte of any render.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Document, isPair, isScalar, parseDocument, visit } from "yaml";
import { renderPackage } from "../../src/engine/render.js";
import type { FunctionRunRequest, FunctionRuntime } from "../../src/runtimes/runtime.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();

/** What a process would hand back for an edited item: new nodes, keys sorted, no comments, a value set. */
function rewritten(doc: Document, seed: number): Document {
  const copy = parseDocument(doc.toString());
  visit(copy, {
    Map(_k, map) {
      map.items.sort((a, b) =>
        String(isPair(a) && isScalar(a.key) ? a.key.value : "").localeCompare(
          String(isPair(b) && isScalar(b.key) ? b.key.value : ""),
        ),
      );
    },
    Node(_k, node) {
      node.comment = undefined;
      node.commentBefore = undefined;
    },
  });
  if (seed & 1) copy.setIn(["metadata", "labels", "edited"], String(seed));
  return copy;
}

/** Items whose bit in the step's seed is set come back as the input documents themselves, untouched. */
function wireLikeRuntime(declares: boolean): FunctionRuntime {
  return {
    name: "wire-like",
    ...(declares ? { keepsInput: () => true } : {}),
    async run(request: FunctionRunRequest) {
      const seed = Number((request.fn.image ?? "").split(":")[1] ?? "0");
      const items = request.input.items.map((doc, i) =>
        (seed >> (i % 6)) & 1 ? doc : rewritten(doc, seed >> 6),
      );
      return { exitCode: 0, stderr: "", output: { items, results: [] } };
    },
  };
}

const RESOURCES = `# first
apiVersion: v1
kind: Service
metadata:
  name: svc # the service
  labels:
    app: a # label
spec:
  ports:
    - port: 80 # http
      name: http
---
apiVersion: v1
kind: ConfigMap
metadata: # meta
  name: cm
data:
  k: v # value
  a: b
`;

function pkg(seeds: number[]): Map<string, Uint8Array> {
  const mutators = seeds.map((s) => `    - image: test/wire:${s}\n`).join("");
  return new Map([
    [
      "Kptfile",
      encoder.encode(
        `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n${mutators}`,
      ),
    ],
    ["resources.yaml", encoder.encode(RESOURCES)],
    ["more.yaml", encoder.encode(RESOURCES.replaceAll("svc", "svc2").replaceAll("name: cm", "name: cm2"))],
  ]);
}

describe("a runtime that keeps its input", () => {
  it("renders the bytes the engine renders when it takes shapes before every run", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(undefined, "PartiallyRendered" as const),
        async (seeds, pushOnFailure) => {
          const files = pkg(seeds);
          const options = { files, packageName: "p", ...(pushOnFailure ? { pushOnFailure } : {}) };
          const keeps = await renderPackage({ ...options, runtime: wireLikeRuntime(true) });
          const shapes = await renderPackage({ ...options, runtime: wireLikeRuntime(false) });
          expect(keeps.ok).toBe(true);
          for (const path of shapes.files!.keys())
            expect(fileText(keeps.files, path), path).toBe(fileText(shapes.files, path));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("keeps comments and field order of the items it hands back as sent", async () => {
    const result = await renderPackage({
      files: pkg([63]),
      runtime: wireLikeRuntime(true),
      packageName: "p",
    });
    expect(fileText(result.files, "resources.yaml")).toBe(RESOURCES);
  });
});
