import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkConstraint } from "../../../../src/runtimes/builtin/gatekeeper/constraints.js";
import { buildInventory } from "../../../../src/runtimes/builtin/gatekeeper/inventory.js";
import { readTemplate } from "../../../../src/runtimes/builtin/gatekeeper/templates.js";
import { docs } from "../../helpers.js";

const TEMPLATE = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8srequiredlabels
spec:
  crd:
    spec:
      names:
        kind: K8sRequiredLabels
      validation:
        openAPIV3Schema:
          type: object
          properties:
            labels:
              type: array
              items:
                type: string
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8srequiredlabels
        violation[{"msg": "x"}] { true }
      libs:
        - |
          package lib.helpers
`;

const template = (edit?: (t: Record<string, unknown>) => void) => {
  const t = parse(TEMPLATE) as Record<string, unknown>;
  edit?.(t);
  return t;
};
// biome-ignore lint/suspicious/noExplicitAny: test edits of plain YAML
type Any = any;

describe("gatekeeper ConstraintTemplates", () => {
  it("reads kind, parameters schema, Rego and libs", () => {
    const t = readTemplate(template());
    expect(t.name).toBe("k8srequiredlabels");
    expect(t.kind).toBe("K8sRequiredLabels");
    expect(t.rego?.libs).toEqual(["package lib.helpers\n"]);
    expect(t.parametersSchema).toMatchObject({ type: "object" });
  });

  it("reads the code[] entry with engine Rego, and a CEL-only template's K8sNativeValidation source", () => {
    const rego = readTemplate(
      template((t: Any) => {
        t.spec.targets[0] = {
          target: "admission.k8s.gatekeeper.sh",
          code: [
            { engine: "K8sNativeValidation", source: { validations: [{ expression: "true" }] } },
            {
              engine: "Rego",
              source: { rego: "package p\nviolation[{}] { false }", libs: ["package lib.a"] },
            },
          ],
        };
      }),
    );
    expect(rego.rego).toEqual({ rego: "package p\nviolation[{}] { false }", libs: ["package lib.a"] });
    const cel = readTemplate(
      template((t: Any) => {
        t.spec.targets[0] = {
          target: "admission.k8s.gatekeeper.sh",
          code: [{ engine: "K8sNativeValidation", source: { validations: [{ expression: "true" }] } }],
        };
      }),
    );
    expect(cel.rego).toBeUndefined();
    expect(cel.cel).toEqual({ validations: [{ expression: "true" }] });
  });

  it("reports invalid templates as the catalog's function does", () => {
    const message = (edit: (t: Any) => void) => {
      try {
        readTemplate(template(edit));
      } catch (err) {
        return (err as Error).message;
      }
      return "no error";
    };
    expect(message((t) => (t.metadata.name = "other"))).toBe(
      `adding template "other": invalid ConstraintTemplate: the ConstraintTemplate's name "other" is not equal to the lowercase of CRD's Kind: "k8srequiredlabels"`,
    );
    expect(message((t) => (t.spec.crd.spec.names = {}))).toBe(
      `adding template "k8srequiredlabels": invalid ConstraintTemplate: ConstraintTemplate "k8srequiredlabels" does not specify CRD Kind`,
    );
    expect(message((t) => (t.spec.targets = []))).toBe(
      `adding template "k8srequiredlabels": failed to validate targets for template k8srequiredlabels: invalid ConstraintTemplate: no targets specified: ConstraintTemplate must specify one target`,
    );
    expect(message((t) => t.spec.targets.push(t.spec.targets[0]))).toContain(
      "multi-target templates are not currently supported",
    );
    expect(message((t) => (t.spec.targets[0].target = "x"))).toContain(
      `target "x" not recognized, known targets [admission.k8s.gatekeeper.sh]`,
    );
    expect(message((t) => (t.apiVersion = "templates.gatekeeper.sh/v2"))).toContain(
      `converting unstructured "k8srequiredlabels" to template: adding template: no kind "ConstraintTemplate" is registered for version "templates.gatekeeper.sh/v2"`,
    );
    expect(message((t) => (t.spec.targets[0].rego = 3))).toBe(
      `converting unstructured "k8srequiredlabels" to template: adding template: json: cannot unmarshal number into Go struct field Target.spec.targets.rego of type string`,
    );
    expect(message((t) => (t.spec.targets[0] = { target: "admission.k8s.gatekeeper.sh" }))).toContain(
      "the target has no Rego",
    );
  });
});

describe("gatekeeper constraints", () => {
  const templates = new Map([["k8srequiredlabels", readTemplate(template())]]);
  const constraint = (spec: unknown, extra: Record<string, unknown> = {}) => ({
    apiVersion: "constraints.gatekeeper.sh/v1beta1",
    kind: "K8sRequiredLabels",
    metadata: { name: "must-have-owner" },
    spec,
    ...extra,
  });
  const message = (c: Record<string, unknown>) => {
    try {
      checkConstraint(c, templates);
    } catch (err) {
      return (err as Error).message;
    }
    return "ok";
  };

  it("accepts a valid constraint and finds its template", () => {
    const spec = {
      match: { kinds: [{ apiGroups: [""], kinds: ["Pod"] }], namespaces: ["kube-*"] },
      parameters: { labels: ["owner"] },
    };
    expect(checkConstraint(constraint(spec), templates).kind).toBe("K8sRequiredLabels");
  });

  it("reports a constraint without template, with a wrong spec, name or version", () => {
    expect(message(constraint({}, { kind: "Other" }))).toBe(
      `adding constraint "must-have-owner": missing ConstraintTemplate: Constraint kind "Other" is not recognized, known kinds [k8srequiredlabels]`,
    );
    expect(message(constraint({ parameters: { labels: "owner" } }))).toBe(
      `adding constraint "must-have-owner": spec.parameters.labels: Invalid value: "string": spec.parameters.labels in body must be of type array: "string"`,
    );
    expect(message(constraint({ match: { scope: "Everywhere" } }))).toBe(
      `adding constraint "must-have-owner": spec.match.scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"`,
    );
    expect(message(constraint({ match: { namespaces: ["k*s"] } }))).toContain(
      `spec.match.namespaces[0]: Invalid value: "k*s": spec.match.namespaces[0] in body should match`,
    );
    expect(message(constraint({}, { metadata: { name: "Bad_Name" } }))).toContain(
      `adding constraint "Bad_Name": invalid Constraint: invalid name: "a lowercase RFC 1123 subdomain`,
    );
    expect(message(constraint({}, { apiVersion: "constraints.gatekeeper.sh/v1" }))).toBe(
      `adding constraint "must-have-owner": invalid Constraint: unsupported version "v1" for Constraint "must-have-owner"; supported versions: map[v1alpha1:true v1beta1:true]`,
    );
    expect(
      message(constraint({ match: { labelSelector: { matchExpressions: [{ key: "a", operator: "In" }] } } })),
    ).toBe(
      "adding constraint \"must-have-owner\": spec.labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    );
  });
});

