/** network.tf as export-terraform's template lays it out (see `hcl.ts`). */
import { goFormatFloat } from "../go-values.js";
import type { TfGraph, TfResource } from "./model.js";
import { nameOf, refName, type Site } from "./template-calls.js";

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

/** network.tf: each VPC's network, subnets, routes, firewalls, routers and service networking. */
export function networks(graph: TfGraph, log: string[]): string {
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
