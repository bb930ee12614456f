/**
 * Deciding, purely, the fate of a gone variant's draft (Porch's `deletionPolicy`): `delete` closes its
 * pull request and deletes the branch (published tags stay); `orphan`, or a draft a person pushed to,
 * is kept.
 */
import type { VariantRow } from "../../../report/package-variants.js";
import { deletionPolicyOf } from "../naming.js";
import type { GoneDraft } from "../read/gone-drafts.js";

/** What becomes of a gone variant's draft: its row and, for `delete`, the branch and pull request to end. */
export interface GonePlan {
  row: VariantRow;
  remove?: { branch: string; pull: number | undefined };
}

/** The plan for one gone draft. Pure. */
export function decideGoneDraft(draft: GoneDraft): GonePlan {
  const row = { name: draft.name, file: "", downstream: draft.packagePath };
  if (draft.appExternalId === null || deletionPolicyOf(draft.appExternalId) !== "delete") {
    const message =
      draft.appExternalId !== null
        ? "deletionPolicy orphan: draft kept"
        : "someone pushed to the draft: kept";
    return { row: { ...row, state: "orphaned", message } };
  }
  return { row: { ...row, state: "deleted" }, remove: { branch: draft.branch, pull: draft.pull } };
}
