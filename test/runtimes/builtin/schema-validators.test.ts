import { describe, expect, it } from "vitest";
import { kubeconform, kubeval } from "../../../src/runtimes/builtin/schema-validators.js";
import { configMap, runBuiltin } from "../helpers.js";

const PATH = `    internal.config.kubernetes.io/path: app.yaml
    internal.config.kubernetes.io/index: "1"`;

const INVALID = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  annotations:
${PATH}
spec:
  replicas: three
  extra: 1
  template:
    spec:
      containers:
        - name: app
          image: 7
          ports:
            - containerPort: http
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
---
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
`;

describe("kubeconform", () => {
  it("reports each invalid field as kubeconform words it, with resource, field and file", async () => {
    const out = await runBuiltin(kubeconform, INVALID, configMap({ strict: "true" }));
    expect(out.results.map((r) => [r.field?.path, r.message])).toEqual([
      ["spec", "missing property 'selector'"],
      ["spec.replicas", "got string, want null or integer"],
      ["spec.template.spec.containers.0", "validation failed"],
      ["spec", "additional properties 'extra' not allowed"],
    ]);
    expect(out.results[0]).toMatchObject({
      severity: "error",
      resourceRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web", namespace: "prod" },
      file: { path: "app.yaml", index: 1 },
    });
  });

  it("allows unknown fields unless strict, and passes resources without a schema by", async () => {
    const out = await runBuiltin(kubeconform, INVALID, configMap({}));
    expect(out.results.map((r) => r.message)).not.toContain("additional properties 'extra' not allowed");
    expect(out.results.some((r) => r.resourceRef?.kind === "Widget")).toBe(false);
  });

  it("skips kinds and validates a valid resource without results", async () => {
    const valid = `apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  ports:
    - port: 80
      targetPort: http
`;
    expect((await runBuiltin(kubeconform, valid, configMap({ strict: "true" }))).results).toEqual([]);
    const skipped = await runBuiltin(kubeconform, INVALID, configMap({ skip_kinds: "Deployment" }));
    expect(skipped.results).toEqual([]);
  });

  it("validates against the requested Kubernetes version and refuses schema locations", async () => {
    const old = await runBuiltin(kubeconform, INVALID, configMap({ kubernetes_version: "1.8.0" }));
    expect(old.results).toEqual([]); // apps/v1 did not exist yet: no schema
    const bad = await runBuiltin(kubeconform, INVALID, configMap({ kubernetes_version: "1.99.0" }));
    expect(bad.results[0].message).toMatch(/^kubernetes_version "1.99.0": no schemas ship for it/);
    const remote = await runBuiltin(kubeconform, INVALID, configMap({ schema_locations: "https://x" }));
    expect(remote.results).toHaveLength(1);
    expect(remote.results[0].message).toMatch(/^schema_locations is not supported by the builtin/);
    expect(remote.results[0].severity).toBe("error");
  });

  it("reports int-or-string fields that are neither", async () => {
    const svc = `apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  ports:
    - port: 80
      targetPort: true
