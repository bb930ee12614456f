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

/** A resource's apiVersion split as the SDK's `IsGVK` reads it, and its kind. */
interface Gvk {
  group: string;
  version: string;
  kind: string;
}

function gvkOf<H>(f: Fields<H>, doc: H): Gvk {
  const apiVersion = f.string(doc, ["apiVersion"]) ?? "";
  const slash = apiVersion.indexOf("/");
  return {
    group: slash < 0 ? "" : apiVersion.slice(0, slash),
    version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
    kind: f.string(doc, ["kind"]) ?? "",
  };
}

/**
 * SDK `IsGVK(group, version, kind)`: an empty value on either side matches anything, so a document
 * without apiVersion/kind (e.g. a kustomization.yaml) is treated as every kind, as the catalog does.
 */
function isGvk(o: Gvk, group: string, version: string, kind: string): boolean {
  if (o.kind !== "" && kind !== "" && o.kind !== kind) return false;
  if (o.group !== "" && group !== "" && o.group !== group) return false;
  if (o.version !== "" && version !== "" && o.version !== version) return false;
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
    // The labels' map, looked up once (and taken from ensureMap once that creates it).
    let labels = f.map(holder, path);
    for (const key of this.keys) {
      const value = this.labels.get(key) ?? "";
      const existing = labels === undefined ? undefined : f.string(labels, [key]);
      const exists = labels !== undefined && (existing !== undefined || f.exists(labels, [key]));
      if ((exists && existing !== value) || (!exists && create)) {
        // The map found is what ensureMap would walk to; only a missing one is created.
        const map = labels ?? f.ensureMap(holder, path);
        if (map !== undefined) {
          f.setMapString(map, key, value);
          labels = map;
        }
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

  resource(doc: H): void {
    const f = this.f;
    const o = gvkOf(f, doc);
    this.update(doc, ["metadata", "labels"], true);
    if (isGvk(o, "", "v1", "Service") || isGvk(o, "", "v1", "ReplicationController")) {
      this.update(doc, ["spec", "selector"], true);
    }
    const workload = ["Deployment", "ReplicaSet", "DaemonSet"].some((k) => isGvk(o, "", "", k));
    if (workload || isGvk(o, "apps", "", "StatefulSet")) {
      this.update(doc, ["spec", "selector", "matchLabels"], true);
    } else if (isGvk(o, "batch", "", "Job") || isGvk(o, "policy", "", "PodDisruptionBudget")) {
      this.update(doc, ["spec", "selector", "matchLabels"], false);
    }
    const isNetpol = isGvk(o, "networking.k8s.io", "", "NetworkPolicy");
    if (isNetpol) this.update(doc, ["spec", "podSelector", "matchLabels"], false);
    const spec = f.map(doc, ["spec"]);
    if (spec === undefined) return;
    const hasPod =
      isGvk(o, "", "v1", "ReplicationController") ||
      workload ||
      isGvk(o, "apps", "", "StatefulSet") ||
      isGvk(o, "batch", "", "Job");
    if (hasPod) this.pod(f.map(spec, ["template"]));
    if (isGvk(o, "batch", "", "CronJob")) {
      const job = f.map(spec, ["jobTemplate"]);
      if (job !== undefined) {
        this.update(job, ["metadata", "labels"], true);
        const jobSpec = f.map(job, ["spec"]);
        this.update(jobSpec, ["selector", "matchLabels"], false);
        this.pod(jobSpec === undefined ? undefined : f.map(jobSpec, ["template"]));
      }
    }
    if (isGvk(o, "apps", "", "StatefulSet")) {
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
  const noInput = () => {
    results.push({ message: "no input resources", severity: "info" });
    return { results, exitCode: 0 };
  };
  if (isPlaceholderConfig(functionConfig) || config.map.size === 0) {
    if (items.every(isLocal)) return noInput();
    if (isPlaceholderConfig(functionConfig)) return { results, exitCode: 1 };
    results.push({ message: "no `labels` arguments are given in FunctionConfig", severity: "warning" });
    return { results, exitCode: 0 };
  }
  // Each resource is tested and labelled in one visit.
  const setter = new LabelSetter(f, config.map);
  let objects = 0;
  for (const doc of items) {
    if (isLocal(doc)) continue;
    objects++;
    setter.resource(doc);
  }
  if (objects === 0) return noInput();
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
