/**
 * The Terraform files export-terraform writes, as the catalog function lays them out (its
 * generated text, blank lines and indentation included, so the exported ConfigMap is the same byte
 * for byte): folders.tf, iam.tf, projects.tf, log-export.tf and network.tf from the resource graph;
 * README.md, versions.tf and variables.tf when any of those has content. Each file is trimmed and
 * ends with one newline; a file with no content is left out.
 */
import { goFormatFloat } from "../go-values.js";
import { byteOrder, NIL_POINTER, TemplateError, type TfGraph, type TfResource } from "./model.js";

/** The version the exported configuration attributes itself to (`provider_meta`). */
export const EXPORT_VERSION = "0.1.0";

/** What a Go template prints for a value it could not find (a missing map key). */
const NO_VALUE = "<no value>";

/** Where a template dereferences a resource that may be missing, for the error the catalog reports. */
interface Site {
  file: string;
  at: string;
  context: string;
}

function nilCall(site: Site, method: string): TemplateError {
  return new TemplateError(
    `template: ${site.file}:${site.at}: executing "${site.file}" at <${site.context}>: error calling ${method}: ${NIL_POINTER}`,
  );
}

/** `node.resourceName()`, or the template's nil-pointer error when the node is missing. */
function nameOf(node: TfResource | undefined, site: Site): string {
  if (!node) throw nilCall(site, "GetResourceName");
  return node.resourceName();
}

/** `node.terraformId(prefix)`, or the template's nil-pointer error when the node is missing. */
function idOf(node: TfResource | undefined, site: Site, prefix = true): string {
  if (!node) throw nilCall(site, "GetTerraformId");
  return node.terraformId(prefix);
}

/** `$x.GetOrganization.GetTerraformId false` (the catalog logs a missing organization first). */
function organizationId(node: TfResource, site: Site, log: string[]): string {
  if (!node.parent) throw nilCall(site, "GetOrganization");
  const org = node.organization();
  if (!org) log.push(`Failed to fetch organization for ${node.kind}/${node.name}`);
  return idOf(org, site, false);
}

/** A referenced resource's Terraform name, `<no value>` when the reference is absent. */
function refName(node: TfResource, kind: string): string {
  const ref = node.references.get(kind);
  return ref ? ref.resourceName() : NO_VALUE;
}

/**
 * Go's `msToDays`: milliseconds as a time.Duration's `Hours() / 24`, rounded half away from zero to
 * two decimals.
 */
function msToDays(ms: number): string {
  const ns = BigInt(ms) * 1_000_000n;
  const hour = 3_600_000_000_000n;
  const hours = Number(ns / hour) + Number(ns % hour) / 3.6e12;
  const scaled = (hours / 24) * 100;
  const rounded = Math.sign(scaled) * Math.round(Math.abs(scaled));
  return goFormatFloat(rounded / 100);
}

function folders(graph: TfGraph): string {
  const site: Site = { file: "folders.tf", at: "4:27", context: "$folder.Parent.GetTerraformId" };
  let out = "";
  for (const folder of graph.ofKind("Folder")) {
    if (!folder.created) continue;
    out += `\nresource "google_folder" "${folder.resourceName()}" {\n`;
    out += `  display_name = "${folder.displayName()}"\n`;
    out += `  parent       = ${idOf(folder.parent, site)}\n}\n`;
  }
  return out;
}

function bindingsBlock(node: TfResource, log: string[]): string {
  let out = "  bindings = {\n    ";
  const byRole = node.iamBindings(log);
  for (const role of [...byRole.keys()].sort(byteOrder)) {
    out += `\n    "${role}" = [`;
    for (const member of byRole.get(role) ?? []) out += `\n      "${member}",`;
    out += "\n    ]\n    ";
  }
  return `${out}\n  }\n}\n\n`;
}

