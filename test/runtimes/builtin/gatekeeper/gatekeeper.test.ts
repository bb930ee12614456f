import { describe, expect, it } from "vitest";
import { createGatekeeperFunction, gatekeeper } from "../../../../src/runtimes/builtin/gatekeeper/index.js";
import { runBuiltin } from "../../helpers.js";

const at = (path: string, index = 0) =>
  `  annotations:\n    config.kubernetes.io/path: ${path}\n    config.kubernetes.io/index: "${index}"\n`;

const BANNED_KEYS = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8sbannedconfigmapkeys
${at("policy.yaml")}spec:
  crd:
    spec:
      names:
        kind: K8sBannedConfigMapKeys
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |-
        package ban_keys

        violation[{"msg": sprintf("The following banned keys are being used in the ConfigMap: %v", [overlap])}] {
          keys = {key | input.review.object.data[key]}
          banned = {key | input.parameters.keys[_] = key}
          overlap = keys & banned
          count(overlap) > 0
        }
`;

const constraint = (
  name: string,
  keys: string[],
  extra = "",
) => `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sBannedConfigMapKeys
metadata:
  name: ${name}
${at("policy.yaml", 1)}spec:
${extra}  match:
    kinds:
      - apiGroups: [""]
        kinds: [ConfigMap]
  parameters:
    keys: [${keys.join(", ")}]
`;

const configMap = (name: string, index: number, ns = "default") => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${ns}
${at("config.yaml", index)}data:
  private_key: secret
  less_sensitive_key: meh
`;

const join = (...docs: string[]) => docs.join("---\n");

