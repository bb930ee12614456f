import { describe, expect, it } from "vitest";
import { compileCel } from "../../../../src/runtimes/builtin/gatekeeper/cel.js";
import type { Review } from "../../../../src/runtimes/builtin/gatekeeper/inventory.js";
import {
  resultsStderr,
  severityOf,
  sortResults,
  violationResult,
} from "../../../../src/runtimes/builtin/gatekeeper/results.js";
import { docs } from "../../helpers.js";

const pod = (labels: Record<string, string>): Review => ({
  kind: { group: "", version: "v1", kind: "Pod" },
  name: "web",
  namespace: "prod",
  object: {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "web", namespace: "prod", labels },
    spec: { replicas: 3 },
  },
});
const constraint = { spec: { parameters: { labels: [{ key: "owner" }], max: 2 } } };

describe("gatekeeper CEL (K8sNativeValidation) templates", () => {
  it("reports failed validations with messageExpression, message or the expression", () => {
    const program = compileCel({
      variables: [
        {
          name: "labels",
          expression: "has(variables.anyObject.metadata.labels) ? variables.anyObject.metadata.labels : {}",
        },
      ],
      validations: [
        {
          expression: "variables.params.labels.all(l, l.key in variables.labels)",
          messageExpression:
            '"missing required label, requires all of: " + variables.params.labels.map(l, l.key).join(", ")',
        },
        { expression: "object.spec.replicas <= params.spec.parameters.max", message: "too many replicas" },
        { expression: "request.namespace != 'prod'" },
      ],
    });
    expect(program.violations(pod({ app: "web" }), constraint, undefined)).toEqual([
      "missing required label, requires all of: owner",
      "too many replicas",
      "failed expression: request.namespace != 'prod'",
    ]);
    expect(program.violations(pod({ owner: "me" }), constraint, undefined)).toEqual([
      "too many replicas",
      "failed expression: request.namespace != 'prod'",
    ]);
  });

  it("skips objects a matchCondition rejects, and reports an evaluation error as a violation", () => {
    const program = compileCel({
      matchConditions: [{ name: "only-labelled", expression: "has(object.metadata.labels.app)" }],
      validations: [{ expression: "object.metadata.labels.nope == 'x'", message: "m" }],
    });
    expect(program.violations(pod({ owner: "me" }), constraint, undefined)).toEqual([]);
    expect(program.violations(pod({ app: "web" }), constraint, undefined)[0]).toMatch(
      /^expression 'object.metadata.labels.nope == 'x'' resulted in error: /,
    );
  });

  it("refuses a source whose expression does not parse", () => {
    expect(() => compileCel({ validations: [{ expression: "1 +" }] })).toThrow(/CEL expression "1 \+"/);
  });
});

describe("gatekeeper results", () => {
  const [a, b] = docs(`apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  namespace: default
  annotations:
    config.kubernetes.io/path: z.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  annotations:
    config.kubernetes.io/path: a.yaml
    config.kubernetes.io/index: "2"
`);

  it("maps enforcement actions to severities as the catalog does", () => {
    expect(["dryrun", "warn", "deny", undefined, "scoped"].map(severityOf)).toEqual([
      "info",
      "warning",
      "error",
      "error",
      "error",
    ]);
  });

  it("words, locates, sorts (file, index, severity, reference, message) and prints results", () => {
    const results = sortResults([
      violationResult("second", "c", "warning", a),
      violationResult("first", "c", "error", a),
      violationResult("other", "c", "info", b),
    ]);
    expect(results.map((r) => r.message)).toEqual([
      "other\nviolatedConstraint: c",
      "first\nviolatedConstraint: c",
      "second\nviolatedConstraint: c",
    ]);
    expect(results[0]).toEqual({
      message: "other\nviolatedConstraint: c",
      severity: "info",
      resourceRef: { apiVersion: "v1", kind: "ConfigMap", name: "a" },
      file: { path: "a.yaml", index: 2 },
    });
    expect(resultsStderr([results[1], { message: "broken", severity: "error" }])).toBe(
      "[error] v1/ConfigMap/default/b : first\nviolatedConstraint: c\n\n[error]  : broken",
    );
  });
});