function iam(graph: TfGraph, log: string[]): string {
  let out = "";
  for (const org of graph.ofKind("Organization")) {
    if (org.iamBindings(log).size === 0) continue;
    out += `\nmodule "${org.resourceName()}-iam" {\n`;
    out += '  source  = "terraform-google-modules/iam/google//modules/organizations_iam"\n';
    out += '  version = "~> 7.4"\n\n';
    out += `  organizations = ["${org.name}"]\n\n`;
    out += bindingsBlock(org, log);
  }
  for (const folder of graph.ofKind("Folder")) {
    if (folder.iamBindings(log).size === 0) continue;
    out += `\nmodule "${folder.resourceName()}-iam" {\n`;
    out += '  source  = "terraform-google-modules/iam/google//modules/folders_iam"\n';
    out += '  version = "~> 7.4"\n\n';
    out += `  folders = [${folder.terraformId()}]\n\n`;
    out += bindingsBlock(folder, log);
  }
  const site: Site = { file: "iam.tf", at: "35:19", context: "$ref.Parent.GetTerraformId" };
  for (const audit of graph.ofKind("IAMAuditConfig")) {
    out += '\nresource "google_organization_iam_audit_config" "org_config" {\n';
    out += `  org_id  = ${idOf(audit.parent, site, false)}\n`;
    out += `  service = "${audit.str("spec", "service")}"\n`;
    const configs = audit.auditLogConfigs();
    if (audit.item?.getIn(["spec", "auditLogConfigs"]) === undefined)
      log.push(`unable to find auditLogConfigs in ${audit.name} (found = false): %!s(<nil>)\n`);
    for (const cfg of configs) {
      out += `\n  audit_log_config {\n      log_type = "${cfg.logType}"`;
      if (cfg.exemptedMembers.length > 0) {
        out += "\n      exempted_members = [";
        for (const member of cfg.exemptedMembers) out += `\n      "${member}"`;
        out += "\n      ]";
      }
      out += "\n  }";
    }
    out += "\n}\n";
  }
  return out;
}

function projects(graph: TfGraph, log: string[]): string {
  const site: Site = { file: "projects.tf", at: "8:26", context: "$project.GetOrganization.GetTerraformId" };
  let out = "";
  for (const project of graph.ofKind("Project")) {
    if (!project.created) continue;
    const name = project.resourceName();
    const display = project.displayName();
    out += `\nmodule "${name}" {\n`;
    out += '  source  = "terraform-google-modules/project-factory/google"\n';
    out += '  version = "~> 12.0"\n\n';
    out += `  name       = "${display}"`;
    if (display !== name) out += `\n  project_id = "${name}"`;
    out += `\n  org_id     = ${organizationId(project, site, log)}`;
    if (project.parent?.kind === "Folder") out += `\n  folder_id  = ${project.parent.terraformId(false)}`;
    out += "\n";
    if (project.isSharedVpcHost()) out += "\n  enable_shared_vpc_host_project = true";
    const billing = project.references.get("BillingAccount");
    out += `\n  billing_account = ${billing ? billing.terraformId(false) : NO_VALUE}`;
    if (project.bool("metadata", "annotations", "cnrm.cloud.google.com/auto-create-network"))
      out += "\n  auto_create_network = true";
    out += "\n}\n";
  }
  return out;
}

