import { describe, expect, it } from "vitest";
import { listSetters } from "../../../src/runtimes/builtin/list-setters.js";
import { setProjectId } from "../../../src/runtimes/builtin/set-project-id.js";
import { configMap, runBuiltin } from "../helpers.js";

describe("list-setters", () => {
  it("lists Kptfile setters and kpt-set comments with values, types and counts", async () => {
    const out = await runBuiltin(
      listSetters,
      `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
  annotations:
    internal.config.kubernetes.io/path: Kptfile
pipeline:
  mutators:
    - image: gcr.io/kpt-fn/apply-setters:v0.2
      configMap:
        unused: x
        tag: 1.16.2
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3 # kpt-set: \${replicas}
  image: "nginx:1.16.2" # kpt-set: nginx:\${tag}
  other: "nginx:1.16.2" # kpt-set: nginx:\${tag}
  envs: # kpt-set: \${env}
    - stage
    - dev
`,
    );
    expect(out.results.map((r) => r.message)).toEqual([
      "Name: env, Value: [dev, stage], Type: array, Count: 1",
      "Name: replicas, Value: 3, Type: int, Count: 1",
      "Name: tag, Value: 1.16.2, Type: str, Count: 2",
      "Name: unused, Value: x, Type: str, Count: 0",
    ]);
  });

  it("derives every setter of an interpolated pattern from the field's value (Go accepts repeated group names)", async () => {
    const out = await runBuiltin(
      listSetters,
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # kpt-set: \${app}
  labels:
    app: web-3 # kpt-set: \${app}-\${replicas}
spec:
  replicas: 3 # kpt-set: \${replicas}
`,
    );
    expect(out.results.map((r) => r.message)).toEqual([
      "Name: app, Value: web, Type: str, Count: 2",
      "Name: replicas, Value: 3, Type: int, Count: 2",
    ]);
  });

  it("warns when there is no setter", async () => {
    const out = await runBuiltin(listSetters, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n");
    expect(out.results).toEqual([{ message: "no setters found", severity: "warning" }]);
  });
});

describe("set-project-id", () => {
  const kcc = `apiVersion: storage.cnrm.cloud.google.com/v1beta1
kind: StorageBucket
metadata:
  name: b
---
apiVersion: core.cnrm.cloud.google.com/v1alpha1
kind: ConfigConnector
metadata:
  name: system
---
apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMServiceAccount
metadata:
  name: sa
  annotations:
    cnrm.cloud.google.com/project-id: kept
`;

  it("adds the project-id setter to the pipeline and annotates Config Connector resources", async () => {
    const out = await runBuiltin(
      setProjectId,
      `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
---
${kcc}`,
      configMap({ "project-id": "foo" }),
    );
    expect(out.yaml).toContain(
      "pipeline:\n  mutators:\n    - image: gcr.io/kpt-fn/apply-setters:v0.2\n      configMap:\n        project-id: foo\n",
    );
    expect(out.items[1].getIn(["metadata", "annotations", "cnrm.cloud.google.com/project-id"])).toBe("foo");
    expect(out.items[2].getIn(["metadata", "annotations"])).toBeUndefined();
    expect(out.items[3].getIn(["metadata", "annotations", "cnrm.cloud.google.com/project-id"])).toBe("kept");
  });

  it("fills the setters file of an existing apply-setters step, keeping a value already set", async () => {
    const items = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
pipeline:
  mutators:
    - image: apply-setters:v0.2
      configPath: setters.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: setters
  annotations:
    internal.config.kubernetes.io/path: setters.yaml
data:
  namespace: ns
`;
    const out = await runBuiltin(setProjectId, items, configMap({ "project-id": "foo" }));
    expect(out.items[1].toJSON().data).toEqual({ namespace: "ns", "project-id": "foo" });
    const again = await runBuiltin(setProjectId, out.yaml, configMap({ "project-id": "bar" }));
    expect(again.items[1].getIn(["data", "project-id"])).toBe("foo");
  });

  it("fails without a Kptfile", async () => {
    const out = await runBuiltin(setProjectId, kcc, configMap({ "project-id": "foo" }));
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(
      /^failed to set project-id setter: failed to find Kptfile: unable to find Kptfile/,
    );
  });
});
