/**
 * Which built-in Kubernetes kinds are namespaced or cluster-scoped, as kyaml's bundled OpenAPI knows
 * them (the catalog functions ask `openapi.IsNamespaceScoped`). Keys are `<group>/<kind>`, with the
 * core group written as the empty string.
 */
import { groupOf } from "./yaml-nodes.js";

const CLUSTER_SCOPED = new Set([
  "/ComponentStatus",
  "/Namespace",
  "/Node",
  "/PersistentVolume",
  "admissionregistration.k8s.io/MutatingWebhookConfiguration",
  "admissionregistration.k8s.io/ValidatingWebhookConfiguration",
  "admissionregistration.k8s.io/ValidatingAdmissionPolicy",
  "admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding",
  "apiextensions.k8s.io/CustomResourceDefinition",
  "apiregistration.k8s.io/APIService",
  "authentication.k8s.io/TokenReview",
  "authentication.k8s.io/SelfSubjectReview",
  "authorization.k8s.io/SelfSubjectAccessReview",
  "authorization.k8s.io/SelfSubjectRulesReview",
  "authorization.k8s.io/SubjectAccessReview",
  "certificates.k8s.io/CertificateSigningRequest",
  "flowcontrol.apiserver.k8s.io/FlowSchema",
  "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration",
  "internal.apiserver.k8s.io/StorageVersion",
  "networking.k8s.io/IngressClass",
  "networking.k8s.io/IPAddress",
  "networking.k8s.io/ServiceCIDR",
  "node.k8s.io/RuntimeClass",
  "policy/PodSecurityPolicy",
  "extensions/PodSecurityPolicy",
  "rbac.authorization.k8s.io/ClusterRole",
  "rbac.authorization.k8s.io/ClusterRoleBinding",
  "scheduling.k8s.io/PriorityClass",
  "storage.k8s.io/CSIDriver",
  "storage.k8s.io/CSINode",
  "storage.k8s.io/StorageClass",
  "storage.k8s.io/VolumeAttachment",
]);

const NAMESPACED = new Set([
  "/Binding",
  "/ConfigMap",
  "/Endpoints",
  "/Event",
  "/LimitRange",
  "/PersistentVolumeClaim",
  "/Pod",
  "/PodTemplate",
  "/ReplicationController",
  "/ResourceQuota",
  "/Secret",
  "/Service",
  "/ServiceAccount",
  "apps/ControllerRevision",
  "apps/DaemonSet",
  "apps/Deployment",
  "apps/ReplicaSet",
  "apps/StatefulSet",
  "extensions/DaemonSet",
  "extensions/Deployment",
  "extensions/Ingress",
  "extensions/NetworkPolicy",
  "extensions/ReplicaSet",
  "authorization.k8s.io/LocalSubjectAccessReview",
  "autoscaling/HorizontalPodAutoscaler",
  "batch/CronJob",
  "batch/Job",
  "coordination.k8s.io/Lease",
  "discovery.k8s.io/EndpointSlice",
  "events.k8s.io/Event",
  "networking.k8s.io/Ingress",
  "networking.k8s.io/NetworkPolicy",
  "policy/PodDisruptionBudget",
  "rbac.authorization.k8s.io/Role",
  "rbac.authorization.k8s.io/RoleBinding",
  "storage.k8s.io/CSIStorageCapacity",
]);

/**
 * Whether an apiVersion and kind name a namespaced kind (true), a cluster-scoped one (false), or an
 * unknown kind such as a custom resource (undefined); either may be absent.
 */
export function kindScope(apiVersion: string | undefined, kind: string | undefined): boolean | undefined {
  const key = `${groupOf(apiVersion)}/${kind ?? ""}`;
  if (NAMESPACED.has(key)) return true;
  if (CLUSTER_SCOPED.has(key)) return false;
  return undefined;
}
