/**
 * The Terraform files export-terraform writes, as the catalog function lays them out (its
 * generated text, blank lines and indentation included, so the exported ConfigMap is the same byte
 * for byte): folders.tf, iam.tf, projects.tf, log-export.tf and network.tf from the resource graph;
 * README.md, versions.tf and variables.tf when any of those has content. Each file is trimmed and
 * ends with one newline; a file with no content is left out.
 */
import { logExports } from "./log-export.js";
import { byteOrder, type TemplateError, type TfGraph, type TfResource } from "./model.js";
import { networks } from "./network.js";
import { idOf, NO_VALUE, organizationId, type Site } from "./template-calls.js";

/** The version the exported configuration attributes itself to (`provider_meta`). */
export const EXPORT_VERSION = "0.1.0";

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
