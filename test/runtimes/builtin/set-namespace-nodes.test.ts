/**
 * set-namespace's node form against its Document form: the same bytes, items and results on every
 * ../shared/conformance step that runs it and on fixtures of the edge cases.
 */
import { describe, expect, it } from "vitest";
import { setNamespace } from "../../../src/runtimes/builtin/set-namespace.js";
import { configMap } from "../helpers.js";
import { describeSharedCases, expectSameBothWays, fixture } from "./node-diff.js";

describeSharedCases(setNamespace, 11);

const KINDS = `# head
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
  namespace: "old" # quoted
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
  - {kind: User, name: u, namespace: 'old'}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  conversion:
    webhook:
      clientConfig:
        service:
          name: conv
          namespace: old
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1.example.com
spec:
  service:
    name: api
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: no-ns
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: with-ns
  namespace: other
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/old/Deployment/web
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: local
  annotations:
    config.kubernetes.io/local-config: "true"
---
apiVersion: v1
kind: Service
metadata: {name: flow}
---
apiVersion: v1
kind: Secret
metadata:
  name: null-ns
  namespace: ~
---
apiVersion: v1
kind: Secret
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: blocked
  namespace: [a]
`;

const fixtures: Array<[string, string, Record<string, string>]> = [
  ["many kinds", KINDS, { namespace: "prod" }],
  ["a namespace reading as a bool", KINDS, { namespace: "true" }],
  ["a namespace reading as a number", KINDS, { namespace: "123" }],
  ["a namespace reading as null", KINDS, { namespace: "~" }],
  ["a namespace needing quotes", KINDS, { namespace: "a: b" }],
  ["a matcher", KINDS, { namespace: "prod", namespaceMatcher: "old" }],
  ["an empty namespace (error)", KINDS, { namespace: "" }],
  [
    "upstream origins",
    `apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: x
  annotations:
    internal.kpt.dev/upstream-identifier: '|ConfigMap|base|a'
---
apiVersion: v1
kind: Namespace
metadata:
  name: base
  annotations:
    internal.kpt.dev/upstream-identifier: '|Namespace|~C|base'
`,
    { namespace: "prod" },
  ],
];

describe("set-namespace runNodes on fixtures", () => {
  it.each(fixtures)("%s", async (_name, text, data) => {
    const out = await expectSameBothWays(setNamespace, fixture(text), () => configMap(data));
    expect(out).toBeDefined();
  });
  it("edits in place: quoting and comments kept, new keys appended", async () => {
    const out = await expectSameBothWays(setNamespace, fixture(KINDS), () =>
      configMap({ namespace: "true" }),
    );
    expect(out?.[0]).toContain('  namespace: "true" # quoted\n');
    expect(out?.[9]).toContain('  namespace: "true"\n');
  });
  it("reports a missing functionConfig the same way", async () => {
    await expectSameBothWays(setNamespace, fixture(KINDS), () => undefined);
  });
});
