/**
 * kustomize's name reference transformer (its default `nameReference` configuration), which the
 * catalog's ensure-name-substring runs after renaming: a field that names a renamed resource of the
 * package (a ConfigMap in a pod's env, a ClusterRole in a binding's `roleRef`, a ServiceAccount in a
 * binding's `subjects`…) is given the new name. A namespaced resource is only referred to from its
 * own namespace; references to resources that are not in the package, or were not renamed, stay.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from "yaml";
import type { KrmResource } from "../../krm/resource-list.js";
import { getString, groupOf } from "./yaml-nodes.js";

/** A resource the function renamed. */
export interface Renamed {
  group: string;
  kind: string;
  namespace: string;
  oldName: string;
  newName: string;
}

/** Where a referrer of some kind names a referent: a slash-separated path (lists are walked through). */
interface Referral {
  kind: string;
  group?: string;
  path: string;
}

/** The pod spec inside each workload kind. */
const POD_SPECS: Array<[string, string]> = [
  ["Pod", "spec"],
  ["PodTemplate", "template/spec"],
  ["Deployment", "spec/template/spec"],
  ["ReplicaSet", "spec/template/spec"],
  ["DaemonSet", "spec/template/spec"],
  ["StatefulSet", "spec/template/spec"],
  ["Job", "spec/template/spec"],
  ["CronJob", "spec/jobTemplate/spec/template/spec"],
];
const RC: [string, string] = ["ReplicationController", "spec/template/spec"];

function inPodSpecs(paths: string[], specs: Array<[string, string]> = POD_SPECS): Referral[] {
  return specs.flatMap(([kind, prefix]) => paths.map((p) => ({ kind, path: `${prefix}/${p}` })));
}

function containers(ref: string): string[] {
  return ["containers", "initContainers"].map((c) => `${c}/${ref}`);
}

const RBAC = "rbac.authorization.k8s.io";
const WORKLOADS_WITH_RC = [...POD_SPECS.filter(([k]) => k !== "ReplicaSet" && k !== "PodTemplate"), RC];
const annotation = (key: string) => `metadata/annotations/${key.replace(/\//g, "\\/")}`;

/** Referent kind (and group) -> where other resources name it. */
const REFERENCES: Array<{ kind: string; group: string; referrals: Referral[] }> = [
  ...["Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"].map((kind) => ({
    kind,
    group: kind === "ReplicationController" ? "" : "apps",
    referrals: [{ kind: "HorizontalPodAutoscaler", path: "spec/scaleTargetRef/name" }],
  })),
  {
    kind: "ConfigMap",
    group: "",
    referrals: [
      ...inPodSpecs([
        "volumes/configMap/name",
        ...containers("env/valueFrom/configMapKeyRef/name"),
        ...containers("envFrom/configMapRef/name"),
        "volumes/projected/sources/configMap/name",
      ]),
      { kind: "Node", path: "spec/configSource/configMap" },
      { kind: "Role", path: "rules/resourceNames" },
      { kind: "ClusterRole", path: "rules/resourceNames" },
      { kind: "Ingress", path: annotation("nginx.ingress.kubernetes.io/fastcgi-params-configmap") },
    ],
  },
  {
    kind: "Secret",
    group: "",
    referrals: [
      ...inPodSpecs([
        "volumes/secret/secretName",
        ...containers("env/valueFrom/secretKeyRef/name"),
        ...containers("envFrom/secretRef/name"),
        "imagePullSecrets/name",
        "volumes/projected/sources/secret/name",
      ]),
      { kind: "Ingress", path: "spec/tls/secretName" },
      { kind: "Ingress", path: annotation("ingress.kubernetes.io/auth-secret") },
      { kind: "Ingress", path: annotation("nginx.ingress.kubernetes.io/auth-secret") },
      { kind: "Ingress", path: annotation("nginx.ingress.kubernetes.io/auth-tls-secret") },
      { kind: "ServiceAccount", path: "imagePullSecrets/name" },
      ...["secretName", "adminSecretName", "userSecretName", "secretRef"].map((p) => ({
        kind: "StorageClass",
        path: `parameters/${p}`,
      })),
      { kind: "Role", path: "rules/resourceNames" },
      { kind: "ClusterRole", path: "rules/resourceNames" },
      {
        kind: "Service",
        group: "serving.knative.dev",
        path: "spec/template/spec/containers/env/valueFrom/secretKeyRef/name",
      },
      { kind: "PersistentVolume", path: "spec/azureFile/secretName" },
    ],
  },
  {
    kind: "Service",
    group: "",
    referrals: [
      { kind: "StatefulSet", group: "apps", path: "spec/serviceName" },
      { kind: "Ingress", path: "spec/rules/http/paths/backend/serviceName" },
      { kind: "Ingress", path: "spec/backend/serviceName" },
      { kind: "Ingress", path: "spec/rules/http/paths/backend/service/name" },
      { kind: "Ingress", path: "spec/defaultBackend/service/name" },
      { kind: "APIService", group: "apiregistration.k8s.io", path: "spec/service/name" },
      {
        kind: "ValidatingWebhookConfiguration",
        group: "admissionregistration.k8s.io",
        path: "webhooks/clientConfig/service",
      },
      {
        kind: "MutatingWebhookConfiguration",
        group: "admissionregistration.k8s.io",
        path: "webhooks/clientConfig/service",
      },
    ],
  },
  { kind: "Role", group: RBAC, referrals: [{ kind: "RoleBinding", group: RBAC, path: "roleRef/name" }] },
  {
    kind: "ClusterRole",
    group: RBAC,
    referrals: [
      { kind: "RoleBinding", group: RBAC, path: "roleRef/name" },
      { kind: "ClusterRoleBinding", group: RBAC, path: "roleRef/name" },
    ],
  },
  {
    kind: "ServiceAccount",
    group: "",
    referrals: [
      { kind: "RoleBinding", group: RBAC, path: "subjects" },
      { kind: "ClusterRoleBinding", group: RBAC, path: "subjects" },
      ...inPodSpecs(
        ["serviceAccountName"],
        [["Pod", "spec"], ...WORKLOADS_WITH_RC.filter(([k]) => k !== "Pod")],
      ),
    ],
  },
  {
    kind: "PersistentVolumeClaim",
    group: "",
    referrals: inPodSpecs(
      ["volumes/persistentVolumeClaim/claimName"],
      [["Pod", "spec"], ...WORKLOADS_WITH_RC.filter(([k]) => k !== "Pod")],
    ),
  },
  {
    kind: "PersistentVolume",
    group: "",
    referrals: [
      { kind: "PersistentVolumeClaim", path: "spec/volumeName" },
      { kind: "ClusterRole", path: "rules/resourceNames" },
    ],
  },
  {
    kind: "StorageClass",
    group: "storage.k8s.io",
    referrals: [
      { kind: "PersistentVolume", path: "spec/storageClassName" },
      { kind: "PersistentVolumeClaim", path: "spec/storageClassName" },
      { kind: "StatefulSet", path: "spec/volumeClaimTemplates/spec/storageClassName" },
    ],
  },
  {
    kind: "PriorityClass",
    group: "scheduling.k8s.io",
    referrals: inPodSpecs(
      ["priorityClassName"],
      [["Pod", "spec"], ...WORKLOADS_WITH_RC.filter(([k]) => k !== "Pod")],
    ),
  },
  {
    kind: "IngressClass",
    group: "networking.k8s.io",
    referrals: [{ kind: "Ingress", path: "spec/ingressClassName" }],
  },
];