function logExports(graph: TfGraph, log: string[]): string {
  const orgSite: Site = {
    file: "log-export.tf",
    at: "8:36",
    context: "$logsink.GetOrganization.GetTerraformId",
  };
  const parentSite = (at: string): Site => ({
    file: "log-export.tf",
    at,
    context: ".Parent.GetResourceName",
  });
  let out = "";
  for (const sink of graph.ofKind("LoggingLogSink")) {
    const refs = sink.references;
    const sinkName = sink.resourceName();
    if (sink.created) {
      const destination =
        refs.get("BigQueryDataset") ??
        refs.get("PubSubTopic") ??
        refs.get("StorageBucket") ??
        refs.get("LoggingLogBucket");
      out += `\nmodule "logsink-${sinkName}" {\n`;
      out += '  source  = "terraform-google-modules/log-export/google"\n';
      out += '  version = "~> 7.3.0"\n\n';
      out += `  destination_uri      = module.${destination ? destination.resourceName() : ""}-destination.destination_uri\n`;
      out += `  log_sink_name        = "${sink.displayName()}"\n`;
      out += `  parent_resource_id   = ${organizationId(sink, orgSite, log)}\n`;
      out += '  parent_resource_type = "organization"\n';
      out += "  include_children     = true\n}\n";
    }
    const dataset = refs.get("BigQueryDataset");
    if (dataset) {
      const name = dataset.resourceName();
      out += `\nmodule "${name}-destination" {\n`;
      out += '  source  = "terraform-google-modules/log-export/google//modules/bigquery"\n';
      out += '  version = "~> 7.3.0"\n\n';
      out += `  project_id               = module.${nameOf(dataset.parent, parentSite("17:46"))}.project_id\n`;
      out += `  dataset_name             = "${name}"\n`;
      out += `  log_sink_writer_identity = module.logsink-${sinkName}.writer_identity`;
      const expiration = dataset.int("spec", "defaultTableExpirationMs");
      if (expiration !== 0) out += `\n  expiration_days          = "${msToDays(expiration)}"`;
      const location = dataset.str("spec", "location");
      if (location !== "") out += `\n  location                 = "${location}"`;
      out += "\n}\n";
    }
    const topic = refs.get("PubSubTopic");
    if (topic) {
      const name = topic.resourceName();
      out += `\nmodule "${name}-destination" {\n`;
      out += '  source  = "terraform-google-modules/log-export/google//modules/pubsub"\n';
      out += '  version = "~> 7.3.0"\n\n';
      out += `  project_id               = module.${nameOf(topic.parent, parentSite("28:46"))}.project_id\n`;
      out += `  topic_name               = "${name}"\n`;
      out += `  log_sink_writer_identity = module.logsink-${sinkName}.writer_identity\n}\n`;
    }
    const bucket = refs.get("StorageBucket");
    if (bucket) {
      const name = bucket.resourceName();
      out += `\nmodule "${name}-destination" {\n`;
      out += '  source  = "terraform-google-modules/log-export/google//modules/storage"\n';
      out += '  version = "~> 7.3.0"\n\n';
      out += `  project_id                  = module.${nameOf(bucket.parent, parentSite("37:49"))}.project_id\n`;
      out += `  storage_bucket_name         = "${name}"\n`;
      out += `  log_sink_writer_identity    = module.logsink-${sinkName}.writer_identity\n`;
      out += `  uniform_bucket_level_access = ${bucket.bool("spec", "uniformBucketLevelAccess")}`;
      const location = bucket.str("spec", "location");
      if (location !== "") out += `\n  location                    = "${location}"`;
      const storageClass = bucket.str("spec", "storageClass");
      if (storageClass !== "") out += `\n  storage_class               = "${storageClass}"`;
      const retention = bucket.int("spec", "retentionPolicy", "retentionPeriod");
      if (retention !== 0) {
        out += "\n  retention_policy = {\n";
        out += `    retention_period_days = ${msToDays(retention * 1000)},\n`;
        out += `    is_locked             = ${bucket.bool("spec", "retentionPolicy", "isLocked")}\n  }`;
      }
      out += "\n}\n";
    }
    const logBucket = refs.get("LoggingLogBucket");
    if (logBucket) {
      const name = logBucket.resourceName();
      out += `\nmodule "${name}-destination" {\n`;
      out += '  source  = "terraform-google-modules/log-export/google//modules/logbucket"\n';
      out += '  version = "~> 7.4.1"\n\n';
      out += `  project_id               = module.${nameOf(logBucket.parent, parentSite("53:46"))}.project_id\n`;
      out += `  name                     = "${name}"`;
      const location = logBucket.str("spec", "location");
      if (location !== "") out += `\n  location                 = "${location}"`;
      const days = logBucket.int("spec", "retentionDays");
      if (days !== 0) out += `\n  retention_days           = ${days}`;
      out += `\n  log_sink_writer_identity = module.logsink-${sinkName}.writer_identity\n}\n`;
    }
  }
  return out;
}

