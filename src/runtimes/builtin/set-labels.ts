/**
 * `set-labels` (krm-functions-catalog): adds or overwrites labels in `metadata.labels` of every
 * non-local resource and in the selector / template label fields of workload kinds (creating
 * `spec.selector.matchLabels` of Deployment, ReplicaSet, DaemonSet and StatefulSet, and the
 * `spec.selector` of Service / ReplicationController). Result: `set N labels in total`, N counting
 * every (field, key) pair visited.
 */
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { documentFields, type Fields, isLocalConfigNode, nodeFields } from "./node-fields.js";
import { isPlaceholderConfig, readSdkMapConfig } from "./sdk-config.js";
import { isLocalConfig } from "./yaml-nodes.js";

/**
 * SDK `IsGVK(group, version, kind)`: an empty value on either side matches anything, so a document
 * without apiVersion/kind (e.g. a kustomization.yaml) is treated as every kind, as the catalog does.
 */
function isGvk<H>(f: Fields<H>, doc: H, group: string, version: string, kind: string): boolean {
  const apiVersion = f.string(doc, ["apiVersion"]) ?? "";
  const slash = apiVersion.indexOf("/");
  const g = slash < 0 ? "" : apiVersion.slice(0, slash);
  const v = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const k = f.string(doc, ["kind"]) ?? "";
  if (k !== "" && kind !== "" && k !== kind) return false;
  if (g !== "" && group !== "" && g !== group) return false;
  if (v !== "" && version !== "" && v !== version) return false;
  return true;
}

/** The catalog's label transform over one form of the resources (`H`), edited in place. */
class LabelSetter<H> {
  count = 0;
  readonly keys: string[];
  constructor(
    private readonly f: Fields<H>,
    private readonly labels: Map<string, string>,
  ) {
    this.keys = [...labels.keys()].sort();
  }

  /** Sets each label under `path` of `holder`; creates the map only when `create`. */
  update(holder: H | undefined, path: string[], create: boolean): void {
    if (holder === undefined) return;
    const f = this.f;
    for (const key of this.keys) {
      const value = this.labels.get(key) ?? "";
      const at = [...path, key];
      const existing = f.string(holder, at);
      const exists = f.exists(holder, at);
      if ((exists && existing !== value) || (!exists && create)) {
        const map = f.ensureMap(holder, path);
        if (map !== undefined) f.setMapString(map, key, value);
      }
      this.count += 1;
    }
  }

  pod(pod: H | undefined): void {
    if (pod === undefined) return;
    const f = this.f;
    this.update(pod, ["metadata", "labels"], true);
    const spec = f.map(pod, ["spec"]);
    if (spec === undefined) return;
    for (const c of f.mapItems(spec, ["topologySpreadConstraints"])) {
      this.update(c, ["labelSelector", "matchLabels"], false);
    }
    const affinity = f.map(spec, ["affinity"]);
    if (affinity === undefined) return;
    for (const aff of ["podAffinity", "podAntiAffinity"]) {
      if (f.map(affinity, [aff]) === undefined) continue;
      // The catalog looks for the scheduling terms on `affinity` itself (not under podAffinity).
      for (const term of f.mapItems(affinity, ["preferredDuringSchedulingIgnoredDuringExecution"])) {
        const t = f.map(term, ["podAffinityTerm"]);
        if (t !== undefined) this.update(t, ["labelSelector", "matchLabels"], false);
      }
      for (const term of f.mapItems(affinity, ["requiredDuringSchedulingIgnoredDuringExecution"])) {
        this.update(term, ["labelSelector", "matchLabels"], false);
      }
    }
  }