/** Kinds whose objects live in no namespace (their names are referred to from anywhere). */
const CLUSTER_SCOPED = new Set([
  "ClusterRole",
  "PersistentVolume",
  "StorageClass",
  "PriorityClass",
  "IngressClass",
]);

const namespaceOf = (value: string) => (value === "" ? "default" : value);

function segments(path: string): string[] {
  // `\/` escapes a slash inside a segment (annotation keys).
  return path.split(/(?<!\\)\//).map((s) => s.replace(/\\\//g, "/"));
}

/** Calls `visit` for every node at `path` below `node`, walking through lists on the way. */
function walk(node: unknown, path: string[], visit: (parent: YAMLMap, key: string) => void): void {
  if (isSeq(node)) {
    for (const item of node.items) walk(item, path, visit);
    return;
  }
  if (!isMap(node) || path.length === 0) return;
  const [head, ...rest] = path;
  if (rest.length === 0) {
    if (node.has(head)) visit(node, head);
    return;
  }
  walk(node.get(head, true), rest, visit);
}

/**
 * Gives references to renamed resources the new names (in place). `items` are all resources of the
 * function's input, `renamed` those the function renamed.
 */
export function updateNameReferences(items: readonly KrmResource[], renamed: readonly Renamed[]): void {
  if (renamed.length === 0) return;
  for (const doc of items) {
    const kind = getString(doc, ["kind"]) ?? "";
    const group = groupOf(getString(doc, ["apiVersion"]));
    const ownNamespace = namespaceOf(getString(doc, ["metadata", "namespace"]) ?? "");
    for (const target of REFERENCES) {
      for (const referral of target.referrals) {
        if (referral.kind !== kind || (referral.group !== undefined && referral.group !== group)) continue;
        const candidates = renamed.filter((r) => r.kind === target.kind && r.group === target.group);
        if (candidates.length === 0) continue;
        const find = (name: string, namespace: string) =>
          candidates.find(
            (r) =>
              r.oldName === name && (CLUSTER_SCOPED.has(r.kind) || namespaceOf(r.namespace) === namespace),
          );
        const fix = (value: unknown, parent: YAMLMap): void => {
          if (isScalar(value) && typeof value.value === "string") {
            // A binding's roleRef names a Role or a ClusterRole: its `kind` says which.
            if (referral.path.startsWith("roleRef") && parent.get("kind") !== target.kind) return;
            const hit = find(value.value, ownNamespace);
            if (hit) value.value = hit.newName;
          } else if (isSeq(value)) {
            for (const item of value.items) fix(item, parent);
          } else if (isMap(value)) {
            // An object reference `{name, namespace}` (of subjects, only those of the referent's kind).
            const refKind = value.get("kind");
            if (refKind !== undefined && refKind !== target.kind) return;
            const name = value.get("name", true);
            if (!isScalar(name) || typeof name.value !== "string") return;
            const ns = value.get("namespace");
            const hit = find(name.value, typeof ns === "string" ? namespaceOf(ns) : ownNamespace);
            if (hit) name.value = hit.newName;
          }
        };
        walk(doc.contents, segments(referral.path), (parent, key) => fix(parent.get(key, true), parent));
      }
    }
  }
}