describe("gatekeeper inventory", () => {
  it("places resources by namespace, apiVersion, kind and name, and reviews each", () => {
    const inventory = buildInventory(
      docs(`apiVersion: v1
kind: Namespace
metadata:
  name: prod
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  labels: {second: "true"}
`),
    );
    expect(Object.keys(inventory.data.cluster ?? {})).toEqual(["v1"]);
    const deployments = (inventory.data.namespace as Record<string, Record<string, Record<string, unknown>>>)
      .prod["apps/v1"].Deployment as Record<string, { metadata: { labels?: unknown } }>;
    expect(deployments.web.metadata.labels).toEqual({ second: "true" });
    expect(inventory.entries.map((e) => e.review.kind)).toEqual([
      { group: "", version: "v1", kind: "Namespace" },
      { group: "apps", version: "v1", kind: "Deployment" },
    ]);
    expect(inventory.entries[1].review.namespace).toBe("prod");
    expect(inventory.namespace("prod")).toMatchObject({ kind: "Namespace" });
  });

  it("fails as the catalog does on a resource without version", () => {
    expect(() =>
      buildInventory(docs("apiVersion: example.com/\nkind: Thing\nmetadata:\n  name: t\n")),
    ).toThrow(
      'adding data of GVK "example.com/, Kind=Thing": admission.k8s.gatekeeper.sh: resource t has no version',
    );
  });
});
