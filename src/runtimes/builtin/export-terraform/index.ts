/**
 * `export-terraform` (krm-functions-catalog): exports the package's Config Connector resources
 * (`*.cnrm.cloud.google.com`: Folder, Organization, Project, ComputeSharedVPCHostProject, the IAM
 * policies and members, IAMAuditConfig, LoggingLogSink and its BigQuery / Pub/Sub / Storage /
 * LoggingLogBucket destinations, ComputeNetwork, ComputeSubnetwork, ComputeFirewall, ComputeRoute,
 * ComputeRouter, ComputeRouterNAT, ComputeAddress, ServiceNetworkingConnection) as an idiomatic
 * Terraform module using the Cloud Foundation Toolkit modules, written into a local-config ConfigMap
 * `terraform` in `terraform.yaml` at the package root (one data key per file). Resources annotated
 * `cnrm.cloud.google.com/ignore-clusterless: "true"` are left out. An existing `terraform`
 * ConfigMap is kept as it is (the catalog adds its ConfigMap only when none exists). The function
 * takes no functionConfig. A resource whose parent is missing fails with the Go template error the
 * catalog reports, as an error result with exit code 0 (its SDK does not fail the process).
 */
import { Document, Scalar, YAMLMap } from "yaml";
import { INTERNAL_PATH } from "../../../krm/annotations.js";
import type { KrmResource } from "../../../krm/resource-list.js";
import { goStringStyle } from "../../../yaml/go-style.js";
import type { BuiltinFunction } from "../builtin-function.js";
import { goString } from "../go-values.js";
import { getString } from "../yaml-nodes.js";
import { terraformFiles } from "./hcl.js";
import { byteOrder, TemplateError, TfGraph } from "./model.js";

const KCC_API = "cnrm.cloud.google.com";
const SKIP_ANNOTATION = "cnrm.cloud.google.com/ignore-clusterless";

/** The kinds the export knows. */
export const SUPPORTED_KINDS: ReadonlySet<string> = new Set([
  "Folder",
  "Organization",
  "IAMPolicyMember",
  "IAMPartialPolicy",
  "IAMPolicy",
  "Project",
  "LoggingLogSink",
  "BigQueryDataset",
  "PubSubTopic",
  "StorageBucket",
  "IAMAuditConfig",
  "ComputeNetwork",
  "ComputeSubnetwork",
  "ComputeRoute",
  "ComputeRouter",
  "ComputeRouterNAT",
  "ComputeAddress",
  "ServiceNetworkingConnection",
  "ComputeFirewall",
  "LoggingLogBucket",
  "ComputeSharedVPCHostProject",
]);

/** The resource graph of the exported resources of a package, with its variables. */
export function buildGraph(items: readonly KrmResource[]): TfGraph {
  const graph = new TfGraph();
  for (const item of items) {
    if (!(goString(item, ["apiVersion"]) ?? "").includes(KCC_API)) continue;
    if (goString(item, ["metadata", "annotations", SKIP_ANNOTATION]) === "true") continue;
    const kind = goString(item, ["kind"]) ?? "";
    if (!SUPPORTED_KINDS.has(kind)) continue;
    graph.ref(kind, (goString(item, ["metadata", "name"]) ?? "").trim(), item);
  }
  graph.makeVariables();
  return graph;
}

function scalar(value: string): Scalar {
  const node = new Scalar(value);
  node.type = goStringStyle(value);
  return node;
}

/** The `terraform` ConfigMap as the catalog's SDK writes it (annotations and data keys sorted). */
export function terraformConfigMap(files: ReadonlyMap<string, string>): KrmResource {
  const doc = new Document({}) as KrmResource;
  const root = doc.contents as YAMLMap;
  root.set("apiVersion", "v1");
  root.set("kind", "ConfigMap");
  const metadata = new YAMLMap();
  metadata.set("name", "terraform");
  const annotations = new YAMLMap();
  const entries: Array<[string, string]> = [
    ["blueprints.cloud.google.com/flavor", "terraform"],
    ["blueprints.cloud.google.com/syntax", "hcl"],
    ["config.kubernetes.io/local-config", "true"],
    [INTERNAL_PATH, "terraform.yaml"],
  ];
  for (const [key, value] of entries) annotations.set(key, scalar(value));
  metadata.set("annotations", annotations);
  root.set("metadata", metadata);
  if (files.size > 0) {
    const data = new YAMLMap();
    for (const name of [...files.keys()].sort(byteOrder)) data.set(name, scalar(files.get(name) ?? ""));
    root.set("data", data);
  }
  return doc;
}

/** The SDK's UpsertObjectToItems identity: apiVersion, kind, name and namespace. */
function isTerraformConfigMap(doc: KrmResource): boolean {
  return (
    getString(doc, ["apiVersion"]) === "v1" &&
    getString(doc, ["kind"]) === "ConfigMap" &&
    getString(doc, ["metadata", "name"]) === "terraform" &&
    (getString(doc, ["metadata", "namespace"]) ?? "") === ""
  );
}

/** The builtin `export-terraform`. */
export const exportTerraform: BuiltinFunction = {
  name: "export-terraform",
  catalogVersion: "v0.3.0",
  run(input) {
    const log: string[] = [];
    let files: Map<string, string>;
    try {
      files = terraformFiles(buildGraph(input.items), log);
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      const stderr = log.join("");
      return {
        items: input.items,
        results: [{ message: err.message, severity: "error" }],
        exitCode: 0,
        ...(stderr ? { stderr } : {}),
      };
    }
    const items = input.items.some(isTerraformConfigMap)
      ? input.items
      : [...input.items, terraformConfigMap(files)];
    const stderr = log.join("");
    return { items, results: [], ...(stderr ? { stderr } : {}) };
  },
};