function subnets(vpc: TfResource): string {
  let out = "\n\n    subnets = [\n       ";
  for (const subnet of vpc.childrenOfKind("ComputeSubnetwork")) {
    out += "\n        {\n";
    out += `            subnet_name           = "${subnet.resourceName()}"\n`;
    out += `            subnet_ip             = "${subnet.str("spec", "ipCidrRange")}"\n`;
    out += `            subnet_region         = "${subnet.str("spec", "region")}"`;
    if (subnet.bool("spec", "privateIpGoogleAccess")) out += "\n            subnet_private_access = true";
    const interval = subnet.str("spec", "logConfig", "aggregationInterval");
    if (interval !== "") {
      out += "\n            subnet_flow_logs      = true";
      const sampling = subnet.float("spec", "logConfig", "flowSampling");
      if (sampling !== 0) out += `\n            subnet_flow_logs_sampling = "${goFormatFloat(sampling)}"`;
      const metadata = subnet.str("spec", "logConfig", "metadata");
      if (metadata !== "") out += `\n            subnet_flow_logs_metadata = "${metadata}"`;
      out += `\n            subnet_flow_logs_interval = "${interval}"`;
    }
    out += "\n        },";
  }
  return `${out}\n    ]\n    `;
}

function routes(vpc: TfResource): string {
  const list = vpc.childrenOfKind("ComputeRoute");
  if (list.length === 0) return "";
  let out = "\n    routes = [\n      ";
  for (const route of list) {
    out += `{\n        name = "${route.resourceName()}"`;
    const description = route.str("spec", "description");
    if (description !== "") out += `\n        description = "${description}"`;
    const destRange = route.str("spec", "destRange");
    if (destRange !== "") out += `\n        destination_range = "${destRange}"`;
    const priority = route.int("spec", "priority");
    if (priority !== 0) out += `\n        priority = "${priority}"`;
    if (route.str("spec", "nextHopGateway") === "default-internet-gateway")
      out += '\n        next_hop_internet = "true"';
    const tags = route.strings("spec", "tags");
    if (tags.length > 0) out += `\n        tags = "${tags.join(",")}"`;
    out += "\n      },";
  }
  return `${out}\n    ]`;
}

function firewalls(vpc: TfResource, vpcName: string, project: string, log: string[]): string {
  let out = "\n# Firewall Rules";
  for (const fw of vpc.childrenOfKind("ComputeFirewall")) {
    const name = fw.resourceName();
    out += `\nresource "google_compute_firewall" "${name}" {\n`;
    out += `  name      = "${name}"\n`;
    out += `  network   = module.${vpcName}.network_name\n`;
    out += `  project   = module.${project}.project_id`;
    const direction = fw.str("spec", "direction");
    if (direction !== "") out += `\n  direction = "${direction}"`;
    const priority = fw.int("spec", "priority");
    if (priority !== 0) out += `\n  priority  = ${priority}`;
    out += "\n";
    if (fw.bool("spec", "enableLogging"))
      out += '\n  log_config {\n      metadata = "INCLUDE_ALL_METADATA"\n    }\n';
    const allows = fw.firewallAllows();
    if (fw.item?.getIn(["spec", "allow"]) === undefined)
      log.push(`unable to find allowed FW ports/protocol in ${fw.name} (found = false): %!s(<nil>)\n`);
    for (const allow of allows) {
      out += `\n  allow {\n    protocol = "${allow.protocol}"`;
      if (allow.ports.length > 0) out += `\n    ports    = [${allow.ports.map((p) => `"${p}",`).join("")}]`;
      out += "\n  }\n";
    }
    const ranges = fw.strings("spec", "sourceRanges");
    if (ranges.length > 0) out += `\n  source_ranges = [${ranges.map((r) => `\n  "${r}",`).join("")}\n  ]`;
    out += "\n}";
  }
  return out;
}

