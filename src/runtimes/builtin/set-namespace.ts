/**
 * `set-namespace` (krm-functions-catalog): sets `metadata.namespace` of namespace-scoped resources,
 * renames `Namespace` objects, and updates the namespace fields of ClusterRoleBinding subjects, CRD
 * conversion webhooks, APIServices and `config.kubernetes.io/depends-on` annotations. Local-config
 * resources (the Kptfile included when annotated) are skipped.
 */
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import {
  configErrorResult,
  configMapData,
  configType,
  FN_CONFIG_GROUP,
  isEmptyConfig,
} from "./function-config.js";
import { kindScope } from "./k8s-scope.js";
import { documentFields, type Fields, nodeFields } from "./node-fields.js";
import { goList, goQuote, groupOf, toJs } from "./yaml-nodes.js";

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

/** The upstream origin (`internal.kpt.dev/upstream-identifier: group|Kind|namespace|name`), if any. */
function upstreamOrigin<H>(f: Fields<H>, doc: H): { namespace: string; name: string } | undefined {
  const id = f.annotation(doc, UPSTREAM_ID);
  if (!id) return undefined;
  const parts = id.split("|");
  if (parts.length !== 4) return undefined;
  return { namespace: parts[2], name: parts[3] };
}

function originName<H>(f: Fields<H>, doc: H): string {
  return upstreamOrigin(f, doc)?.name ?? f.string(doc, ["metadata", "name"]) ?? "";
}

/**
 * What the transform reads of a resource before it edits any: kind scope (kyaml's OpenAPI), id
 * namespace, upstream origin and depends-on annotation. set-namespace edits none of the fields these
 * come from (apiVersion, kind, annotations; a resource's own namespace and depends-on only after
 * their last read), so they are read once, in one pass with the local-config test.
 */
interface Facts<H> {
  doc: H;
  /** The resource's `metadata` mapping, or undefined. */
  metadata: H | undefined;
  /** {@link kindScope} of the resource. */
  scope: boolean | undefined;
  apiVersion: string | undefined;
  kind: string;
  namespace: string;
  name: string;
  upstream: { namespace: string; name: string } | undefined;
  dependsOn: string | undefined;
}

function factsOf<H>(f: Fields<H>, doc: H): Facts<H> {
  const apiVersion = f.string(doc, ["apiVersion"]);
  const kind = f.string(doc, ["kind"]);
  const metadata = f.map(doc, ["metadata"]);
  return {
    doc,
    metadata,
    scope: kindScope(apiVersion, kind),
    apiVersion,
    kind: kind ?? "",
    namespace: (metadata && f.string(metadata, ["namespace"])) ?? "",
    name: (metadata && f.string(metadata, ["name"])) ?? "",
    upstream: upstreamOrigin(f, doc),
    dependsOn: f.annotation(doc, DEPENDS_ON),
  };
}

/** The facts of the resources that are not local config, in order. */
function nonLocalFacts<H>(f: Fields<H>, items: readonly H[]): Facts<H>[] {
  const facts: Facts<H>[] = [];
  for (const doc of items) {
    const v = f.annotation(doc, "config.kubernetes.io/local-config");
    if (v === undefined || v === "" || v === "false") facts.push(factsOf(f, doc));
  }
  return facts;
}

/** SDK `IsNamespaceScoped` of a resource whose namespace is `namespace`. */
function isNamespaced(o: Facts<unknown>, namespace: string): boolean {
  return o.scope ?? namespace !== "";
}

