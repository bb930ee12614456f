import { describe, expect, it } from "vitest";
import { applySetters } from "../../../src/runtimes/builtin/apply-setters.js";
import { configMap, runBuiltin } from "../helpers.js";

const RESOURCES = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app # kpt-set: \${prefix}-app
spec:
  replicas: 4 # kpt-set: \${replicas}
  template:
    spec:
      containers:
        - name: c
          image: "nginx:1.1" # kpt-set: nginx:\${tag}
envs: # kpt-set: \${envs}
  - dev
`;

describe("apply-setters", () => {
  it("substitutes scalar and array setters, keeping quotes, comments and int typing", async () => {
    const out = await runBuiltin(
      applySetters,
      RESOURCES,
      configMap({ prefix: "blue", replicas: "3", tag: "1.2", envs: "- prod\n- stage" }),
    );
    expect(out.yaml).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: blue-app # kpt-set: \${prefix}-app
spec:
  replicas: 3 # kpt-set: \${replicas}
  template:
    spec:
      containers:
        - name: c
          image: "nginx:1.2" # kpt-set: nginx:\${tag}
envs: # kpt-set: \${envs}
  - prod
  - stage
`);
    expect(out.results.map((r) => r.message)).toEqual([
      'set field value to "- prod\\n- stage"',
      'set field value to "blue-app"',
      'set field value to "3"',
      'set field value to "nginx:1.2"',
    ]);
    expect(out.results[3].field).toEqual({ path: "spec.template.spec.containers[0].image" });
  });

  it("derives setters not given from the current value, and reports no matches", async () => {
    const partial = await runBuiltin(
      applySetters,
      `a: foo-bar # kpt-set: \${x}-\${y}\n`,
      configMap({ y: "baz" }),
    );
    expect(partial.yaml).toBe(`a: foo-baz # kpt-set: \${x}-\${y}\n`);
    const none = await runBuiltin(applySetters, RESOURCES, configMap({ other: "1" }));
    expect(none.results).toEqual([{ message: "no matches for input setter(s)" }]);
  });

  it("fails when a setter cannot be resolved", async () => {
    const out = await runBuiltin(applySetters, `a: x # kpt-set: \${p}-\${q}\n`, configMap({ p: "1" }));
    expect(out.results).toEqual([
      { message: `failed to apply setters: values for setters [\${q}] must be provided`, severity: "error" },
    ]);
  });
});

describe("apply-setters with setters that are not given", () => {
  const PARTIAL = `apiVersion: v1
kind: ConfigMap
metadata:
  name: hub # kpt-set: \${project-id}-\${cluster-name}-gkehub
`;

  it("reads the missing setter back so that the given one renders the value unchanged", async () => {
    const out = await runBuiltin(
      applySetters,
      PARTIAL.replace("hub #", "my-proj-my-cluster-gkehub #"),
      configMap({ "cluster-name": "my-cluster" }),
    );
    expect(out.yaml).toContain("name: my-proj-my-cluster-gkehub # kpt-set:");
  });

  it("is a fixed point: applying the same setters to its own output changes nothing", async () => {
    const first = await runBuiltin(
      applySetters,
      PARTIAL.replace("hub #", "p-c-gkehub #"),
      configMap({ "cluster-name": "new-cluster" }),
    );
    expect(first.yaml).toContain("name: p-new-cluster-gkehub # kpt-set:");
    const second = await runBuiltin(applySetters, first.yaml, configMap({ "cluster-name": "new-cluster" }));
    expect(second.yaml).toBe(first.yaml);
  });
});