function routers(vpc: TfResource, vpcName: string, project: string): string {
  let out = "\n# NAT Router and config";
  for (const router of vpc.childrenOfKind("ComputeRouter")) {
    const routerName = router.resourceName();
    out += `\nresource "google_compute_router" "${routerName}" {\n`;
    out += `  name    = "${routerName}"\n`;
    out += `  project = module.${project}.project_id\n`;
    out += `  region  = "${router.str("spec", "region")}"\n`;
    out += `  network = module.${vpcName}.network_self_link\n}\n`;
    for (const nat of router.childrenOfKind("ComputeRouterNAT")) {
      const name = nat.resourceName();
      out += `\nresource "google_compute_router_nat" "${name}" {\n`;
      out += `  name                               = "${name}"\n`;
      out += `  project                            = module.${project}.project_id\n`;
      out += `  router                             = google_compute_router.${routerName}.name\n`;
      out += `  region                             = "${nat.str("spec", "region")}" `;
      const allocate = nat.str("spec", "natIpAllocateOption");
      if (allocate !== "") out += `\n  nat_ip_allocate_option             = "${allocate}"`;
      out += `\n  nat_ips                            = google_compute_address.${refName(nat, "ComputeAddress")}.*.self_link `;
      const ranges = nat.str("spec", "sourceSubnetworkIpRangesToNat");
      if (ranges !== "") out += `\n  source_subnetwork_ip_ranges_to_nat = "${ranges}"`;
      out += "\n";
      if (nat.bool("spec", "logConfig", "enable")) {
        out += "\n  log_config { ";
        const filter = nat.str("spec", "logConfig", "filter");
        if (filter !== "") out += `\n    filter = "${filter}" `;
        out += "\n    enable = true\n  }";
      }
      out += "\n}\n";
      const address = nat.references.get("ComputeAddress");
      if (address) {
        const addressName = address.resourceName();
        out += `\nresource "google_compute_address" "${addressName}" {\n`;
        out += `  project = module.${project}.project_id\n`;
        out += `  name    = "${addressName}"\n`;
        out += `  region  = "${address.str("spec", "location")}"\n}`;
      }
    }
  }
  return out;
}

function serviceNetworking(vpc: TfResource, vpcName: string, project: string): string {
  let out = "";
  for (const svc of vpc.childrenOfKind("ServiceNetworkingConnection")) {
    out += "\n# Service Networking for Cloud SQL & other services\n";
    out += `resource "google_service_networking_connection" "${svc.resourceName()}" {\n`;
    out += `  network                 = module.${vpcName}.network_self_link\n`;
    out += '  service                 = "servicenetworking.googleapis.com"\n';
    out += `  reserved_peering_ranges = [google_compute_global_address.${refName(svc, "ComputeAddress")}.name]\n}\n`;
    const address = svc.references.get("ComputeAddress");
    if (address) {
      const name = address.resourceName();
      out += `\nresource "google_compute_global_address" "${name}" {\n`;
      out += `  name          = "${name}"\n`;
      out += `  project       = module.${project}.project_id`;
      const purpose = address.str("spec", "purpose");
      if (purpose !== "") out += `\n  purpose       = "${purpose}" `;
      const addressType = address.str("spec", "addressType");
      if (addressType !== "") out += `\n  address_type  = "${addressType}"`;
      const ip = address.str("spec", "address");
      if (ip !== "") out += `\n  address       = "${ip}"`;
      const prefix = address.int("spec", "prefixLength");
      if (prefix !== 0) out += `\n  prefix_length = "${prefix}"`;
      out += `\n  network       = module.${vpcName}.network_self_link\n}\n`;
    }
  }
  return out;
}

