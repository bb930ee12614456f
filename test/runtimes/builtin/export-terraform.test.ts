/**
 * export-terraform: the Terraform the catalog function writes for Config Connector resources, byte for
 * byte (blank lines and indentation as its templates lay them out), the ConfigMap it is stored in,
 * and the catalog's behaviour at the edges (skipped resources, a missing parent, an existing export).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../../src/cli/main.js";
import { std } from "../../../src/cli/std-write.js";
import { exportTerraform } from "../../../src/runtimes/builtin/export-terraform/index.js";
import { getString } from "../../../src/runtimes/builtin/yaml-nodes.js";
import { runBuiltin } from "../helpers.js";

const PACKAGE = `apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Folder
metadata:
  name: platform
spec:
  displayName: Platform Team
  organizationRef:
    external: "424242424242"
---
apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Project
metadata:
  name: net-host
  annotations:
    cnrm.cloud.google.com/auto-create-network: false
spec:
  name: Network Host
  folderRef:
    name: platform
  billingAccountRef:
    external: AAAAAA-BBBBBB-CCCCCC
---
apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeSharedVPCHostProject
metadata:
  name: host
  annotations:
    cnrm.cloud.google.com/project-id: net-host
---
apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeNetwork
metadata:
  name: shared-vpc
  annotations:
    cnrm.cloud.google.com/project-id: net-host
spec:
  routingMode: GLOBAL
---
apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeSubnetwork
metadata:
  name: sb-east
  annotations:
    cnrm.cloud.google.com/project-id: net-host
spec:
  ipCidrRange: 10.0.0.0/24
  region: us-east1
  privateIpGoogleAccess: true
  networkRef:
    name: shared-vpc
  logConfig:
    aggregationInterval: INTERVAL_5_SEC
    flowSampling: 0.5
---
apiVersion: compute.cnrm.cloud.google.com/v1beta1
kind: ComputeFirewall
metadata:
  name: allow-ssh
  annotations:
    cnrm.cloud.google.com/project-id: net-host
spec:
  networkRef:
    name: shared-vpc
  priority: 1000
  allow:
    - protocol: tcp
      ports: [22]
  sourceRanges: [35.235.240.0/20]
---
apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMPolicyMember
metadata:
  name: viewer
spec:
  resourceRef:
    kind: Folder
    name: platform
  role: roles/viewer
  member: group:dev@example.com
---
apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMPartialPolicy
metadata:
  name: org-admins
spec:
  resourceRef:
    kind: Organization
    external: "424242424242"
  bindings:
    - role: roles/resourcemanager.organizationAdmin
      members:
        - member: group:admins@example.com
        - member: user:root@example.com
---
apiVersion: logging.cnrm.cloud.google.com/v1beta1
kind: LoggingLogSink
metadata:
  name: audit-sink
spec:
  organizationRef:
    external: "424242424242"
  destination:
    bigQueryDatasetRef:
      name: audit_logs
---
apiVersion: bigquery.cnrm.cloud.google.com/v1beta1
kind: BigQueryDataset
metadata:
  name: audit_logs
  annotations:
    cnrm.cloud.google.com/project-id: net-host
spec:
  location: US
  defaultTableExpirationMs: 3600000
---
apiVersion: storage.cnrm.cloud.google.com/v1beta1
kind: StorageBucket
metadata:
  name: skipped
  annotations:
    cnrm.cloud.google.com/ignore-clusterless: "true"
    cnrm.cloud.google.com/project-id: net-host
`;

async function exported(
  text: string,
): Promise<{ files: Record<string, string>; out: Awaited<ReturnType<typeof runBuiltin>> }> {
  const out = await runBuiltin(exportTerraform, text);
  const cm = out.items.find((d) => getString(d, ["metadata", "name"]) === "terraform");
  const files = (cm?.get("data") as { toJSON(): Record<string, string> } | undefined)?.toJSON() ?? {};
  return { files, out };
}

describe("export-terraform", () => {
  it("writes folders, projects, IAM, log exports and networks as the catalog lays them out", async () => {
    const { files, out } = await exported(PACKAGE);
    expect(out.results).toEqual([]);
    expect(Object.keys(files)).toEqual([
      "README.md",
      "folders.tf",
      "iam.tf",
      "log-export.tf",
      "network.tf",
      "projects.tf",
      "variables.tf",
      "versions.tf",
    ]);
    expect(files["folders.tf"]).toBe(
      [
        'resource "google_folder" "platform" {',
        '  display_name = "Platform Team"',
        `  parent       = "organizations/\${var.org_id}"`,
        "}",
        "",
      ].join("\n"),
    );
    expect(files["iam.tf"]).toBe(
      [
        'module "organization-iam" {',
        '  source  = "terraform-google-modules/iam/google//modules/organizations_iam"',
        '  version = "~> 7.4"',
        "",
        '  organizations = ["424242424242"]',
        "",
        "  bindings = {",
        "    ",
        '    "roles/resourcemanager.organizationAdmin" = [',
        '      "group:admins@example.com",',
        '      "user:root@example.com",',
        "    ]",
        "    ",
        "  }",
        "}",
        "",
        "",
        'module "platform-iam" {',
        '  source  = "terraform-google-modules/iam/google//modules/folders_iam"',
        '  version = "~> 7.4"',
        "",
        "  folders = [google_folder.platform.name]",
        "",
        "  bindings = {",
        "    ",
        '    "roles/viewer" = [',
        '      "group:dev@example.com",',
        "    ]",
        "    ",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    expect(files["projects.tf"]).toBe(
      [
        'module "net-host" {',
        '  source  = "terraform-google-modules/project-factory/google"',
        '  version = "~> 12.0"',
        "",
        '  name       = "Network Host"',
        '  project_id = "net-host"',
        "  org_id     = var.org_id",
        "  folder_id  = google_folder.platform.name",
        "",
        "  enable_shared_vpc_host_project = true",
        "  billing_account = var.billing_account",
        "}",
        "",
      ].join("\n"),
    );
    expect(files["log-export.tf"]).toBe(
      [
        'module "logsink-audit-sink" {',
        '  source  = "terraform-google-modules/log-export/google"',
        '  version = "~> 7.3.0"',
        "",
        "  destination_uri      = module.audit_logs-destination.destination_uri",
        '  log_sink_name        = "audit-sink"',
        "  parent_resource_id   = var.org_id",
        '  parent_resource_type = "organization"',
        "  include_children     = true",
        "}",
        "",
        'module "audit_logs-destination" {',
        '  source  = "terraform-google-modules/log-export/google//modules/bigquery"',
        '  version = "~> 7.3.0"',
        "",
        "  project_id               = module.net-host.project_id",
        '  dataset_name             = "audit_logs"',
        "  log_sink_writer_identity = module.logsink-audit-sink.writer_identity",
        '  expiration_days          = "0.04"',
        '  location                 = "US"',
        "}",
        "",
      ].join("\n"),
    );
    expect(files["network.tf"]).toBe(
      [
        "# VPC and Subnets",
        'module "shared-vpc" {',
        '    source  = "terraform-google-modules/network/google"',
        '    version = "~> 5.0"',
        "",
        "    project_id   = module.net-host.project_id",
        '    network_name = "shared-vpc"',
        '    routing_mode = "GLOBAL"',
        "",
        "    subnets = [",
        "       ",
        "        {",
        '            subnet_name           = "sb-east"',
        '            subnet_ip             = "10.0.0.0/24"',
        '            subnet_region         = "us-east1"',
        "            subnet_private_access = true",
        "            subnet_flow_logs      = true",
        '            subnet_flow_logs_sampling = "0.5"',
        '            subnet_flow_logs_interval = "INTERVAL_5_SEC"',
        "        },",
        "    ]",
        "    ",
        "}",
        "# Firewall Rules",
        'resource "google_compute_firewall" "allow-ssh" {',
        '  name      = "allow-ssh"',
        "  network   = module.shared-vpc.network_name",
        "  project   = module.net-host.project_id",
        "  priority  = 1000",
        "",
        "  allow {",
        '    protocol = "tcp"',
        '    ports    = ["22",]',
        "  }",
        "",
        "  source_ranges = [",
        '  "35.235.240.0/20",',
        "  ]",
        "}",
        "# NAT Router and config",
        "",
      ].join("\n"),
    );
    expect(files["variables.tf"]).toBe(
      [
        'variable "billing_account" {',
        '  description = "The ID of the billing account to associate projects with"',
        "  type        = string",
        '  default     = "AAAAAA-BBBBBB-CCCCCC"',
        "}",
        "",
        'variable "org_id" {',
        '  description = "The organization id for the associated resources"',
        "  type        = string",
        '  default     = "424242424242"',
        "}",
        "",
      ].join("\n"),
    );
    expect(files["versions.tf"]).toContain('module_name = "blueprints/terraform/exported-krm/v0.1.0"');
    expect(files["README.md"]).toMatch(/^# Google Cloud Foundation Blueprint\n/);
  });

  it("stores the export in a local-config ConfigMap at terraform.yaml, data keys sorted", async () => {
    const { out } = await exported(PACKAGE);
    const text = out.yaml.split("---\n").at(-1) ?? "";
    expect(text).toMatch(
      /^apiVersion: v1\nkind: ConfigMap\nmetadata:\n {2}name: terraform\n {2}annotations:\n {4}blueprints\.cloud\.google\.com\/flavor: terraform\n {4}blueprints\.cloud\.google\.com\/syntax: hcl\n {4}config\.kubernetes\.io\/local-config: "true"\n {4}internal\.config\.kubernetes\.io\/path: terraform\.yaml\ndata:\n {2}README\.md: \|\n/,
    );
    // iam.tf has lines ending in spaces: yaml.v3 cannot write it as a literal block.
    expect(text).toContain('  iam.tf: "module \\"organization-iam\\" {');
  });

  it("numbers resources only named by others when several share a kind, and uses no variable then", async () => {
    const { files } = await exported(`apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMPolicyMember
metadata:
  name: a
spec:
  resourceRef: {kind: Folder, external: "222"}
  role: roles/viewer
  member: user:a@example.com
---
apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMPolicyMember
metadata:
  name: b
spec:
  resourceRef: {kind: Folder, external: "111"}
  role: roles/editor
  member: user:b@example.com
---
apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Project
metadata:
  name: p1
spec:
  organizationRef: {external: "9"}
  billingAccountRef: {external: "B1"}
---
apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Project
metadata:
  name: p2
  annotations:
    cnrm.cloud.google.com/auto-create-network: "true"
spec:
  organizationRef: {external: "8"}
`);
    expect(files["iam.tf"]).toContain('module "folder-1-iam" {');
    expect(files["iam.tf"]).toContain('  folders = ["folders/111"]');
    expect(files["iam.tf"]).toContain('module "folder-2-iam" {');
    // Two organizations: no org_id variable, the id itself.
    expect(files["projects.tf"]).toContain('  name       = "p1"\n  org_id     = "9"\n');
    // No billing account reference: Go's template prints "<no value>".
    expect(files["projects.tf"]).toContain("  billing_account = <no value>\n}");
    expect(files["projects.tf"]).toContain("  billing_account = var.billing_account\n}");
    // A quoted "true" is a string, which the catalog's GetBool does not take.
    expect(files["projects.tf"]).not.toContain("auto_create_network");
    expect(files["variables.tf"]).not.toContain("org_id");
  });

  it("skips resources annotated ignore-clusterless and non-Config Connector resources", async () => {
    const { files, out } = await exported(`apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Folder
metadata:
  name: hidden
  annotations:
    cnrm.cloud.google.com/ignore-clusterless: "true"
spec:
  organizationRef: {external: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: other
`);
    expect(files).toEqual({});
    const cm = out.yaml.split("---\n").at(-1) ?? "";
    expect(cm).toContain("name: terraform");
    expect(cm).not.toMatch(/^data:/m);
  });

  it("keeps an existing terraform ConfigMap as the catalog's upsert does", async () => {
    const existing = `apiVersion: v1
kind: ConfigMap
metadata:
  name: terraform
data:
  folders.tf: stale
`;
    const out = await runBuiltin(exportTerraform, `${PACKAGE}---\n${existing}`);
    expect(out.items.filter((d) => getString(d, ["metadata", "name"]) === "terraform")).toHaveLength(1);
    expect(out.yaml).toContain("  folders.tf: stale\n");
  });

  it("reports a folder without a parent with the catalog's template error, exit code 0", async () => {
    const out = await runBuiltin(
      exportTerraform,
      `apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Folder
metadata:
  name: orphan
spec:
  displayName: Orphan
  organizationRef:
    external: 123
`,
    );
    expect(out.exitCode).toBe(0);
    expect(out.items).toHaveLength(1);
    expect(out.results).toEqual([
      {
        message:
          'template: folders.tf:4:27: executing "folders.tf" at <$folder.Parent.GetTerraformId>: error calling GetTerraformId: runtime error: invalid memory address or nil pointer dereference',
        severity: "error",
      },
    ]);
  });
});

describe("porchlight fn eval --image export-terraform", () => {
  it("writes terraform.yaml at the package root as kpt writes the catalog function's ConfigMap", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "porchlight-export-terraform-"));
    // The CLI writes to the descriptors through `std`: into the streams spied on below.
    vi.spyOn(std, "write").mockImplementation(
      (fd, text) => void (fd === 1 ? process.stdout : process.stderr).write(text),
    );
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await writeFile(
        path.join(dir, "folder.yaml"),
        `apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Folder
metadata:
  name: team
spec:
  displayName: Team
  organizationRef:
    external: "77"
---
apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMPolicyMember
metadata:
  name: team-viewer
spec:
  resourceRef:
    kind: Folder
    name: team
  role: roles/viewer
  member: group:team@example.com
`,
      );
      expect(await main(["fn", "eval", dir, "--image", "gcr.io/kpt-fn/export-terraform:unstable"])).toBe(0);
      const text = await readFile(path.join(dir, "terraform.yaml"), "utf8");
      expect(text).toMatch(
        /^apiVersion: v1\nkind: ConfigMap\nmetadata:\n {2}name: terraform\n {2}annotations:\n {4}blueprints\.cloud\.google\.com\/flavor: terraform\n {4}blueprints\.cloud\.google\.com\/syntax: hcl\n {4}config\.kubernetes\.io\/local-config: "true"\ndata:\n {2}README\.md: \|\n {4}# Google Cloud Foundation Blueprint\n/,
      );
      expect(text).toContain(
        [
          "  folders.tf: |",
          '    resource "google_folder" "team" {',
          '      display_name = "Team"',
          `      parent       = "organizations/\${var.org_id}"`,
          "    }",
          "",
        ].join("\n"),
      );
      expect(text).toContain(
        '  iam.tf: "module \\"team-iam\\" {\\n  source  = \\"terraform-google-modules/iam/google//modules/folders_iam\\"\\n  version = \\"~> 7.4\\"\\n\\n  folders = [google_folder.team.name]\\n\\n  bindings = {\\n    \\n    \\"roles/viewer\\" = [\\n      \\"group:team@example.com\\",\\n    ]\\n    \\n  }\\n}\\n"\n',
      );
      expect(text).toMatch(/\n {2}versions\.tf: \|\n {4}terraform \{\n[\s\S]*\n {4}\}\n$/);
    } finally {
      vi.restoreAllMocks();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
