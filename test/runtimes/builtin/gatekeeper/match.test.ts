import { describe, expect, it } from "vitest";
import type { Review } from "../../../../src/runtimes/builtin/gatekeeper/inventory.js";
import {
  constraintMatches,
  globMatch,
  labelSelectorMatches,
} from "../../../../src/runtimes/builtin/gatekeeper/match.js";

function review(
  apiVersion: string,
  kind: string,
  name: string,
  namespace?: string,
  labels?: Record<string, string>,
): Review {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const metadata: Record<string, unknown> = { name };
  if (namespace) metadata.namespace = namespace;
  if (labels) metadata.labels = labels;
  const r: Review = { kind: { group, version, kind }, name, object: { apiVersion, kind, metadata } };
  if (namespace) r.namespace = namespace;
  return r;
}

const constraint = (match: unknown) => ({ spec: { match } });
const noNamespaces = () => undefined;
const pod = review("v1", "Pod", "web", "prod", { app: "web", tier: "front" });
const clusterRole = review("rbac.authorization.k8s.io/v1", "ClusterRole", "admin");

describe("gatekeeper match", () => {
  it("matches everything without match, and kinds by group and kind (with wildcards)", () => {
    expect(constraintMatches({}, pod, noNamespaces)).toBe(true);
    expect(
      constraintMatches(constraint({ kinds: [{ apiGroups: [""], kinds: ["Pod"] }] }), pod, noNamespaces),
    ).toBe(true);
    expect(
      constraintMatches(constraint({ kinds: [{ apiGroups: ["apps"], kinds: ["Pod"] }] }), pod, noNamespaces),
    ).toBe(false);
    expect(
      constraintMatches(
        constraint({ kinds: [{ apiGroups: ["*"], kinds: ["*"] }] }),
        clusterRole,
        noNamespaces,
      ),
    ).toBe(true);
    // An empty list selects nothing; a selector without apiGroups selects nothing either.
    expect(constraintMatches(constraint({ kinds: [] }), pod, noNamespaces)).toBe(false);
    expect(constraintMatches(constraint({ kinds: [{ kinds: ["Pod"] }] }), pod, noNamespaces)).toBe(false);
  });

  it("namespaces and excludedNamespaces, with prefix and suffix wildcards; objects without namespace always match", () => {
    expect(constraintMatches(constraint({ namespaces: ["prod"] }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ namespaces: ["pr*"] }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ namespaces: ["*od"] }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ namespaces: ["dev"] }), pod, noNamespaces)).toBe(false);
    expect(constraintMatches(constraint({ excludedNamespaces: ["prod"] }), pod, noNamespaces)).toBe(false);
    expect(constraintMatches(constraint({ excludedNamespaces: ["kube-*"] }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ namespaces: ["default"] }), clusterRole, noNamespaces)).toBe(true);
    const unnamespacedPod = review("v1", "Pod", "p");
    expect(constraintMatches(constraint({ namespaces: ["default"] }), unnamespacedPod, noNamespaces)).toBe(
      true,
    );
    // A Namespace is matched by its own name.
    const ns = review("v1", "Namespace", "prod");
    expect(constraintMatches(constraint({ namespaces: ["prod"] }), ns, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ excludedNamespaces: ["prod"] }), ns, noNamespaces)).toBe(false);
  });

  it("namespaceSelector reads the Namespace from the inventory; an unknown namespace does not match", () => {
    const nsLabels = { env: "prod" };
    const lookup = (name: string) => (name === "prod" ? { metadata: { name, labels: nsLabels } } : undefined);
    const sel = constraint({ namespaceSelector: { matchLabels: { env: "prod" } } });
    expect(constraintMatches(sel, pod, lookup)).toBe(true);
    expect(constraintMatches(sel, review("v1", "Pod", "x", "other"), lookup)).toBe(false);
    expect(constraintMatches(sel, clusterRole, lookup)).toBe(true);
    expect(constraintMatches(sel, review("v1", "Namespace", "n", undefined, { env: "prod" }), lookup)).toBe(
      true,
    );
    expect(constraintMatches(sel, review("v1", "Namespace", "n", undefined, { env: "dev" }), lookup)).toBe(
      false,
    );
  });

  it("scope and name (exact or prefix wildcard)", () => {
    expect(constraintMatches(constraint({ scope: "Namespaced" }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ scope: "Cluster" }), pod, noNamespaces)).toBe(false);
    expect(constraintMatches(constraint({ scope: "Cluster" }), clusterRole, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ scope: "*" }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ name: "web" }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ name: "we*" }), pod, noNamespaces)).toBe(true);
    expect(constraintMatches(constraint({ name: "*eb" }), pod, noNamespaces)).toBe(false);
    expect(constraintMatches(constraint({ name: "db" }), pod, noNamespaces)).toBe(false);
  });

  it("labelSelector: matchLabels and the four operators", () => {
    const labels = { app: "web", tier: "front" };
    expect(labelSelectorMatches({ matchLabels: { app: "web" } }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { app: "db" } }, labels)).toBe(false);
    const expr = (operator: string, key: string, values?: string[]) => ({
      matchExpressions: [{ key, operator, ...(values ? { values } : {}) }],
    });
    expect(labelSelectorMatches(expr("In", "tier", ["front", "back"]), labels)).toBe(true);
    expect(labelSelectorMatches(expr("In", "tier", ["back"]), labels)).toBe(false);
    expect(labelSelectorMatches(expr("In", "missing", ["x"]), labels)).toBe(false);
    expect(labelSelectorMatches(expr("NotIn", "tier", ["front"]), labels)).toBe(false);
    expect(labelSelectorMatches(expr("NotIn", "missing", ["x"]), labels)).toBe(true);
    expect(labelSelectorMatches(expr("Exists", "app"), labels)).toBe(true);
    expect(labelSelectorMatches(expr("Exists", "missing"), labels)).toBe(false);
    expect(labelSelectorMatches(expr("DoesNotExist", "app"), labels)).toBe(false);
    expect(
      constraintMatches(constraint({ labelSelector: { matchLabels: { app: "web" } } }), pod, noNamespaces),
    ).toBe(true);
    expect(
      constraintMatches(constraint({ labelSelector: { matchLabels: { app: "x" } } }), pod, noNamespaces),
    ).toBe(false);
  });

  it("globs as OPA's glob.match with the default '.' delimiter", () => {
    expect(globMatch("kube-*", "kube-system")).toBe(true);
    expect(globMatch("pod-*", "pod-a.b")).toBe(false);
    expect(globMatch("*-system", "kube-system")).toBe(true);
    expect(globMatch("a+b*", "a+bc")).toBe(true);
  });
});
