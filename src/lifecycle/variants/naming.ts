/** Names of a variant's draft and of the app's commits on it. */
import type { ValidVariant } from "./package-variant.js";

/** The workspace prefix of a variant's draft (`drafts/<package>/variant-<name>`). */
export const VARIANT_WORKSPACE_PREFIX = "variant-";

/** The external id of the app's variant commits: the variant, the action and its deletion policy. */
export function variantExternalId(pv: ValidVariant, action: string): string {
  return `variant ${pv.name} ${action} deletion=${pv.deletionPolicy}`;
}

/** The deletion policy an external id of {@link variantExternalId} records. */
export function deletionPolicyOf(externalId: string | undefined): string | undefined {
  return /deletion=(\w+)/.exec(externalId ?? "")?.[1];
}