`;
    const out = await runBuiltin(kubeconform, svc, configMap({}));
    expect(out.results.map((r) => [r.field?.path, r.message])).toEqual([
      ["spec.ports.0.targetPort", "oneOf failed, none matched"],
    ]);
  });
});

describe("kubeval", () => {
  it("validates APIs newer than 1.17 against Kubernetes 1.27.1 by default", async () => {
    const cron = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: job
              image: busybox
          restartPolicy: OnFailure
`;
    expect((await runBuiltin(kubeval, cron, configMap({ strict: "true" }))).results).toEqual([]);
    const old = await runBuiltin(kubeval, cron, configMap({ kubernetes_version: "1.17" }));
    expect(old.results[0].message).toMatch(/^Validating arbitrary CRDs is not supported yet/);
  });

  it("reports gojsonschema's errors, additional properties before the fields below", async () => {
    const out = await runBuiltin(kubeval, INVALID, configMap({ strict: "true", skip_kinds: "Widget" }));
    expect(out.results.map((r) => [r.field?.path, r.message])).toEqual([
      ["selector", "selector is required"],
      ["extra", "Additional property extra is not allowed"],
      ["spec.replicas", "Invalid type. Expected: [integer,null], given: string"],
      ["spec.template.spec.containers.0.image", "Invalid type. Expected: [string,null], given: integer"],
      [
        "spec.template.spec.containers.0.ports.0.containerPort",
        "Invalid type. Expected: integer, given: string",
      ],
    ]);
    expect(out.stderr).toBe("");
  });

  it("reports resources without a schema unless skipped or ignored (Kptfiles aside)", async () => {
    const out = await runBuiltin(kubeval, INVALID, configMap({}));
    const missing = out.results.filter((r) => r.resourceRef?.kind !== "Deployment");
    expect(missing).toHaveLength(1);
    expect(missing[0].message).toMatch(/^Validating arbitrary CRDs is not supported yet\. You can skip them/);
    expect(missing[0].resourceRef).toMatchObject({ kind: "Widget", name: "w" });
    const ignored = await runBuiltin(kubeval, INVALID, configMap({ ignore_missing_schemas: "true" }));
    expect(ignored.results.some((r) => r.resourceRef?.kind === "Widget")).toBe(false);
  });
});

describe("Config Connector resources", () => {
  const CNRM = `apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Folder
metadata:
  name: team
spec:
  displayName: Team
  organizationRef:
    external: "123"
---
apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeNetwork
metadata:
  name: net
spec:
  routingMode: GLOBAL
  autoCreateSubnetworks: "no"
  bogus: 1
---
apiVersion: example.cnrm.cloud.google.com/v1beta1
kind: NoSuchKind
metadata:
  name: n
`;

  it("kubeval validates them against the Config Connector schemas the catalog's image ships", async () => {
    const out = await runBuiltin(kubeval, CNRM, configMap({ strict: "true" }));
    expect(out.results.map((r) => [r.resourceRef?.name, r.field?.path, r.message.split("\n")[0]])).toEqual([
      ["net", "bogus", "Additional property bogus is not allowed"],
      ["net", "spec.autoCreateSubnetworks", "Invalid type. Expected: [boolean,null], given: string"],
      [
        "n",
        undefined,
        "Validating arbitrary CRDs is not supported yet. You can skip them by setting ignore_missing_schemas or skip_kinds in the function config:",
      ],
    ]);
  });

  it("kubeval accepts spec.description where Config Connector's CRDs define it, strict or not", async () => {
    const described = `apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeInstance
metadata:
  name: vm
spec:
  description: a VM with a description
  machineType: n1-standard-1
  zone: us-central1-a
  bootDisk:
    initializeParams:
      sourceImageRef:
        external: debian-cloud/debian-11
  networkInterface:
    - networkRef:
        name: net
---
apiVersion: osconfig.cnrm.cloud.google.com/v1beta1
kind: OSConfigOSPolicyAssignment
metadata:
  name: policy
spec:
  description: keeps the agent installed
  location: us-central1-a
  projectRef:
    external: my-project
  instanceFilter:
    all: true
  rollout:
    disruptionBudget:
      percent: 100
    minWaitDuration: 60s
  osPolicies:
    - id: agent
      description: the agent
      mode: ENFORCEMENT
      resourceGroups:
        - resources:
            - id: pkg
              pkg:
                desiredState: INSTALLED
                apt:
                  name: agent
`;
    for (const strict of ["true", "false"]) {
      const out = await runBuiltin(kubeval, described, configMap({ strict }));
      expect(out.results).toEqual([]);
    }
    const wrong = described.replace("description: a VM with a description", "description: 7\n  bogus: 1");
    const out = await runBuiltin(kubeval, wrong, configMap({ strict: "true" }));
    expect(out.results.map((r) => [r.field?.path, r.message.split("\n")[0]])).toEqual([
      ["bogus", "Additional property bogus is not allowed"],
      ["spec.description", "Invalid type. Expected: [string,null], given: integer"],
    ]);
  });

  it("kubeconform has no schema for them and passes them by, as the catalog's does", async () => {
    const out = await runBuiltin(kubeconform, CNRM, configMap({ strict: "true" }));
    expect(out.results).toEqual([]);
  });
});
