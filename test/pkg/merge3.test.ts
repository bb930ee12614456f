import { describe, expect, it } from "vitest";
import { type Document, parseDocument } from "yaml";
import { serializeChanged } from "../../src/krm/yaml-io.js";
import { defaultMergeSchemas } from "../../src/pkg/merge3/default-schemas.js";
import type { MergeOverride, YNode } from "../../src/pkg/merge3/nodes.js";
import { NO_SCHEMAS } from "../../src/pkg/merge3/schema.js";
import { merge3 } from "../../src/pkg/merge3/walk.js";
import { normalizeComments } from "../../src/pkg/resource-io.js";

function merge(local: string, original: string, updated: string, infer = false) {
  const docs = [local, original, updated].map((t) => parseDocument(t)) as [Document, Document, Document];
  for (const d of docs) normalizeComments(d);
  const overrides: MergeOverride[] = [];
  const out = merge3(docs.map((d) => d.contents as YNode) as [YNode, YNode, YNode], {
    schemas: infer ? NO_SCHEMAS : defaultMergeSchemas(),
    inferAssociativeLists: infer,
    overrides,
  });
  docs[0].contents = out ?? null;
  return { text: serializeChanged(docs[0], "compact"), overrides };
}

const deployment = (image: string, replicas: number, extra = "") => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
      - name: web
        image: ${image}
${extra}`;

describe("3-way merge of one resource", () => {
  it("takes upstream's change of a field the local copy left alone, keeps a local change upstream left alone", () => {
    const { text, overrides } = merge(
      deployment("nginx:1.25", 5),
      deployment("nginx:1.25", 1),
      deployment("nginx:1.27", 1),
    );
    expect(text).toContain("replicas: 5");
    expect(text).toContain("image: nginx:1.27");
    expect(overrides).toEqual([]);
  });

  it("takes upstream's value where both changed the same field, and records the override", () => {
    const { text, overrides } = merge(
      deployment("nginx:local", 1),
      deployment("nginx:1.25", 1),
      deployment("nginx:1.27", 1),
    );
    expect(text).toContain("image: nginx:1.27");
    expect(overrides).toEqual([
      {
        path: ["spec", "template", "spec", "containers", "[name=web]", "image"],
        kind: "changed",
        local: "nginx:local",
        upstream: "nginx:1.27",
        original: "nginx:1.25",
      },
    ]);
  });

  it("records nothing when both sides made the same change", () => {
    const { overrides } = merge(
      deployment("nginx:1.27", 1),
      deployment("nginx:1.25", 1),
      deployment("nginx:1.27", 1),
    );
    expect(overrides).toEqual([]);
  });

  it("merges containers by name: a container added upstream is appended (its fields in key order), a local one stays", () => {
    const local = deployment("nginx", 1, "      - name: mine\n        image: mine:1\n");
    const updated = deployment(
      "nginx",
      1,
      "      - name: sidecar\n        image: envoy\n        args: [a]\n",
    );
    const { text } = merge(local, deployment("nginx", 1), updated);
    expect(text).toContain(
      "      - name: web\n        image: nginx\n      - name: mine\n        image: mine:1\n      - args: [a]\n        image: envoy\n        name: sidecar\n",
    );
  });

  it("replaces a list without merge keys as a whole when upstream changed it", () => {
    const base =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    args: [a, b]\n";
    const { text } = merge(base.replace("[a, b]", "[a, b, local]"), base, base.replace("[a, b]", "[a, c]"));
    expect(text).toContain("args: [a, c]");
  });

  it("removes a field upstream removed, and a field set to null on either side", () => {
    const base =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: '1'\n  b: '2'\n  c: '3'\n";
    const { text } = merge(base.replace("c: '3'", "c: null"), base, base.replace("  a: '1'\n", ""));
    expect(text).toBe("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  b: '2'\n");
  });

  it("carries a comment changed upstream into the local copy and keeps a local comment upstream did not touch", () => {
    const base = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: x\n  b: z\n";
    const { text } = merge(
      base.replace("b: z", "b: z # mine"),
      base,
      base.replace("  a: x", "  # about a\n  a: x"),
    );
    expect(text).toContain("data:\n  # about a\n  a: x\n  b: z # mine\n");
  });

  it("infers `name` as the merge key when asked (Kptfile pipelines)", () => {
    const fns = (...names: string[]) =>
      `pipeline:\n  mutators:\n${names.map((n) => `  - name: ${n}\n    image: ${n}:v1\n`).join("")}`;
    const { text } = merge(fns("a", "local"), fns("a"), fns("up", "a"), true);
    expect(text).toBe(
      "pipeline:\n  mutators:\n  - name: a\n    image: a:v1\n  - name: local\n    image: local:v1\n  - image: up:v1\n    name: up\n",
    );
  });

  it("quotes a kept plain string YAML 1.1 reads as another type, a replaced value takes the local style (kyaml)", () => {
    const base = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: x\n";
    const { text } = merge(base.replace("a: x", "a: x\n  b: yes"), base, base.replace("a: x", "a: on"));
    expect(text).toContain('data:\n  a: on\n  b: "yes"\n');
  });

  it("refuses to merge a map with a list and names the field", () => {
    expect(() => merge("a:\n  b: [1]\n", "a:\n  b: [1]\n", "a:\n  b:\n    c: 1\n")).toThrow(
      "field a.b is a list in one version and a map in another",
    );
  });
});
