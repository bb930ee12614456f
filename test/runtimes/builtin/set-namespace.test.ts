import { describe, expect, it } from "vitest";
import { setNamespace } from "../../../src/runtimes/builtin/set-namespace.js";
import { configMap, runBuiltin } from "../helpers.js";

const PACKAGE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
spec:
  replicas: 1
---
apiVersion: v1
kind: Namespace
metadata:
  name: old
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: crb
subjects:
  - kind: ServiceAccount
    name: default
    namespace: old
  - kind: Group
    name: admins
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: no-ns
---
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
`;

describe("set-namespace", () => {
  it("sets namespaces, renames Namespace objects and binding subjects, keeps comments", async () => {
    const out = await runBuiltin(setNamespace, PACKAGE, configMap({ namespace: "prod" }));
    expect(out.yaml).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
  namespace: prod
spec:
  replicas: 1
---
apiVersion: v1
kind: Namespace
metadata:
  name: prod
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: crb
subjects:
  - kind: ServiceAccount
    name: default
    namespace: prod
  - kind: Group
    name: admins
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: no-ns
---
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
`);
    expect(out.results).toEqual([
      { message: 'namespace [default old] updated to "prod", 3 value(s) changed', severity: "info" },
      { message: "all `depends-on` annotations are up-to-date. no `namespace` changed", severity: "info" },
    ]);
    expect(out.exitCode).toBe(0);
  });

  it("updates depends-on annotations only for resources of the package", async () => {
    const out = await runBuiltin(
      setNamespace,
      `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  namespace: a
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  namespace: a
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/a/StatefulSet/db
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: other
  namespace: a
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/a/StatefulSet/elsewhere
`,
      `apiVersion: fn.kpt.dev/v1alpha1
kind: SetNamespace
metadata:
  name: cfg
namespace: b
`,
    );
    expect(out.yaml).toContain("config.kubernetes.io/depends-on: apps/namespaces/b/StatefulSet/db");
    expect(out.yaml).toContain("config.kubernetes.io/depends-on: apps/namespaces/a/StatefulSet/elsewhere");
    expect(out.results[1].message).toBe(
      '`depends-on` annotation namespace [a] updated to "b", 1 value(s) changed',
    );
  });

  it("with namespaceMatcher only changes matching namespaces", async () => {
    const out = await runBuiltin(
      setNamespace,
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  namespace: keep
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: y
  namespace: change
`,
      configMap({ namespace: "new", namespaceMatcher: "change" }),
    );
    expect(out.yaml).toContain("name: x\n  namespace: keep");
    expect(out.yaml).toContain("name: y\n  namespace: new");
  });

  it("skips local-config resources and reports when nothing changes", async () => {
    const out = await runBuiltin(
      setNamespace,
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: local
  annotations:
    config.kubernetes.io/local-config: "true"
`,
      configMap({ namespace: "n" }),
    );
    expect(out.yaml).not.toContain("namespace:");
    expect(out.results[0].message).toBe('all matching namespaces are already "n". no value changed');
  });

  it("accepts the kptfile.kpt.dev package-context ConfigMap", async () => {
    const out = await runBuiltin(
      setNamespace,
      "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: kptfile.kpt.dev
data:
  name: ctx
`,
    );
    expect(out.yaml).toContain("namespace: ctx");
  });

  it.each([
    [undefined, "FunctionConfig is missing. Expect `ConfigMap.v1` or `SetNamespace.v1alpha1.fn.kpt.dev`"],
    [
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  other: x\n",
      "`data.namespace` should not be empty",
    ],
    [
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetNamespace\nmetadata:\n  name: c\n",
      "`namespace` should not be empty",
    ],
    [
      "apiVersion: example.com/v1\nkind: Other\nmetadata:\n  name: c\n",
      "unknown functionConfig Kind=Other ApiVersion=example.com/v1, expect `ConfigMap.v1` or `SetNamespace.v1alpha1.fn.kpt.dev`",
    ],
  ])("reports a bad functionConfig as an error result with exit code 0 (%#)", async (fc, message) => {
    const out = await runBuiltin(setNamespace, "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n", fc);
    // The SDK's ConfigObjectResult: the config's file, index -1 when it has no index annotation.
    expect(out.results).toEqual([
      { message, severity: "error", resourceRef: expect.any(Object), file: { path: "", index: -1 } },
    ]);
    expect(out.exitCode).toBe(0);
    expect(out.yaml).not.toContain("namespace:");
  });
});
