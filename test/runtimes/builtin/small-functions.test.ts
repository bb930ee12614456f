import { describe, expect, it } from "vitest";
import { dropComments } from "../../../src/runtimes/builtin/drop-comments.js";
import { ensureNameSubstring } from "../../../src/runtimes/builtin/ensure-name-substring.js";
import { noOp } from "../../../src/runtimes/builtin/no-op.js";
import { upsertResource } from "../../../src/runtimes/builtin/upsert-resource.js";
import { configMap, runBuiltin } from "../helpers.js";

const TWO = `# head
apiVersion: v1
kind: ConfigMap
metadata:
  name: a # line
data:
  k: v
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: b
  annotations:
    config.kubernetes.io/depends-on: /namespaces/ns/ConfigMap/a
`;

describe("no-op and drop-comments", () => {
  it("no-op changes nothing", async () => {
    const out = await runBuiltin(noOp, TWO);
    expect(out.yaml).toBe(TWO);
    expect(out.results).toEqual([]);
  });

  it("drop-comments removes every comment", async () => {
    const out = await runBuiltin(dropComments, TWO);
    expect(out.yaml).not.toContain("#");
    expect(out.yaml).toContain("  name: a\n");
  });
});

describe("ensure-name-substring", () => {
  it("prepends once and follows depends-on", async () => {
    const out = await runBuiltin(ensureNameSubstring, TWO, configMap({ prepend: "dev-" }));
    expect(out.yaml).toContain("  name: dev-a # line\n");
    expect(out.yaml).toContain("  name: dev-b\n");
    expect(out.yaml).toContain("config.kubernetes.io/depends-on: /namespaces/ns/ConfigMap/dev-a\n");
    const again = await runBuiltin(ensureNameSubstring, out.yaml, configMap({ prepend: "dev-" }));
    expect(again.yaml).toBe(out.yaml);
  });

  it("appends with EnsureNameSubstring and rejects bad configs", async () => {
    const out = await runBuiltin(
      ensureNameSubstring,
      TWO,
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: EnsureNameSubstring\nmetadata:\n  name: c\nsubstring: -x\neditMode: append\n",
    );
    expect(out.yaml).toContain("  name: a-x # line\n");
    const bad = await runBuiltin(ensureNameSubstring, TWO, configMap({ prepend: "a", append: "b" }));
    expect(bad.results).toEqual([
      { message: "only 1 entry is allowed in the ConfigMap, but got: 2", severity: "error" },
    ]);
  });
});

describe("upsert-resource", () => {
  it("replaces a matching resource keeping its file annotations, or adds it", async () => {
    const items = `apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  annotations:
    internal.config.kubernetes.io/path: cm.yaml
data:
  k: old
`;
    const replaced = await runBuiltin(
      upsertResource,
      items,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: new\n",
    );
    expect(replaced.yaml).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  annotations:
    internal.config.kubernetes.io/path: cm.yaml
data:
  k: new
`);
    const added = await runBuiltin(
      upsertResource,
      items,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  annotations:\n    config.kubernetes.io/target-path: b.yaml\n",
    );
    expect(added.items).toHaveLength(2);
    expect(added.items[1].getIn(["metadata", "annotations", "config.kubernetes.io/path"])).toBe("b.yaml");
    expect(
      added.items[1].getIn(["metadata", "annotations", "config.kubernetes.io/target-path"]),
    ).toBeUndefined();
  });
});
