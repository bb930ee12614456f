/**
 * `set-namespace` (krm-functions-catalog): sets `metadata.namespace` of namespace-scoped resources,
 * renames `Namespace` objects, and updates the namespace fields of ClusterRoleBinding subjects, CRD
 * conversion webhooks, APIServices and `config.kubernetes.io/depends-on` annotations. Local-config
 * resources (the Kptfile included when annotated) are skipped.
 */
import { isMap } from "yaml";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import {
  configErrorResult,
  configMapData,
  configType,
  FN_CONFIG_GROUP,
  isEmptyConfig,
} from "./function-config.js";
import { isClusterScoped, isNamespaceScoped } from "./k8s-scope.js";
import {
  getAnnotation,
  getMap,
  getSeq,
  getString,
  goList,
  goQuote,
  groupOf,
  setMapString,
  setString,
  toJs,
} from "./yaml-nodes.js";

const DEFAULT_NAMESPACE = "default";
const UNKNOWN_NAMESPACE = "~C";
const BUILTIN_CONFIGMAP_NAME = "kptfile.kpt.dev";
const DEPENDS_ON = "config.kubernetes.io/depends-on";
const UPSTREAM_ID = "internal.kpt.dev/upstream-identifier";
const NAMESPACED_DEPENDS_ON = /^([-.\w]*)\/namespaces\/([-.\w]*)\/([-.\w]*)\/([-.\w]*)$/;

interface Config {
  namespace: string;
  matcher: string;
}

function readConfig(fc: KrmResource | undefined): Config | string {
  if (isEmptyConfig(fc) || !fc) {
    return "FunctionConfig is missing. Expect `ConfigMap.v1` or `SetNamespace.v1alpha1.fn.kpt.dev`";
  }
  const t = configType(fc);
  if (t.kind === "ConfigMap" && t.apiVersion === "v1") {
    const parsed = configMapData(fc);
    if ("error" in parsed) return parsed.error;
    const matcher = parsed.data.get("namespaceMatcher") ?? "";
    const ns = parsed.data.get("namespace") ?? "";
    if (ns !== "") return { namespace: ns, matcher };
    const name = parsed.data.get("name") ?? "";
    if (name !== "" && t.name === BUILTIN_CONFIGMAP_NAME) return { namespace: name, matcher };
    return "`data.namespace` should not be empty";
  }
  if (t.kind === "SetNamespace" && t.group === FN_CONFIG_GROUP) {
    const js = toJs(fc.contents) as Record<string, unknown>;
    const ns = typeof js.namespace === "string" ? js.namespace : "";
    if (ns === "") return "`namespace` should not be empty";
    const matcher = typeof js.namespaceMatcher === "string" ? js.namespaceMatcher : "";
    return { namespace: ns, matcher };
  }
  return `unknown functionConfig Kind=${t.kind} ApiVersion=${t.apiVersion}, expect \`ConfigMap.v1\` or \`SetNamespace.v1alpha1.fn.kpt.dev\``;
}

/** SDK `GetId().Namespace`: the namespace, `default` for namespaced kinds, `~C` otherwise. */
function idNamespace(doc: KrmResource): string {
  const ns = getString(doc, ["metadata", "namespace"]) ?? "";
  if (ns !== "") return ns;
  return isNamespaceScoped(doc) ? DEFAULT_NAMESPACE : UNKNOWN_NAMESPACE;
}

/** The upstream origin (`internal.kpt.dev/upstream-identifier: group|Kind|namespace|name`), if any. */
function upstreamOrigin(doc: KrmResource): { namespace: string; name: string } | undefined {
  const id = getAnnotation(doc, UPSTREAM_ID);
  if (!id) return undefined;
  const parts = id.split("|");
  if (parts.length !== 4) return undefined;
  return { namespace: parts[2], name: parts[3] };
}

function originNamespace(doc: KrmResource): string {
  return upstreamOrigin(doc)?.namespace ?? idNamespace(doc);
}

function originName(doc: KrmResource): string {
  return upstreamOrigin(doc)?.name ?? getString(doc, ["metadata", "name"]) ?? "";
}

class Replacer {
  count = 0;
  readonly old = new Set<string>();
  constructor(
    private readonly newNs: string,
    private readonly matcher: string,
  ) {}

  /** The catalog's visitor: returns the new value, or undefined when nothing changes. */
  visit(origin: string, current: string): string | undefined {
    if (origin === UNKNOWN_NAMESPACE) return undefined;
    const cur = current === "" ? DEFAULT_NAMESPACE : current;
    if (cur === this.newNs) return undefined;
    const change = this.matcher === "" || this.matcher === cur || this.matcher === origin;
    if (!change) return undefined;
    this.old.add(cur);
    this.count += 1;
    return this.newNs;
  }
}

function sorted(values: Set<string>): string[] {
  return [...values].sort();
}