describe("gatekeeper builtin", () => {
  it("reports a violation per constraint on the resource, with severity, reference and file, and fails on errors", async () => {
    const out = await runBuiltin(
      gatekeeper,
      join(
        BANNED_KEYS,
        constraint("no-secrets", ["private_key"]),
        constraint("no-sensitive", ["less_sensitive_key"], "  enforcementAction: dryrun\n"),
        configMap("a", 1),
        configMap("b", 0, "other").replace("private_key: secret\n", ""),
      ),
    );
    expect(out.results).toEqual([
      {
        message:
          'The following banned keys are being used in the ConfigMap: {"less_sensitive_key"}\nviolatedConstraint: no-sensitive',
        severity: "info",
        resourceRef: { apiVersion: "v1", kind: "ConfigMap", name: "b", namespace: "other" },
        file: { path: "config.yaml", index: 0 },
      },
      {
        message:
          'The following banned keys are being used in the ConfigMap: {"private_key"}\nviolatedConstraint: no-secrets',
        severity: "error",
        resourceRef: { apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "default" },
        file: { path: "config.yaml", index: 1 },
      },
      {
        message:
          'The following banned keys are being used in the ConfigMap: {"less_sensitive_key"}\nviolatedConstraint: no-sensitive',
        severity: "info",
        resourceRef: { apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "default" },
        file: { path: "config.yaml", index: 1 },
      },
    ]);
    expect(out.stderr).toBe(
      '[info] v1/ConfigMap/other/b : The following banned keys are being used in the ConfigMap: {"less_sensitive_key"}\nviolatedConstraint: no-sensitive\n\n' +
        '[error] v1/ConfigMap/default/a : The following banned keys are being used in the ConfigMap: {"private_key"}\nviolatedConstraint: no-secrets\n\n' +
        '[info] v1/ConfigMap/default/a : The following banned keys are being used in the ConfigMap: {"less_sensitive_key"}\nviolatedConstraint: no-sensitive',
    );
  });

  it("passes warnings without failing and leaves the resources alone", async () => {
    const input = join(
      BANNED_KEYS,
      constraint("warn-only", ["private_key"], "  enforcementAction: warn\n"),
      configMap("a", 1),
    );
    const out = await runBuiltin(gatekeeper, input);
    expect(out.results.map((r) => r.severity)).toEqual(["warning"]);
    expect(out.stderr).toBe("");
    expect(out.items).toHaveLength(3);
  });

  it("gives referential policies data.inventory (every resource of the package)", async () => {
    const template = `apiVersion: templates.gatekeeper.sh/v1beta1
kind: ConstraintTemplate
metadata:
  name: uniquename
spec:
  crd:
    spec:
      names:
        kind: UniqueName
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package uniquename
        violation[{"msg": msg}] {
          other := data.inventory.namespace[ns][_]["ConfigMap"][input.review.name]
          ns != input.review.namespace
          msg := sprintf("name also used in namespace %v", [ns])
        }
`;
    const out = await runBuiltin(
      gatekeeper,
      join(
        template,
        "apiVersion: constraints.gatekeeper.sh/v1beta1\nkind: UniqueName\nmetadata:\n  name: unique\n",
        configMap("same", 0, "a"),
        configMap("same", 1, "b"),
        configMap("alone", 2, "a"),
      ),
    );
    expect(out.results.map((r) => [r.resourceRef?.namespace, r.message])).toEqual([
      ["a", "name also used in namespace b\nviolatedConstraint: unique"],
      ["b", "name also used in namespace a\nviolatedConstraint: unique"],
    ]);
  });

  it("fails the whole step on an invalid template or a constraint without template, with no violations", async () => {
    const broken = await runBuiltin(
      gatekeeper,
      join(
        BANNED_KEYS.replace("count(overlap) > 0", "count(overlap) >"),
        constraint("c", ["private_key"]),
        configMap("a", 1),
      ),
    );
    expect(broken.results).toHaveLength(1);
    expect(broken.results[0].message).toMatch(
      /^adding template "k8sbannedconfigmapkeys": invalid ConstraintTemplate: .*rego_parse_error/,
    );
    expect(broken.results[0].resourceRef).toBeUndefined();
    const orphan = await runBuiltin(gatekeeper, join(constraint("c", ["private_key"]), configMap("a", 1)));
    expect(orphan.results).toEqual([
      {
        message:
          'adding constraint "c": missing ConstraintTemplate: Constraint kind "K8sBannedConfigMapKeys" is not recognized, known kinds []',
        severity: "error",
      },
    ]);
    expect(orphan.stderr).toBe(
      '[error]  : adding constraint "c": missing ConstraintTemplate: Constraint kind "K8sBannedConfigMapKeys" is not recognized, known kinds []',
    );
    const noViolation = await runBuiltin(
      gatekeeper,
      join(BANNED_KEYS.replace("violation[", "deny["), constraint("c", ["private_key"]), configMap("a", 1)),
    );
    expect(noViolation.results[0].message).toBe(
      'adding template "k8sbannedconfigmapkeys": invalid ConstraintTemplate: invalid rego: invalid module: missing required rules: [violation]',
    );
  });

  it("refuses templates that read data other than data.lib and data.inventory, or import input, as Gatekeeper does", async () => {
    const reading = await runBuiltin(
      gatekeeper,
      join(
        BANNED_KEYS.replace(
          "count(overlap) > 0",
          "count(overlap) > 0\n          data.kubernetes.namespaces[_]",
        ),
        configMap("a", 1),
      ),
    );
    expect(reading.results).toEqual([
      {
        message:
          'adding template "k8sbannedconfigmapkeys": invalid ConstraintTemplate: invalid data references: check refs failed on module templates["admission.k8s.gatekeeper.sh"]["K8sBannedConfigMapKeys"]: errors (1):\ndisallowed ref data.kubernetes.namespaces[_]\n',
        severity: "error",
      },
    ]);
    const importing = await runBuiltin(
      gatekeeper,
      join(
        BANNED_KEYS.replace("package ban_keys\n", "package ban_keys\n        import input.review\n"),
        configMap("a", 1),
      ),
    );
    expect(importing.results[0].message).toBe(
      'adding template "k8sbannedconfigmapkeys": invalid ConstraintTemplate: invalid import: bad import',
    );
  });

  it("evaluates CEL-only (K8sNativeValidation) templates", async () => {
    const template = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8smaxreplicas
spec:
  crd:
    spec:
      names:
        kind: K8sMaxReplicas
  targets:
    - target: admission.k8s.gatekeeper.sh
      code:
        - engine: K8sNativeValidation
          source:
            validations:
              - expression: "object.spec.replicas <= variables.params.max"
                messageExpression: "'replicas ' + string(object.spec.replicas) + ' > ' + string(variables.params.max)"
`;
    const deployment = (name: string, replicas: number) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n`;
    const out = await runBuiltin(
      gatekeeper,
      join(
        template,
        "apiVersion: constraints.gatekeeper.sh/v1beta1\nkind: K8sMaxReplicas\nmetadata:\n  name: max\nspec:\n  match:\n    kinds: [{apiGroups: [apps], kinds: [Deployment]}]\n  parameters:\n    max: 3\n",
        deployment("small", 2),
        deployment("big", 5),
      ),
    );
    expect(out.results.map((r) => [r.resourceRef?.name, r.message])).toEqual([
      ["big", "replicas 5 > 3\nviolatedConstraint: max"],
    ]);
  });

  it("stops a policy that runs past its time budget with an error result", async () => {
    const slow = createGatekeeperFunction({ timeoutMs: 200 });
    const template = BANNED_KEYS.replace(
      "count(overlap) > 0",
      "count(overlap) > 0\n          n := [x | x := numbers.range(1, 100000000)[_]; x > 0]\n          count(n) > 0",
    );
    const out = await runBuiltin(slow, join(template, constraint("c", ["private_key"]), configMap("a", 1)));
    expect(out.results).toHaveLength(1);
    expect(out.results[0].resourceRef).toBeUndefined();
    expect(out.results[0].message).toMatch(/^admission\.k8s\.gatekeeper\.sh: .*(time|budget)/);
  }, 30_000);
});
