import { describe, expect, it } from "vitest";
import { applyReplacements } from "../../../src/runtimes/builtin/apply-replacements.js";
import { matchesSelector } from "../../../src/runtimes/builtin/label-selector.js";
import { runBuiltin } from "../helpers.js";

describe("matchesSelector", () => {
  const labels = new Map([
    ["app", "web"],
    ["tier", "front"],
  ]);
  it.each([
    ["", true],
    ["app=web", true],
    ["app==web,tier=front", true],
    ["app!=web", false],
    ["tier in (back, front)", true],
    ["tier notin (back,front)", false],
    ["app", true],
    ["!app", false],
    ["!legacy", true],
  ])("%s -> %s", (selector, expected) => {
    expect(matchesSelector(selector, labels)).toBe(expected);
  });
});

describe("apply-replacements selectors", () => {
  const items = `apiVersion: v1
kind: ConfigMap
metadata:
  name: src
data:
  v: new
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  labels:
    role: target
data:
  v: old
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
data:
  v: old
`;
  const config = (target: string) =>
    `apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:\n  - source: {name: src, fieldPath: data.v}\n    targets:\n${target}`;

  it("selects targets by label selector", async () => {
    const out = await runBuiltin(
      applyReplacements,
      items,
      config("      - select: {kind: ConfigMap, labelSelector: role=target}\n        fieldPaths: [data.v]\n"),
    );
    expect(out.yaml).toContain("  name: a\n  labels:\n    role: target\ndata:\n  v: new\n");
    expect(out.yaml).toContain("  name: b\ndata:\n  v: old\n");
  });

  it("rejects by name and by label selector", async () => {
    const out = await runBuiltin(
      applyReplacements,
      items,
      config(
        "      - select: {kind: ConfigMap}\n        reject: [{name: src}, {labelSelector: role=target}]\n        fieldPaths: [data.v]\n",
      ),
    );
    expect(out.yaml).toContain("  name: a\n  labels:\n    role: target\ndata:\n  v: old\n");
    expect(out.yaml).toContain("  name: b\ndata:\n  v: new\n");
  });
});
