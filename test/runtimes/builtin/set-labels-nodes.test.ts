/**
 * set-labels' node form against its Document form: the same bytes, items and results on every
 * ../shared/conformance step that runs it and on fixtures of the edge cases.
 */
import { describe, expect, it } from "vitest";
import { setLabels } from "../../../src/runtimes/builtin/set-labels.js";
import { configMap } from "../helpers.js";
import { describeSharedCases, expectSameBothWays, fixture } from "./node-diff.js";

describeSharedCases(setLabels, 6);

const KINDS = `# head comment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web # keep me
    quoted: "x"
    single: 'y'
    num: 1
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels:
    spec:
      topologySpreadConstraints:
        - labelSelector:
            matchLabels:
              app: web
      affinity:
        podAntiAffinity: {}
        requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: web
        preferredDuringSchedulingIgnoredDuringExecution:
          - podAffinityTerm:
              labelSelector:
                matchLabels:
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
apiVersion: batch/v1
kind: CronJob
metadata:
  name: cron
spec:
  jobTemplate:
    spec:
      selector:
        matchLabels:
          app: web
      template:
        metadata: {}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  volumeClaimTemplates:
    - metadata:
        name: data
      selector:
        matchLabels:
          app: web
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: np
spec:
  podSelector:
    matchLabels:
      app: web
  ingress:
    - from:
        - podSelector:
            matchLabels:
              app: web
  egress:
    - to:
        - podSelector: {}
---
apiVersion: example.com/v1
kind: Widget
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cluster
  labels: [blocked]
---
resources:
  - a.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: local
  annotations:
    config.kubernetes.io/local-config: "true"
`;

const fixtures: Array<[string, string, Record<string, string>]> = [
  ["many kinds", KINDS, { app: "shop", tier: "backend" }],
  [
    "values reading as other types",
    KINDS,
    { app: "true", num: "123", quoted: "~", single: "1.5", x: "null" },
  ],
  ["values needing quotes", KINDS, { app: "a: b", tier: " lead", note: "#x", multi: "a\nb" }],
  ["an empty value", KINDS, { app: "", quoted: "" }],
  ["keys needing quotes", KINDS, { true: "t", "1": "one", "a b": "c" }],
  ["no labels", KINDS, {}],
];

describe("set-labels runNodes on fixtures", () => {
  it.each(fixtures)("%s", async (_name, text, data) => {
    const out = await expectSameBothWays(setLabels, fixture(text), () => configMap(data));
    expect(out).toBeDefined();
  });
  it("keeps comments and quotes of edited labels", async () => {
    const out = await expectSameBothWays(setLabels, fixture(KINDS), () =>
      configMap({ app: "true", quoted: "1" }),
    );
    expect(out?.[0]).toContain('    app: "true" # keep me\n    quoted: "1"\n');
  });
  it("only local resources: nothing set", async () => {
    const local = KINDS.slice(KINDS.lastIndexOf("apiVersion: v1\nkind: ConfigMap"));
    await expectSameBothWays(setLabels, fixture(local), () => configMap({ app: "x" }));
  });
  it("a SetLabels config and a bad one", async () => {
    const { docs } = await import("../helpers.js");
    const good = docs(
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata: {name: s}\nlabels: {a: b}\n",
    )[0];
    await expectSameBothWays(setLabels, fixture(KINDS), () => good);
    const bad = docs(
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata: {name: s}\nlabels: [a]\n",
    )[0];
    await expectSameBothWays(setLabels, fixture(KINDS), () => bad);
  });
});
