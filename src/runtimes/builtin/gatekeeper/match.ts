/**
 * A constraint's `spec.match` against an audit review, as Gatekeeper's `admission.k8s.gatekeeper.sh`
 * target library decides it (the Rego `matching_constraints` of the Gatekeeper release the catalog's
 * function embeds): `kinds`, `namespaces`, `excludedNamespaces`, `namespaceSelector`, `scope`, `name`
 * and `labelSelector`, all of which must hold. Values are plain JSON; a field set to `null` counts as
 * present, as in Rego, and `get_default` reads a null as absent.
 */
import type { Review } from "./inventory.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Rego's `has_field(object, field)`: the field exists, whatever its value (false and null included). */
function hasField(object: unknown, field: string): boolean {
  return isObject(object) && Object.hasOwn(object, field);
}

/** The target library's `get_default`: the field's value unless absent or null. */
function getDefault(object: unknown, field: string, fallback: unknown): unknown {
  if (!isObject(object)) return fallback;
  const value = object[field];
  return value === undefined || value === null ? fallback : value;
}

/** Elements of an array value (`x[_]` in Rego); nothing for anything else. */
function elements(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.values(value);
  return [];
}

/**
 * OPA's `glob.match(pattern, [], subject)`: `*` and `?` match within one `.`-separated segment (the
 * default delimiter), `**` across segments; other characters match themselves.
 */
export function globMatch(pattern: string, subject: string): boolean {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (ch === "*") source += "[^.]*";
    else if (ch === "?") source += "[^.]";
    else source += ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s").test(subject);
}

function kindsMatch(match: Json, review: Review): boolean {
  const selectors = getDefault(match, "kinds", [{ apiGroups: ["*"], kinds: ["*"] }]);
  return elements(selectors).some((ks) => {
    if (!isObject(ks)) return false;
    const groups = elements(ks.apiGroups);
    const kinds = elements(ks.kinds);
    return (
      (groups.includes("*") || groups.includes(review.kind.group)) &&
      (kinds.includes("*") || kinds.includes(review.kind.kind))
    );
  });
}

function isNamespaceKind(review: Review): boolean {
  return review.kind.group === "" && review.kind.kind === "Namespace";
}

/** Not a Namespace and without a namespace: the namespace criteria always hold for it. */
function alwaysMatchesNamespaces(review: Review): boolean {
  return !isNamespaceKind(review) && (review.namespace ?? "") === "";
}

/** The namespace the criteria are checked against: a Namespace's own name, else the review's. */
function namespaceName(review: Review): unknown {
  if (isNamespaceKind(review)) {
    const metadata = isObject(review.object) ? review.object.metadata : undefined;
    return isObject(metadata) ? metadata.name : undefined;
  }
  return review.namespace;
}

/** A namespace list holds `ns`, literally or through a prefix/suffix wildcard entry. */
function namespaceListed(list: unknown, ns: unknown): boolean {
  const entries = elements(list);
  if (entries.includes(ns)) return true;
  if (typeof ns !== "string") return false;
  return entries.some(
    (e) => typeof e === "string" && (e.startsWith("*") || e.endsWith("*")) && globMatch(e, ns),
  );
}

function namespacesMatch(match: Json, review: Review): boolean {
  if (!hasField(match, "namespaces") || alwaysMatchesNamespaces(review)) return true;
  const ns = namespaceName(review);
  return ns !== undefined && namespaceListed(match.namespaces, ns);
}

function excludedNamespacesMatch(match: Json, review: Review): boolean {
  if (!hasField(match, "excludedNamespaces") || alwaysMatchesNamespaces(review)) return true;
  const ns = namespaceName(review);
  return ns !== undefined && !namespaceListed(match.excludedNamespaces, ns);
}

function scopeMatches(match: Json, review: Review): boolean {
  if (!hasField(match, "scope")) return true;
  const namespaced = (review.namespace ?? "") !== "";
  if (match.scope === "*") return true;
  if (match.scope === "Namespaced") return namespaced;
  if (match.scope === "Cluster") return !namespaced;
  return false;
}

function nameMatches(match: Json, review: Review): boolean {
  if (!hasField(match, "name")) return true;
  const wanted = match.name;
  const metadata = isObject(review.object) ? review.object.metadata : undefined;
  const names = [review.name, isObject(metadata) ? metadata.name : undefined];
  return names.some(
    (name) =>
      name !== undefined &&
      (name === wanted ||
        (typeof wanted === "string" &&
          typeof name === "string" &&
          wanted.endsWith("*") &&
          globMatch(wanted, name))),
  );
}

/** One `matchExpressions` entry is violated by `labels` (the target library's rules). */
function expressionViolated(operator: unknown, labels: Json, key: unknown, values: unknown[]): boolean {
  const has = typeof key === "string" && Object.hasOwn(labels, key);
  const value = has ? labels[key as string] : undefined;
  switch (operator) {
    case "In":
      return !has || (values.length > 0 && !values.includes(value));
    case "NotIn":
      return has && values.length > 0 && values.includes(value);
    case "Exists":
      return !has;
    case "DoesNotExist":
      return has;
    default:
      return false;
  }
}

/** Kubernetes label selector semantics as the target library implements them. */
export function labelSelectorMatches(selector: unknown, labels: Json): boolean {
  const matchLabels = getDefault(selector, "matchLabels", {});
  if (isObject(matchLabels)) {
    for (const [key, want] of Object.entries(matchLabels)) {
      if (!Object.hasOwn(labels, key) || labels[key] !== want) return false;
    }
  }
  for (const expr of elements(getDefault(selector, "matchExpressions", []))) {
    if (!isObject(expr)) continue;
    const values = elements(getDefault(expr, "values", []));
    if (expressionViolated(expr.operator, labels, expr.key, values)) return false;
  }
  return true;
}

function labelsOf(object: unknown): Json {
  const labels = getDefault(getDefault(object, "metadata", {}), "labels", {});
  return isObject(labels) ? labels : {};
}

function namespaceSelectorMatches(
  match: Json,
  review: Review,
  namespaceObject: (name: string) => unknown,
): boolean {
  if (!hasField(match, "namespaceSelector") || alwaysMatchesNamespaces(review)) return true;
  const selector = getDefault(match, "namespaceSelector", {});
  if (isNamespaceKind(review)) return labelSelectorMatches(selector, labelsOf(review.object));
  const ns = typeof review.namespace === "string" ? namespaceObject(review.namespace) : undefined;
  // A namespace that is not in the package is not known: the constraint does not select the object.
  return ns !== undefined && labelSelectorMatches(selector, labelsOf(ns));
}

/**
 * Whether the constraint selects the reviewed object. `namespaceObject` returns the `v1` Namespace of
 * that name from the inventory (for `namespaceSelector`), or undefined.
 */
export function constraintMatches(
  constraint: Json,
  review: Review,
  namespaceObject: (name: string) => unknown,
): boolean {
  const match = getDefault(getDefault(constraint, "spec", {}), "match", {});
  if (!isObject(match)) return false;
  return (
    kindsMatch(match, review) &&
    namespacesMatch(match, review) &&
    excludedNamespacesMatch(match, review) &&
    namespaceSelectorMatches(match, review, namespaceObject) &&
    scopeMatches(match, review) &&
    nameMatches(match, review) &&
    labelSelectorMatches(getDefault(match, "labelSelector", {}), labelsOf(review.object))
  );
}
