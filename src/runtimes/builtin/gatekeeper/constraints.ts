/**
 * Constraints (`constraints.gatekeeper.sh`, kind = a template's CRD kind) checked as Gatekeeper's
 * constraint framework checks them when one is added: its template is known, it has a name (a DNS-1123
 * subdomain), version `v1beta1` or `v1alpha1`, a `spec` valid against the CRD Gatekeeper generates
 * (the target's `match` schema, `enforcementAction` a string, `parameters` against the template's
 * schema) and valid label selectors. Errors are worded as the catalog's function reports them
 * (`adding constraint "<name>": ...`).
 */
import { GatekeeperError } from "./errors.js";
import { aggregate, checkSchema } from "./schema-check.js";
import type { ConstraintTemplate } from "./templates.js";

type Json = Record<string, unknown>;

/** The group every constraint belongs to. */
export const CONSTRAINT_GROUP = "constraints.gatekeeper.sh";
const CONSTRAINT_VERSIONS = ["v1alpha1", "v1beta1"];
const WILDCARD_NAME = String.raw`^(\*|\*-)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\*|-\*)?$`;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

const nullableStrings = { type: "array", items: { type: "string", nullable: true } };
const wildcardList = { type: "array", items: { type: "string", pattern: WILDCARD_NAME } };
const labelSelector = {
  type: "object",
  properties: {
    matchLabels: { type: "object", additionalProperties: { type: "string" } },
    matchExpressions: {
      type: "array",
      items: {
        type: "object",
        properties: {
          key: { type: "string" },
          operator: { type: "string", enum: ["In", "NotIn", "Exists", "DoesNotExist"] },
          values: { type: "array", items: { type: "string" } },
        },
      },
    },
  },
};

/** The `admission.k8s.gatekeeper.sh` target's match schema. */
const MATCH_SCHEMA = {
  type: "object",
  properties: {
    kinds: {
      type: "array",
      items: { type: "object", properties: { apiGroups: nullableStrings, kinds: nullableStrings } },
    },
    namespaces: wildcardList,
    excludedNamespaces: wildcardList,
    labelSelector,
    namespaceSelector: labelSelector,
    scope: { type: "string", enum: ["*", "Cluster", "Namespaced"] },
    name: { type: "string", pattern: WILDCARD_NAME },
  },
};

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether a resource is a constraint (its group; its kind names the template). */
export function isConstraint(object: Json): boolean {
  const apiVersion = typeof object.apiVersion === "string" ? object.apiVersion : "";
  return apiVersion.includes("/") && apiVersion.split("/")[0] === CONSTRAINT_GROUP;
}

function qualifiedNameProblem(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) {
    return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  }
  if (name.length > 63) return "name part must be no more than 63 characters";
  if (!LABEL_NAME.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** Kubernetes' `ValidateLabelSelector` (the field path is `spec.labelSelector`, as Gatekeeper passes it). */
function selectorErrors(selector: unknown, errors: string[]): void {
  if (!isObject(selector)) return;
  const path = "spec.labelSelector";
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((expr, i) => {
    if (!isObject(expr)) return;
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(expr.values) ? expr.values : [];
    if ((expr.operator === "In" || expr.operator === "NotIn") && values.length === 0) {
      errors.push(`${at}.values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`);
    }
    if ((expr.operator === "Exists" || expr.operator === "DoesNotExist") && values.length > 0) {
      errors.push(
        `${at}.values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      );
    }
    const problem = qualifiedNameProblem(typeof expr.key === "string" ? expr.key : "");
    if (problem) errors.push(`${at}.key: Invalid value: ${JSON.stringify(expr.key ?? "")}: ${problem}`);
  });
  const matchLabels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  for (const key of Object.keys(matchLabels)) {
    const problem = qualifiedNameProblem(key);
    if (problem) errors.push(`${path}.matchLabels: Invalid value: ${JSON.stringify(key)}: ${problem}`);
  }
}

function specErrors(spec: unknown, template: ConstraintTemplate): string[] {
  const errors: string[] = [];
  if (spec === undefined) return errors;
  checkSchema({ type: "object" }, spec, "spec", errors);
  if (!isObject(spec)) return errors;
  checkSchema(MATCH_SCHEMA, spec.match, "spec.match", errors);
  checkSchema({ type: "string" }, spec.enforcementAction, "spec.enforcementAction", errors);
  if (template.parametersSchema)
    checkSchema(template.parametersSchema, spec.parameters, "spec.parameters", errors);
  return errors;
}

/**
 * Checks a constraint against the templates read so far (keyed by template name).
 * @returns the template the constraint instantiates.
 * @throws GatekeeperError worded as the catalog's function.
 */
export function checkConstraint(
  object: Json,
  templates: ReadonlyMap<string, ConstraintTemplate>,
): ConstraintTemplate {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === "string" ? metadata.name : "";
  const kind = typeof object.kind === "string" ? object.kind : "";
  const fail = (message: string) =>
    new GatekeeperError(`adding constraint ${JSON.stringify(name)}: ${message}`);
  if (kind === "") throw fail(`invalid Constraint: kind missing from Constraint ${JSON.stringify(name)}`);
  const template = templates.get(kind.toLowerCase());
  if (!template) {
    const known = [...templates.keys()].sort().join(" ");
    throw fail(
      `missing ConstraintTemplate: Constraint kind ${JSON.stringify(kind)} is not recognized, known kinds [${known}]`,
    );
  }
  if (name === "") throw fail("creating Constraint subpath: invalid Constraint: missing name");
  const errors = specErrors(object.spec, template);
  checkSchema({ type: "string", maxLength: 63 }, name, "metadata.name", errors);
  if (errors.length > 0) throw fail(aggregate(errors));
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) {
    const why =
      name.length > 253
        ? "must be no more than 253 characters"
        : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    throw fail(`invalid Constraint: invalid name: ${JSON.stringify(why)}`);
  }
  if (kind !== template.kind) {
    throw fail(
      `invalid Constraint: wrong kind ${JSON.stringify(name)} for constraint ${JSON.stringify(kind)}; want ${JSON.stringify(template.kind)}`,
    );
  }
  const version = String(object.apiVersion).split("/")[1] ?? "";
  if (!CONSTRAINT_VERSIONS.includes(version)) {
    throw fail(
      `invalid Constraint: unsupported version ${JSON.stringify(version)} for Constraint ${JSON.stringify(name)}; supported versions: map[v1alpha1:true v1beta1:true]`,
    );
  }
  const match = isObject(object.spec) ? object.spec.match : undefined;
  const selectorProblems: string[] = [];
  if (isObject(match)) {
    selectorErrors(match.labelSelector, selectorProblems);
    if (selectorProblems.length === 0) selectorErrors(match.namespaceSelector, selectorProblems);
  }
  if (selectorProblems.length > 0) throw fail(aggregate(selectorProblems));
  return template;
}