  resource(o: H): void {
    const f = this.f;
    this.update(o, ["metadata", "labels"], true);
    if (isGvk(f, o, "", "v1", "Service") || isGvk(f, o, "", "v1", "ReplicationController")) {
      this.update(o, ["spec", "selector"], true);
    }
    const workload = ["Deployment", "ReplicaSet", "DaemonSet"].some((k) => isGvk(f, o, "", "", k));
    if (workload || isGvk(f, o, "apps", "", "StatefulSet")) {
      this.update(o, ["spec", "selector", "matchLabels"], true);
    } else if (isGvk(f, o, "batch", "", "Job") || isGvk(f, o, "policy", "", "PodDisruptionBudget")) {
      this.update(o, ["spec", "selector", "matchLabels"], false);
    }
    const isNetpol = isGvk(f, o, "networking.k8s.io", "", "NetworkPolicy");
    if (isNetpol) this.update(o, ["spec", "podSelector", "matchLabels"], false);
    const spec = f.map(o, ["spec"]);
    if (spec === undefined) return;
    const hasPod =
      isGvk(f, o, "", "v1", "ReplicationController") ||
      workload ||
      isGvk(f, o, "apps", "", "StatefulSet") ||
      isGvk(f, o, "batch", "", "Job");
    if (hasPod) this.pod(f.map(spec, ["template"]));
    if (isGvk(f, o, "batch", "", "CronJob")) {
      const job = f.map(spec, ["jobTemplate"]);
      if (job !== undefined) {
        this.update(job, ["metadata", "labels"], true);
        const jobSpec = f.map(job, ["spec"]);
        this.update(jobSpec, ["selector", "matchLabels"], false);
        this.pod(jobSpec === undefined ? undefined : f.map(jobSpec, ["template"]));
      }
    }
    if (isGvk(f, o, "apps", "", "StatefulSet")) {
      for (const volume of f.mapItems(spec, ["volumeClaimTemplates"])) {
        this.update(volume, ["metadata", "labels"], true);
        this.update(volume, ["selector", "matchLabels"], false);
      }
    }
    if (isNetpol) {
      for (const [rules, peers] of [
        ["ingress", "from"],
        ["egress", "to"],
      ]) {
        for (const rule of f.mapItems(spec, [rules])) {
          for (const peer of f.mapItems(rule, [peers])) {
            this.update(peer, ["podSelector", "matchLabels"], false);
          }
        }
      }
    }
  }
}

/** The function on either form of the items (edited in place): its results and exit code. */
function setLabelsOn<H>(
  f: Fields<H>,
  items: readonly H[],
  functionConfig: KrmResource | undefined,
  isLocal: (doc: H) => boolean,
): { results: FunctionResult[]; exitCode?: number } {
  const config = readSdkMapConfig({
    config: functionConfig,
    kind: "SetLabels",
    field: "labels",
    goType: "*setlabels.SetLabels",
  });
  const results: FunctionResult[] = [...config.results];
  if (!config.ok) return { results, exitCode: 1 };
  const objects = items.filter((doc) => !isLocal(doc));
  if (objects.length === 0) {
    results.push({ message: "no input resources", severity: "info" });
    return { results, exitCode: 0 };
  }
  if (isPlaceholderConfig(functionConfig)) return { results, exitCode: 1 };
  if (config.map.size === 0) {
    results.push({ message: "no `labels` arguments are given in FunctionConfig", severity: "warning" });
    return { results, exitCode: 0 };
  }
  const setter = new LabelSetter(f, config.map);
  for (const o of objects) setter.resource(o);
  results.push({ message: `set ${setter.count} labels in total`, severity: "info" });
  return { results };
}

/** The builtin `set-labels`. */
export const setLabels: BuiltinFunction = {
  name: "set-labels",
  catalogVersion: "v0.2.1",
  run(input) {
    return {
      items: input.items,
      ...setLabelsOn(documentFields, input.items, input.functionConfig, isLocalConfig),
    };
  },
  runNodes(input) {
    return {
      items: input.items,
      ...setLabelsOn(nodeFields, input.items, input.functionConfig, isLocalConfigNode),
    };
  },
};
