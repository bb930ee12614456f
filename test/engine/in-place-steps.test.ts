// Mutators edit the working resources themselves unless a failure must store the state before the
// failed step (PartiallyRendered), where they get clones. Both ways must render the same bytes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Document, isMap, isPair, isScalar, isSeq, parseDocument, visit, YAMLMap } from "yaml";
import { renderPackage } from "../../src/engine/render.js";
import type { FunctionRunRequest, FunctionRuntime } from "../../src/runtimes/runtime.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();

/** Edits a resource the way real functions do: reorders, drops comments, rebuilds maps, sets values. */
function scramble(doc: Document, op: number): void {
  const root = doc.contents;
  if (!isMap(root)) return;
  if (op & 1) root.items.reverse();
  if (op & 2)
    visit(doc, {
      Node(_k, node) {
        node.comment = undefined;
      },
    });
  const meta = root.get("metadata", true);
  if (op & 4 && isMap(meta)) {
    const labels = new YAMLMap();
    const old = meta.get("labels", true);
    if (isMap(old))
      for (const pair of old.items) labels.set(String(isScalar(pair.key) ? pair.key.value : pair.key), "x");
    labels.set("scrambled", String(op));
    meta.set("labels", labels);
  }
  if (op & 8) doc.setIn(["data", "k"], `v${op}`);
  const spec = root.get("spec", true);
  if (op & 16 && isMap(spec)) {
    const ports = spec.get("ports", true);
    if (isSeq(ports)) ports.items.reverse();
  }
}

function scrambleRuntime(): FunctionRuntime {
  return {
    name: "scramble",
    async run(request: FunctionRunRequest) {
      const image = request.fn.image ?? "";
      const seed = Number(image.split(":")[1] ?? "0");
      let items = request.input.items;
      if (image.includes("scramble")) {
        for (const [i, doc] of items.entries()) scramble(doc, (seed >> (i % 5)) & 31);
      } else if (image.includes("reparse")) {
        // An exec-like function: its output is parsed text, keys sorted, no comments.
        items = items.map((doc) => {
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
          return copy;
        });
        if (seed % 2 === 1) items = items.slice(1);
      } else if (image.includes("fail")) {
        for (const doc of items) scramble(doc, 31);
        return { exitCode: 1, stderr: "no\n", output: { items, results: [] } };
      } else return undefined;
      return {
        exitCode: 0,
        stderr: "",
        output: { items, results: [{ message: `ran ${image}`, severity: "info" }] },
      };
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
    - port: 443
      name: https
---
apiVersion: v1
kind: ConfigMap
metadata: # meta
  name: cm
data:
  k: v # value
`;

function pkg(steps: string[]): Map<string, Uint8Array> {
  const mutators = steps.map((s) => `    - image: test/${s}\n`).join("");
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

const step = fc.oneof(
  fc.integer({ min: 0, max: 1023 }).map((n) => `scramble:${n}`),
  fc.integer({ min: 0, max: 9 }).map((n) => `reparse:${n}`),
);

describe("steps editing resources in place", () => {
  it("render what steps given copies render", async () => {
    const runtime = scrambleRuntime();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        const files = pkg(steps);
        const inPlace = await renderPackage({ files, runtime, packageName: "p" });
        const copies = await renderPackage({
          files,
          runtime,
          packageName: "p",
          pushOnFailure: "PartiallyRendered",
        });
        expect(inPlace.ok).toBe(true);
        expect([...inPlace.files!.keys()].sort()).toEqual([...copies.files!.keys()].sort());
        for (const path of inPlace.files!.keys())
          expect(fileText(inPlace.files, path), path).toBe(fileText(copies.files, path));
      }),
      { numRuns: 150 },
    );
  });

  it("leave the input files as they were when a later step fails (Unrendered)", async () => {
    const files = pkg(["scramble:1023", "fail"]);
    const result = await renderPackage({ files, runtime: scrambleRuntime(), packageName: "p" });
    expect(result.ok).toBe(false);
    expect(fileText(result.files, "resources.yaml")).toBe(RESOURCES);
    expect(fileText(result.files, "more.yaml")).toBe(fileText(files, "more.yaml"));
  });

  it("store the state before the failed step when partially rendered", async () => {
    const files = pkg(["scramble:1023", "fail"]);
    const partial = await renderPackage({
      files,
      runtime: scrambleRuntime(),
      packageName: "p",
      pushOnFailure: "PartiallyRendered",
    });
    const first = await renderPackage({
      files: pkg(["scramble:1023"]),
      runtime: scrambleRuntime(),
      packageName: "p",
    });
    expect(fileText(partial.files, "resources.yaml")).toBe(fileText(first.files, "resources.yaml"));
    expect(fileText(partial.files, "resources.yaml")).toContain("scrambled:");
  });
});