function networks(graph: TfGraph, log: string[]): string {
  const site: Site = { file: "network.tf", at: "7:36", context: ".Parent.GetResourceName" };
  let out = "";
  for (const vpc of graph.ofKind("ComputeNetwork")) {
    if (!vpc.created) continue;
    const vpcName = vpc.resourceName();
    const project = nameOf(vpc.parent, site);
    out += `\n# VPC and Subnets\nmodule "${vpcName}" {\n`;
    out += '    source  = "terraform-google-modules/network/google"\n';
    out += '    version = "~> 5.0"\n\n';
    out += `    project_id   = module.${project}.project_id\n`;
    out += `    network_name = "${vpcName}"`;
    const routingMode = vpc.str("spec", "routingMode");
    if (routingMode !== "") out += `\n    routing_mode = "${routingMode}"`;
    const description = vpc.str("spec", "description");
    if (description !== "") out += `\n    description  = "${description}"`;
    out += subnets(vpc);
    out += routes(vpc);
    out += "\n}";
    out += firewalls(vpc, vpcName, project, log);
    out += routers(vpc, vpcName, project);
    out += "\n";
    out += serviceNetworking(vpc, vpcName, project);
  }
  return out;
}

const README = `# Google Cloud Foundation Blueprint

This directory contains Terraform configuration for a foundational environment on Google Cloud.

It includes a subset of resources configured via the [setup checklist](https://cloud.google.com/docs/enterprise/setup-checklist)
and is based on the [security foundations blueprint](https://cloud.google.com/architecture/security-foundations).

## Prerequisites

To run the commands described in this document, you need the following:

1. Install the [Google Cloud SDK](https://cloud.google.com/sdk/install) version 319.0.0 or later
1. Install [Terraform](https://www.terraform.io/downloads.html) version 0.13.7 or later.
1. Set up a Google Cloud
   [organization](https://cloud.google.com/resource-manager/docs/creating-managing-organization).
1. Set up a Google Cloud
   [billing account](https://cloud.google.com/billing/docs/how-to/manage-billing-account).
1. For the user who will run the Terraform install, grant the
   following roles:
   -  The \`roles/billing.admin\` role on the billing account.
   -  The \`roles/resourcemanager.organizationAdmin\` role on the Google
      Cloud organization.
   -  The \`roles/resourcemanager.folderCreator\` role on the Google
      Cloud organization.
   -  The \`roles/resourcemanager.projectCreator\` role on the Google
      Cloud organization.

## Deploying

1. Run \`terraform init\`.
1. Run \`terraform plan\` and review the output.
1. Run \`terraform apply\`.

## Next steps

Once you have the basic foundation deployed, you should explore:
1. Building an [advanced foundation](https://github.com/terraform-google-modules/terraform-example-foundation) using the security blueprint
2. Automatically deploying Terraform with [Cloud Build](https://cloud.google.com/architecture/managing-infrastructure-as-code)
`;

function versions(): string {
  return `terraform {
  required_version = ">=0.13"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = ">= 4.0.0"
    }
  }
  provider_meta "google" {
    module_name = "blueprints/terraform/exported-krm/v${EXPORT_VERSION}"
  }
}`;
}

function variables(graph: TfGraph): string {
  let out = "";
  for (const name of [...graph.variables.keys()].sort(byteOrder)) {
    const v = graph.variables.get(name);
    if (!v) continue;
    out += `\nvariable "${v.name}" {\n  description = "${v.description}"\n  type        = string\n  default     = "${v.default}"\n}\n`;
  }
  return out;
}

/** Go's `strings.TrimSpace` + one newline; undefined for a file with nothing in it. */
function finish(text: string): string | undefined {
  const trimmed = text.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, "");
  return trimmed === "" ? undefined : `${trimmed}\n`;
}

/**
 * The Terraform module for the graph, file name → content (insertion order = the catalog's order of
 * evaluation; the ConfigMap sorts them). `log` receives what the catalog function writes to stderr.
 * Throws {@link TemplateError} where the catalog's templates fail.
 */
export function terraformFiles(graph: TfGraph, log: string[]): Map<string, string> {
  const files = new Map<string, string>();
  const add = (name: string, text: string) => {
    const content = finish(text);
    if (content !== undefined) files.set(name, content);
  };
  add("folders.tf", folders(graph));
  add("iam.tf", iam(graph, log));
  add("projects.tf", projects(graph, log));
  add("log-export.tf", logExports(graph, log));
  add("network.tf", networks(graph, log));
  if (files.size > 0) {
    add("README.md", README);
    add("versions.tf", versions());
    add("variables.tf", variables(graph));
  }
  return files;
}
