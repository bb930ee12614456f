import { describe, expect, it } from "vitest";
import { ensureNameSubstring } from "../../../src/runtimes/builtin/ensure-name-substring.js";
import { configMap, runBuiltin } from "../helpers.js";

const RESOURCES = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: app
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: app
spec:
  template:
    spec:
      serviceAccountName: runner
      containers:
        - name: web
          envFrom:
            - configMapRef:
                name: settings
          env:
            - name: OTHER
              valueFrom:
                configMapKeyRef:
                  name: not-in-package
                  key: k
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: runner
  namespace: app
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: bind
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: reader
subjects:
  - kind: ServiceAccount
    name: runner
    namespace: app
  - kind: ServiceAccount
    name: runner
    namespace: elsewhere
  - kind: Group
    name: runner
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: other
---
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: other
spec:
  volumes:
    - name: v
      configMap:
        name: settings
`;

describe("ensure-name-substring name references (kustomize's nameReference)", () => {
  it("renames references to renamed resources of the package, in the referrer's namespace only", async () => {
    const out = await runBuiltin(ensureNameSubstring, RESOURCES, configMap({ prepend: "prod-" }));
    expect(out.yaml).toContain(
      "          envFrom:\n            - configMapRef:\n                name: prod-settings\n",
    );
    expect(out.yaml).toContain("                  name: not-in-package\n");
    expect(out.yaml).toContain("      serviceAccountName: prod-runner\n");
    expect(out.yaml).toContain("  kind: ClusterRole\n  name: prod-reader\n");
    expect(out.yaml).toContain(
      "  - kind: ServiceAccount\n    name: prod-runner\n    namespace: app\n  - kind: ServiceAccount\n    name: runner\n    namespace: elsewhere\n  - kind: Group\n    name: runner\n",
    );
    // The Pod in `other` refers to the ConfigMap of `other`, renamed too.
    expect(out.yaml).toContain("      configMap:\n        name: prod-settings\n");
  });

  it("leaves a reference whose referent was not renamed (it already had the substring)", async () => {
    const text = RESOURCES.replace("  name: reader\n---", "  name: prod-reader-x\n---");
    const out = await runBuiltin(ensureNameSubstring, text, configMap({ prepend: "prod-" }));
    expect(out.yaml).toContain("  kind: ClusterRole\n  name: reader\n");
  });
});