function visitClusterScoped(doc: KrmResource, r: Replacer): void {
  const apiVersion = getString(doc, ["apiVersion"]) ?? "";
  const kind = getString(doc, ["kind"]) ?? "";
  if (kind === "Namespace" && apiVersion === "v1") {
    const next = r.visit(originName(doc), getString(doc, ["metadata", "name"]) ?? "");
    if (next !== undefined) setString(doc, ["metadata", "name"], next);
  } else if (kind === "CustomResourceDefinition" && groupOf(apiVersion) === "apiextensions.k8s.io") {
    const service = getMap(doc, ["spec", "conversion", "webhook", "clientConfig", "service"]);
    if (!service) return;
    const next = r.visit("", getString(service, ["namespace"]) ?? "");
    if (next !== undefined) setMapString(service, "namespace", next);
  } else if (kind === "APIService" && groupOf(apiVersion) === "apiregistration.k8s.io") {
    const service = getMap(doc, ["spec", "service"]);
    if (!service) return;
    const next = r.visit("", getString(service, ["namespace"]) ?? "");
    if (next !== undefined) setMapString(service, "namespace", next);
  } else if (kind === "ClusterRoleBinding" || kind === "RoleBinding") {
    for (const subject of getSeq(doc, ["subjects"])?.items ?? []) {
      if (!isMap(subject) || !subject.has("namespace")) continue;
      const next = r.visit("", getString(subject, ["namespace"]) ?? "");
      if (next !== undefined) setMapString(subject, "namespace", next);
    }
  }
}

/** The depends-on targets as they were before the change (`<group>/namespaces/<ns>/<kind>/<name>`) and the upstream namespaces. */
function scanObjects(objects: readonly KrmResource[]): {
  dependsOnTargets: Set<string>;
  origins: Set<string>;
} {
  const dependsOnTargets = new Set<string>();
  const origins = new Set<string>();
  for (const doc of objects) {
    const ns = idNamespace(doc);
    if (ns !== UNKNOWN_NAMESPACE) {
      const group = groupOf(getString(doc, ["apiVersion"]));
      const kind = getString(doc, ["kind"]) ?? "";
      dependsOnTargets.add(`${group}/namespaces/${ns}/${kind}/${getString(doc, ["metadata", "name"]) ?? ""}`);
    }
    const up = upstreamOrigin(doc);
    if (up && !isClusterScoped(doc) && up.namespace !== UNKNOWN_NAMESPACE) origins.add(up.namespace);
  }
  return { dependsOnTargets, origins };
}

/** Moves the `depends-on` annotations that name a target of the package to the new namespace; its result. */
function updateDependsOn(
  objects: readonly KrmResource[],
  config: Config,
  dependsOnTargets: ReadonlySet<string>,
): FunctionResult {
  let annoCount = 0;
  const annoOld = new Set<string>();
  for (const doc of objects) {
    const value = getAnnotation(doc, DEPENDS_ON);
    if (!value || !NAMESPACED_DEPENDS_ON.test(value) || !dependsOnTargets.has(value)) continue;
    const segments = value.split("/");
    if (segments[2] === config.namespace) continue;
    if (config.matcher !== "" && config.matcher !== segments[2]) continue;
    annoOld.add(segments[2]);
    segments[2] = config.namespace;
    annoCount += 1;
    setString(doc, ["metadata", "annotations", DEPENDS_ON], segments.join("/"));
  }
  return {
    message:
      annoCount === 0
        ? "all `depends-on` annotations are up-to-date. no `namespace` changed"
        : `\`depends-on\` annotation namespace ${goList(sorted(annoOld))} updated to ${goQuote(config.namespace)}, ${annoCount} value(s) changed`,
    severity: "info",
  };
}

function transform(items: KrmResource[], config: Config): FunctionResult[] {
  const objects = items.filter((doc) => {
    const v = getAnnotation(doc, "config.kubernetes.io/local-config");
    return v === undefined || v === "" || v === "false";
  });
  const { dependsOnTargets, origins } = scanObjects(objects);
  if (config.matcher === "" && origins.size > 1) {
    return [
      {
        message: `unable to use origin \`namespace\` to match. expect a single upstream namespace, found ${goList(sorted(origins))}. please switch to use \`namespaceMatcher\`to specify the namespace value you want to change`,
        severity: "error",
      },
    ];
  }
  const r = new Replacer(config.namespace, config.matcher);
  for (const doc of objects) if (isClusterScoped(doc)) visitClusterScoped(doc, r);
  for (const doc of objects) {
    if (!isNamespaceScoped(doc)) continue;
    const next = r.visit(originNamespace(doc), getString(doc, ["metadata", "namespace"]) ?? "");
    if (next !== undefined) setString(doc, ["metadata", "namespace"], next);
  }
  const namespaces: FunctionResult = {
    message:
      r.count === 0
        ? `all matching namespaces are already ${goQuote(config.namespace)}. no value changed`
        : `namespace ${goList(sorted(r.old))} updated to ${goQuote(config.namespace)}, ${r.count} value(s) changed`,
    severity: "info",
  };
  return [namespaces, updateDependsOn(objects, config, dependsOnTargets)];
}

/** The builtin `set-namespace`. Errors are reported as results with exit code 0, as the catalog does. */
export const setNamespace: BuiltinFunction = {
  name: "set-namespace",
  catalogVersion: "v0.4.1",
  run(input) {
    const config = readConfig(input.functionConfig);
    if (typeof config === "string") {
      const result = configErrorResult(config, input.functionConfig);
      return { items: input.items, results: [result], exitCode: 0 };
    }
    return { items: input.items, results: transform(input.items, config), exitCode: 0 };
  },
};
