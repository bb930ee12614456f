import { describe, expect, it } from "vitest";
import { Document } from "yaml";
import { setAnnotations } from "../../../src/runtimes/builtin/set-annotations.js";
import { configMap, docs, dump } from "../helpers.js";

const withPath = (text: string, path: string) =>
  docs(text).map((d, i) => {
    d.setIn(["metadata", "annotations", "internal.config.kubernetes.io/path"], path);
    d.setIn(["metadata", "annotations", "internal.config.kubernetes.io/index"], String(i));
    return d;
  });

describe("set-annotations", () => {
  it("annotates metadata and pod templates, one result per field, sorted by file", async () => {
    const items = [
      ...withPath(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n",
        "b.yaml",
      ),
      ...withPath("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm # keep\n", "a.yaml"),
    ];
    const out = await setAnnotations.run({
      items,
      functionConfig: configMap({ team: "x", app: "y" }),
      results: [],
    });
    expect(out.results).toEqual([
      {
        message: 'set annotations: {"app":"y","team":"x"}',
        field: { path: "metadata.annotations" },
        file: { path: "a.yaml" },
      },
      {
        message: 'set annotations: {"app":"y","team":"x"}',
        field: { path: "metadata.annotations" },
        file: { path: "b.yaml" },
      },
      {
        message: 'set annotations: {"app":"y","team":"x"}',
        field: { path: "spec.template.metadata.annotations" },
        file: { path: "b.yaml" },
      },
    ]);
    for (const d of out.items) {
      d.deleteIn(["metadata", "annotations", "internal.config.kubernetes.io/path"]);
      d.deleteIn(["metadata", "annotations", "internal.config.kubernetes.io/index"]);
    }
    expect(dump(out.items)).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    app: y
    team: x
spec:
  replicas: 1
  template:
    metadata:
      annotations:
        app: y
        team: x
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm # keep
  annotations:
    app: y
    team: x
`);
  });

  it("honours additionalAnnotationFields and rejects an empty list", async () => {
    const fc = new Document({
      apiVersion: "fn.kpt.dev/v1alpha1",
      kind: "SetAnnotations",
      metadata: { name: "c" },
      annotations: { a: "b" },
      additionalAnnotationFields: [{ kind: "Widget", path: "spec/extra/annotations", create: true }],
    });
    const out = await setAnnotations.run({
      items: docs("apiVersion: x.io/v1\nkind: Widget\nmetadata:\n  name: w\n"),
      functionConfig: fc,
      results: [],
    });
    expect(dump(out.items)).toContain("spec:\n  extra:\n    annotations:\n      a: b\n");
    const empty = await setAnnotations.run({ items: [], functionConfig: configMap({}), results: [] });
    expect(empty.results).toEqual([
      { message: "failed to configure function: input annotation list cannot be empty", severity: "error" },
    ]);
  });
});
