/**
 * `set-labels` (krm-functions-catalog): adds or overwrites labels in `metadata.labels` of every
 * non-local resource and in the selector / template label fields of workload kinds (creating
 * `spec.selector.matchLabels` of Deployment, ReplicaSet, DaemonSet and StatefulSet, and the
 * `spec.selector` of Service / ReplicationController). Result: `set N labels in total`, N counting
 * every (field, key) pair visited.
 */
import { isMap, type YAMLMap } from "yaml";
import type { FunctionResult, KrmResource } from "../../krm/resource-list.js";
import type { BuiltinFunction } from "./builtin-function.js";
import { isPlaceholderConfig, readSdkMapConfig } from "./sdk-config.js";
import { ensureMap, getMap, getNode, getSeq, getString, isLocalConfig, setMapString } from "./yaml-nodes.js";

type Holder = KrmResource | YAMLMap;

/**
 * SDK `IsGVK(group, version, kind)`: an empty value on either side matches anything, so a document
 * without apiVersion/kind (e.g. a kustomization.yaml) is treated as every kind, as the catalog does.
 */
function isGvk(doc: KrmResource, group: string, version: string, kind: string): boolean {
  const apiVersion = getString(doc, ["apiVersion"]) ?? "";
  const slash = apiVersion.indexOf("/");
  const g = slash < 0 ? "" : apiVersion.slice(0, slash);
  const v = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const k = getString(doc, ["kind"]) ?? "";
  if (k !== "" && kind !== "" && k !== kind) return false;
  if (g !== "" && group !== "" && g !== group) return false;
  if (v !== "" && version !== "" && v !== version) return false;
  return true;
}

class LabelSetter {
  count = 0;
  readonly keys: string[];
  constructor(private readonly labels: Map<string, string>) {
    this.keys = [...labels.keys()].sort();
  }

  /** Sets each label under `path` of `holder`; creates the map only when `create`. */
  update(holder: Holder | undefined, path: string[], create: boolean): void {
    if (!holder) return;
    for (const key of this.keys) {
      const value = this.labels.get(key) ?? "";
      const existing = getString(holder, [...path, key]);
      const exists = getNode(holder, [...path, key]) !== undefined;
      if ((exists && existing !== value) || (!exists && create)) {
        const map = ensureMap(holder, path);
        if (map) setMapString(map, key, value);
      }
      this.count += 1;
    }
  }

  pod(pod: YAMLMap | undefined): void {
    if (!pod) return;
    this.update(pod, ["metadata", "labels"], true);
    const spec = getMap(pod, ["spec"]);
    if (!spec) return;
    for (const c of getSeq(spec, ["topologySpreadConstraints"])?.items ?? []) {
      if (isMap(c)) this.update(c, ["labelSelector", "matchLabels"], false);
    }
    const affinity = getMap(spec, ["affinity"]);
    if (!affinity) return;
    for (const aff of ["podAffinity", "podAntiAffinity"]) {
      if (!getMap(affinity, [aff])) continue;
      // The catalog looks for the scheduling terms on `affinity` itself (not under podAffinity).
      for (const term of getSeq(affinity, ["preferredDuringSchedulingIgnoredDuringExecution"])?.items ?? []) {
        const t = isMap(term) ? getMap(term, ["podAffinityTerm"]) : undefined;
        if (t) this.update(t, ["labelSelector", "matchLabels"], false);
      }
      for (const term of getSeq(affinity, ["requiredDuringSchedulingIgnoredDuringExecution"])?.items ?? []) {
        if (isMap(term)) this.update(term, ["labelSelector", "matchLabels"], false);
      }
    }
  }

  resource(o: KrmResource): void {
    this.update(o, ["metadata", "labels"], true);
    if (isGvk(o, "", "v1", "Service") || isGvk(o, "", "v1", "ReplicationController")) {
      this.update(o, ["spec", "selector"], true);
    }
    const workload = ["Deployment", "ReplicaSet", "DaemonSet"].some((k) => isGvk(o, "", "", k));
    if (workload || isGvk(o, "apps", "", "StatefulSet")) {
      this.update(o, ["spec", "selector", "matchLabels"], true);
    } else if (isGvk(o, "batch", "", "Job") || isGvk(o, "policy", "", "PodDisruptionBudget")) {
      this.update(o, ["spec", "selector", "matchLabels"], false);
    }
    const isNetpol = isGvk(o, "networking.k8s.io", "", "NetworkPolicy");
    if (isNetpol) this.update(o, ["spec", "podSelector", "matchLabels"], false);
    const spec = getMap(o, ["spec"]);
    if (!spec) return;
    const hasPod =
      isGvk(o, "", "v1", "ReplicationController") ||
      workload ||
      isGvk(o, "apps", "", "StatefulSet") ||
      isGvk(o, "batch", "", "Job");
    if (hasPod) this.pod(getMap(spec, ["template"]));
    if (isGvk(o, "batch", "", "CronJob")) {
      const job = getMap(spec, ["jobTemplate"]);
      if (job) {
        this.update(job, ["metadata", "labels"], true);
        const jobSpec = getMap(job, ["spec"]);
        this.update(jobSpec, ["selector", "matchLabels"], false);
        this.pod(jobSpec ? getMap(jobSpec, ["template"]) : undefined);
      }
    }
    if (isGvk(o, "apps", "", "StatefulSet")) {
      for (const volume of getSeq(spec, ["volumeClaimTemplates"])?.items ?? []) {
        if (!isMap(volume)) continue;
        this.update(volume, ["metadata", "labels"], true);
        this.update(volume, ["selector", "matchLabels"], false);
      }
    }
    if (isNetpol) {
      for (const [rules, peers] of [
        ["ingress", "from"],
        ["egress", "to"],
      ]) {
        for (const rule of getSeq(spec, [rules])?.items ?? []) {
          for (const peer of (isMap(rule) ? getSeq(rule, [peers])?.items : undefined) ?? []) {
            if (isMap(peer)) this.update(peer, ["podSelector", "matchLabels"], false);
          }
        }
      }
    }
  }
}

/** The builtin `set-labels`. */
export const setLabels: BuiltinFunction = {
  name: "set-labels",
  catalogVersion: "v0.2.1",
  run(input) {
    const config = readSdkMapConfig({
      config: input.functionConfig,
      kind: "SetLabels",
      field: "labels",
      goType: "*setlabels.SetLabels",
    });
    const results: FunctionResult[] = [...config.results];
    if (!config.ok) return { items: input.items, results, exitCode: 1 };
    const objects = input.items.filter((doc) => !isLocalConfig(doc));
    if (objects.length === 0) {
      results.push({ message: "no input resources", severity: "info" });
      return { items: input.items, results, exitCode: 0 };
    }
    if (isPlaceholderConfig(input.functionConfig)) return { items: input.items, results, exitCode: 1 };
    if (config.map.size === 0) {
      results.push({ message: "no `labels` arguments are given in FunctionConfig", severity: "warning" });
      return { items: input.items, results, exitCode: 0 };
    }
    const setter = new LabelSetter(config.map);
    for (const o of objects) setter.resource(o);
    results.push({ message: `set ${setter.count} labels in total`, severity: "info" });
    return { items: input.items, results };
  },
};
