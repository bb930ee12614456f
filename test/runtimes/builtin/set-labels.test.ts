import { describe, expect, it } from "vitest";
import { setLabels } from "../../../src/runtimes/builtin/set-labels.js";
import { configMap, runBuiltin } from "../helpers.js";

describe("set-labels", () => {
  it("sets metadata labels, workload selectors and templates and counts every field", async () => {
    const out = await runBuiltin(
      setLabels,
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    keep: me # comment stays
spec:
  template:
    metadata:
      labels:
        app: web
---
apiVersion: v1
kind: Service
metadata:
  name: svc
spec:
  selector:
    app: web
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  replicas: 1
`,
      configMap({ tier: "db" }),
    );
    expect(out.yaml).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    keep: me # comment stays
    tier: db
spec:
  template:
    metadata:
      labels:
        app: web
        tier: db
  selector:
    matchLabels:
      tier: db
---
apiVersion: v1
kind: Service
metadata:
  name: svc
  labels:
    tier: db
spec:
  selector:
    app: web
    tier: db
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  labels:
    tier: db
spec:
  replicas: 1
  selector:
    matchLabels:
      tier: db
`);
    expect(out.results).toEqual([{ message: "set 7 labels in total", severity: "info" }]);
  });

  it("takes labels from a SetLabels config in sorted key order and skips local config", async () => {
    const out = await runBuiltin(
      setLabels,
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: m
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: local
  annotations:
    config.kubernetes.io/local-config: "true"
`,
      `apiVersion: fn.kpt.dev/v1alpha1
kind: SetLabels
metadata:
  name: cfg
labels:
  zeta: "1"
  alpha: "true"
`,
    );
    expect(out.yaml).toContain('  labels:\n    alpha: "true"\n    zeta: "1"\n');
    expect(out.yaml.match(/labels:/g)).toHaveLength(1);
    expect(out.results).toEqual([{ message: "set 2 labels in total", severity: "info" }]);
  });

  it("fails without a functionConfig", async () => {
    const out = await runBuiltin(setLabels, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n");
    expect(out.results).toEqual([{ message: "`FunctionConfig` is not given", severity: "info" }]);
    expect(out.exitCode).toBe(1);
  });

  it("warns on empty labels and reports no input resources", async () => {
    const empty = await runBuiltin(
      setLabels,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n",
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: c\nlabels: {}\n",
    );
    expect(empty.results).toEqual([
      { message: "no `labels` arguments are given in FunctionConfig", severity: "warning" },
    ]);
    expect(empty.exitCode).toBe(0);
    const none = await runBuiltin(setLabels, "", configMap({ a: "b" }));
    expect(none.results).toEqual([{ message: "no input resources", severity: "info" }]);
  });

  it("rejects labels given as a list and unknown kinds", async () => {
    const list = await runBuiltin(
      setLabels,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n",
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: c\nlabels:\n  - a: b\n",
    );
    expect(list.results[0]).toEqual({
      message:
        "unable to convert object to *setlabels.SetLabels with error: json: cannot unmarshal array into Go struct field SetLabels.labels of type map[string]string",
      severity: "error",
    });
    expect(list.exitCode).toBe(1);
    const other = await runBuiltin(
      setLabels,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n",
      "apiVersion: example.com/v1\nkind: Other\nmetadata:\n  name: c\n",
    );
    expect(other.results[0].message).toBe(
      "unknown FunctionConfig `Other.example.com`, expect `SetLabels.fn.kpt.dev` or `ConfigMap.v1`",
    );
  });
});
