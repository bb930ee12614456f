/** The plain shapes of export-terraform's graph (variables, IAM bindings, audit and firewall entries), its error, and Go's string order. */

/** A Terraform variable made of a value several resources share (the organization, the billing account). */
export interface TfVariable {
  name: string;
  description: string;
  default: string;
}

/** A (role, members) pair of an IAM policy, members in the order the package grants them. */
export interface IamBinding {
  role: string;
  members: string[];
}

/** One entry of an `IAMAuditConfig`'s `spec.auditLogConfigs`. */
export interface AuditLogConfig {
  logType: string;
  exemptedMembers: string[];
}

/** One entry of a `ComputeFirewall`'s `spec.allow`. */
export interface FirewallAllow {
  protocol: string;
  ports: string[];
}

/**
 * A failure while writing the Terraform that the catalog function reports as a Go template error
 * (a resource whose parent or reference is missing).
 */
export class TemplateError extends Error {}

/** Go's nil-pointer panic text, which the catalog function prints for a missing reference. */
export const NIL_POINTER = "runtime error: invalid memory address or nil pointer dereference";

/** Go's string order (UTF-8 bytes; equal to UTF-16 order outside surrogates). */
export function byteOrder(a: string, b: string): number {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return Buffer.compare(ba, bb);
}
