/**
 * What export-terraform's Go templates call on the resource graph, with the errors and texts Go's
 * templates give: a missing resource's nil-pointer call, `<no value>`, `msToDays`.
 */
import { goFormatFloat } from "../go-values.js";
import { NIL_POINTER, TemplateError, type TfResource } from "./model.js";

/** What a Go template prints for a value it could not find (a missing map key). */
export const NO_VALUE = "<no value>";

/** Where a template dereferences a resource that may be missing, for the error the catalog reports. */
export interface Site {
  file: string;
  at: string;
  context: string;
}

export function nilCall(site: Site, method: string): TemplateError {
  return new TemplateError(
    `template: ${site.file}:${site.at}: executing "${site.file}" at <${site.context}>: error calling ${method}: ${NIL_POINTER}`,
  );
}

/** `node.resourceName()`, or the template's nil-pointer error when the node is missing. */
export function nameOf(node: TfResource | undefined, site: Site): string {
  if (!node) throw nilCall(site, "GetResourceName");
  return node.resourceName();
}

/** `node.terraformId(prefix)`, or the template's nil-pointer error when the node is missing. */
export function idOf(node: TfResource | undefined, site: Site, prefix = true): string {
  if (!node) throw nilCall(site, "GetTerraformId");
  return node.terraformId(prefix);
}

/** `$x.GetOrganization.GetTerraformId false` (the catalog logs a missing organization first). */
export function organizationId(node: TfResource, site: Site, log: string[]): string {
  if (!node.parent) throw nilCall(site, "GetOrganization");
  const org = node.organization();
  if (!org) log.push(`Failed to fetch organization for ${node.kind}/${node.name}`);
  return idOf(org, site, false);
}

/** A referenced resource's Terraform name, `<no value>` when the reference is absent. */
export function refName(node: TfResource, kind: string): string {
  const ref = node.references.get(kind);
  return ref ? ref.resourceName() : NO_VALUE;
}

/**
 * Go's `msToDays`: milliseconds as a time.Duration's `Hours() / 24`, rounded half away from zero to
 * two decimals.
 */
export function msToDays(ms: number): string {
  const ns = BigInt(ms) * 1_000_000n;
  const hour = 3_600_000_000_000n;
  const hours = Number(ns / hour) + Number(ns % hour) / 3.6e12;
  const scaled = (hours / 24) * 100;
  const rounded = Math.sign(scaled) * Math.round(Math.abs(scaled));
  return goFormatFloat(rounded / 100);
}
