import { describe, expect, it } from "vitest";
import { applyReplacements } from "../../../src/runtimes/builtin/apply-replacements.js";
import { runBuiltin } from "../helpers.js";

const ITEMS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ctx
data:
  name: blue
  replicas: "5"
  image: reg.io/app:1.0
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # keep me
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: app
          image: app:0.1
        - name: side
          image: side:1
`;

const config = (replacements: string) =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:\n${replacements}`;

describe("apply-replacements", () => {
  it("reads a source through a list index and a field name with an escaped dot (kustomize's PathSplitter)", async () => {
    const items = `${ITEMS}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: sql
data:
  init.sql: CREATE TABLE t
`;
    const out = await runBuiltin(
      applyReplacements,
      items,
      config(`  - source: {kind: Deployment, name: web, fieldPath: spec.template.spec.containers.1.image}
    targets:
      - select: {name: ctx}
        fieldPaths: [data.image]
  - source: {kind: ConfigMap, name: sql, fieldPath: data.init\\.sql}
    targets:
      - select: {name: ctx}
        fieldPaths: [data.name]
`),
    );
    expect(out.results.filter((r) => r.severity === "error")).toEqual([]);
    expect(out.yaml).toContain('  name: CREATE TABLE t\n  replicas: "5"\n  image: side:1\n');
  });

  it("copies source fields into selected targets, with delimiters and list selectors", async () => {
    const out = await runBuiltin(
      applyReplacements,
      ITEMS,
      config(`  - source: {kind: ConfigMap, name: ctx, fieldPath: data.name}
    targets:
      - select: {kind: Deployment}
        fieldPaths: [metadata.name]
        options: {delimiter: "-", index: 1}
  - source: {kind: ConfigMap, name: ctx, fieldPath: data.image}
    targets:
      - select: {kind: Deployment}
        fieldPaths: ["spec.template.spec.containers.[name=app].image"]
  - source: {kind: ConfigMap, name: ctx, fieldPath: data.replicas}
    targets:
      - select: {kind: Deployment}
        fieldPaths: [spec.replicas]
`),
    );
    expect(out.results).toEqual([]);
    expect(out.yaml).toContain("  name: web-blue # keep me\n");
    expect(out.yaml).toContain("        - name: app\n          image: reg.io/app:1.0\n");
    expect(out.yaml).toContain("          image: side:1\n");
    // a string source keeps its string typing at an int target
    expect(out.yaml).toContain('  replicas: "5"\n');
  });

  it("with options.create, appends a `{name: X}` list item that no item matches", async () => {
    const out = await runBuiltin(
      applyReplacements,
      ITEMS,
      config(`  - source: {kind: ConfigMap, name: ctx, fieldPath: data.replicas}
    targets:
      - select: {kind: Deployment}
        fieldPaths: ["spec.template.spec.containers.[name=app].env.[name=COUNT].value"]
        options: {create: true}
  - source: {kind: ConfigMap, name: ctx, fieldPath: data.name}
    targets:
      - select: {kind: Deployment}
        fieldPaths: ["spec.template.spec.containers.[name=app].env.[name=COLOR].value"]
        options: {create: true}
`),
    );
    expect(out.results).toEqual([]);
    expect(out.yaml).toContain(
      '          image: app:0.1\n          env:\n            - name: COUNT\n              value: "5"\n            - name: COLOR\n              value: blue\n',
    );
    // the other container gets nothing: the `[name=app]` selector matched an existing item
    expect(out.yaml).toContain("        - name: side\n          image: side:1\n");
  });

  it("creates missing target fields only with options.create, else skips them", async () => {
    const create = await runBuiltin(
      applyReplacements,
      ITEMS,
      config(`  - source: {kind: ConfigMap, fieldPath: data.name}
    targets:
      - select: {kind: Deployment}
        fieldPaths: [metadata.labels.team]
        options: {create: true}
`),
    );
    expect(create.yaml).toContain("  labels:\n    team: blue\n");
    const missing = await runBuiltin(
      applyReplacements,
      ITEMS,
      config(`  - source: {kind: ConfigMap, fieldPath: data.name}
    targets:
      - select: {kind: Deployment}
        fieldPaths: [metadata.labels.team]
`),
    );
    expect(missing.results).toEqual([]);
    expect(missing.yaml).not.toContain("team:");
  });

  it("reports a missing source, an ambiguous source and a wrong config kind", async () => {
    const none = await runBuiltin(
      applyReplacements,
      ITEMS,
      config("  - source: {kind: Secret}\n    targets: []\n"),
    );
    expect(none.results[0].message).toBe("nothing selected by ~G_~V_Secret|~X|~N");
    const many = await runBuiltin(applyReplacements, ITEMS, config("  - source: {}\n    targets: []\n"));
    expect(many.results[0].message).toBe("multiple matches for selector ~G_~V_~K|~X|~N");
    const wrong = await runBuiltin(
      applyReplacements,
      ITEMS,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
    );
    expect(wrong.results[0].message).toBe(
      "received functionConfig of kind ConfigMap and apiVersion v1, only functionConfig of kind ApplyReplacements and apiVersion fn.kpt.dev/v1alpha1 is supported",
    );
  });
});
