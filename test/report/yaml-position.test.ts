import { describe, expect, it } from "vitest";
import { locateInYaml, parseFieldPath } from "../../src/report/yaml-position.js";

const text = [
  "# leading comment",
  "apiVersion: v1",
  "kind: ConfigMap",
  "metadata:",
  "  name: first",
  "data:",
  "  a: '1'",
  "---",
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata:",
  "  name: web",
  "  namespace: prod",
  "spec:",
  "  replicas: 3",
  "  template:",
  "    spec:",
  "      containers:",
  "      - name: app",
  "        image: nginx:1.25",
  "      - name: sidecar",
  "        image: envoy",
  "",
].join("\n");

describe("parseFieldPath", () => {
  it("splits dotted paths with indexes and key=value selectors", () => {
    expect(parseFieldPath("spec.containers[0].image")).toEqual([
      { key: "spec" },
      { key: "containers" },
      { index: 0 },
      { key: "image" },
    ]);
    expect(parseFieldPath("spec.containers[name=app]")).toEqual([
      { key: "spec" },
      { key: "containers" },
      { match: ["name", "app"] },
    ]);
  });
});

describe("locateInYaml", () => {
  it("finds the first line of a document by file index", () => {
    expect(locateInYaml({ text, index: 1 })).toEqual({ line: 9, endLine: 9 });
    expect(locateInYaml({ text, index: 0 })).toEqual({ line: 2, endLine: 2 });
  });

  it("finds a document by resourceRef when the index does not match it", () => {
    const ref = { kind: "Deployment", name: "web", namespace: "prod" };
    expect(locateInYaml({ text, index: 0, resourceRef: ref })?.line).toBe(9);
    expect(locateInYaml({ text, resourceRef: ref })?.line).toBe(9);
  });

  it("finds a field on one line with columns", () => {
    expect(locateInYaml({ text, index: 1, fieldPath: "spec.replicas" })).toEqual({
      line: 15,
      endLine: 15,
      column: 3,
      endColumn: 14,
    });
  });

  it("follows sequence indexes and key=value selectors", () => {
    expect(locateInYaml({ text, index: 1, fieldPath: "spec.template.spec.containers[1].image" })?.line).toBe(
      22,
    );
    expect(
      locateInYaml({ text, index: 1, fieldPath: "spec.template.spec.containers[name=app].image" })?.line,
    ).toBe(20);
  });

  it("points at the key of a field whose value is a block spanning several lines", () => {
    const pos = locateInYaml({ text, index: 1, fieldPath: "spec.template" });
    expect(pos).toEqual({ line: 16, endLine: 16, column: 3, endColumn: 11 });
  });

  it("gives no columns for a scalar that spans several lines", () => {
    const folded = "kind: A\nmetadata:\n  name: a\ndata:\n  msg: >-\n    one\n    two\n";
    expect(locateInYaml({ text: folded, fieldPath: "data.msg" })).toEqual({ line: 5, endLine: 5 });
  });

  it("falls back to the deepest field found when the path does not exist", () => {
    expect(locateInYaml({ text, index: 1, fieldPath: "spec.nope.deeper" })?.line).toBe(14);
  });

  it("returns undefined for text that holds no document", () => {
    expect(locateInYaml({ text: "" })).toBeUndefined();
  });
});