/** SDK `GetId().Namespace` of a resource whose namespace is `namespace`. */
function idNamespaceOf(o: Facts<unknown>, namespace: string): string {
  if (namespace !== "") return namespace;
  return isNamespaced(o, namespace) ? DEFAULT_NAMESPACE : UNKNOWN_NAMESPACE;
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

/** Visits the `namespace` field of a service map (CRD conversion webhook, APIService). */
function visitService<H>(f: Fields<H>, service: H | undefined, r: Replacer): void {
  if (service === undefined) return;
  const next = r.visit("", f.string(service, ["namespace"]) ?? "");
  if (next !== undefined) f.setMapString(service, "namespace", next);
}

function visitClusterScoped<H>(f: Fields<H>, doc: H, r: Replacer): void {
  const apiVersion = f.string(doc, ["apiVersion"]) ?? "";
  const kind = f.string(doc, ["kind"]) ?? "";
  if (kind === "Namespace" && apiVersion === "v1") {
    const next = r.visit(originName(f, doc), f.string(doc, ["metadata", "name"]) ?? "");
    if (next !== undefined) f.setString(doc, ["metadata", "name"], next);
  } else if (kind === "CustomResourceDefinition" && groupOf(apiVersion) === "apiextensions.k8s.io") {
    visitService(f, f.map(doc, ["spec", "conversion", "webhook", "clientConfig", "service"]), r);
  } else if (kind === "APIService" && groupOf(apiVersion) === "apiregistration.k8s.io") {
    visitService(f, f.map(doc, ["spec", "service"]), r);
  } else if (kind === "ClusterRoleBinding" || kind === "RoleBinding") {
    for (const subject of f.mapItems(doc, ["subjects"])) {
      if (!f.exists(subject, ["namespace"])) continue;
      const next = r.visit("", f.string(subject, ["namespace"]) ?? "");
      if (next !== undefined) f.setMapString(subject, "namespace", next);
    }
  }
}

/** The depends-on targets as they were before the change (`<group>/namespaces/<ns>/<kind>/<name>`) and the upstream namespaces. */
function scanObjects(objects: readonly Facts<unknown>[]): {
  dependsOnTargets: Set<string>;
  origins: Set<string>;
} {
  const dependsOnTargets = new Set<string>();
  const origins = new Set<string>();
  for (const o of objects) {
    const ns = idNamespaceOf(o, o.namespace);
    if (ns !== UNKNOWN_NAMESPACE) {
      dependsOnTargets.add(`${groupOf(o.apiVersion)}/namespaces/${ns}/${o.kind}/${o.name}`);
    }
    const up = o.upstream;
    if (up && o.scope !== false && up.namespace !== UNKNOWN_NAMESPACE) origins.add(up.namespace);
  }
  return { dependsOnTargets, origins };
}

/** Moves the `depends-on` annotations that name a target of the package to the new namespace; its result. */
function updateDependsOn<H>(
  f: Fields<H>,
  objects: readonly Facts<H>[],
  config: Config,
  dependsOnTargets: ReadonlySet<string>,
): FunctionResult {
  let annoCount = 0;
  const annoOld = new Set<string>();
  for (const { doc, dependsOn: value } of objects) {
    if (!value || !NAMESPACED_DEPENDS_ON.test(value) || !dependsOnTargets.has(value)) continue;
    const segments = value.split("/");
    if (segments[2] === config.namespace) continue;
    if (config.matcher !== "" && config.matcher !== segments[2]) continue;
    annoOld.add(segments[2]);
    segments[2] = config.namespace;
    annoCount += 1;
    f.setString(doc, ["metadata", "annotations", DEPENDS_ON], segments.join("/"));
  }
  return {
    message:
      annoCount === 0
        ? "all `depends-on` annotations are up-to-date. no `namespace` changed"
        : `\`depends-on\` annotation namespace ${goList(sorted(annoOld))} updated to ${goQuote(config.namespace)}, ${annoCount} value(s) changed`,
    severity: "info",
  };
}

/** The catalog's transform over either form of the items (edited in place); its results. */
function transform<H>(f: Fields<H>, items: readonly H[], config: Config): FunctionResult[] {
  const facts = nonLocalFacts(f, items);
  const { dependsOnTargets, origins } = scanObjects(facts);
  if (config.matcher === "" && origins.size > 1) {
    return [
      {
        message: `unable to use origin \`namespace\` to match. expect a single upstream namespace, found ${goList(sorted(origins))}. please switch to use \`namespaceMatcher\`to specify the namespace value you want to change`,
        severity: "error",
      },
    ];
  }
  const r = new Replacer(config.namespace, config.matcher);
  for (const o of facts) if (o.scope === false) visitClusterScoped(f, o.doc, r);
  for (const o of facts) {
    // Cluster-scoped resources (the only ones edited above) are not namespaced.
    if (o.scope === false) continue;
    // The namespace read again: only this resource's own edit below changes it.
    const meta = o.metadata;
    const ns = (meta && f.string(meta, ["namespace"])) ?? "";
    if (!isNamespaced(o, ns)) continue;
    const next = r.visit(o.upstream?.namespace ?? idNamespaceOf(o, ns), ns);
    if (next === undefined) continue;
    if (meta) f.setMapString(meta, "namespace", next);
    else f.setString(o.doc, ["metadata", "namespace"], next);
  }
  const namespaces: FunctionResult = {
    message:
      r.count === 0
        ? `all matching namespaces are already ${goQuote(config.namespace)}. no value changed`
        : `namespace ${goList(sorted(r.old))} updated to ${goQuote(config.namespace)}, ${r.count} value(s) changed`,
    severity: "info",
  };
  return [namespaces, updateDependsOn(f, facts, config, dependsOnTargets)];
}

/** The results of the function on either form (items edited in place); exit code 0 even for errors. */
function setNamespaceOn<H>(
  f: Fields<H>,
  items: readonly H[],
  functionConfig: KrmResource | undefined,
): { results: FunctionResult[]; exitCode: number } {
  const config = readConfig(functionConfig);
  if (typeof config === "string")
    return { results: [configErrorResult(config, functionConfig)], exitCode: 0 };
  return { results: transform(f, items, config), exitCode: 0 };
}

/** The builtin `set-namespace`. Errors are reported as results with exit code 0, as the catalog does. */
export const setNamespace: BuiltinFunction = {
  name: "set-namespace",
  catalogVersion: "v0.4.1",
  run(input) {
    return { items: input.items, ...setNamespaceOn(documentFields, input.items, input.functionConfig) };
  },
  runNodes(input) {
    return { items: input.items, ...setNamespaceOn(nodeFields, input.items, input.functionConfig) };
  },
};
