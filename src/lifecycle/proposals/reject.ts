/**
 * Reject = close a pull request without merging (Porch: a rejected proposal goes back to Draft). The
 * draft branch is kept, so the revision can be edited and proposed again (reopen the pull request, or
 * open a new one). One comment says so; closing the same pull request again updates it instead of
 * adding another.
 */
import { REJECT_COMMENT_MARKER, rejectComment } from "../../report/comments.js";
import { UPGRADE_OBSOLETE_MARKER } from "../../report/upgrade.js";
import { UPSTREAM_DELETED_MARKER } from "../../report/upstream-deleted.js";
import { upsertComment } from "../comments.js";
import type { LifecycleDeps } from "../deps.js";
import { parseDraftBranch } from "../revision-naming.js";
import type { PullRequestInput } from "./pull-request-input.js";

/** What happened. */
export type RejectOutcome = { kind: "ignored"; reason: string } | { kind: "rejected"; comment: string };

/** Comments once on a rejected proposal; never deletes the branch. Throws GitHubError when GitHub fails. */
export async function rejectRevision(
  input: PullRequestInput,
  deps: Pick<LifecycleDeps, "config" | "port">,
): Promise<RejectOutcome> {
  const { repo, pull: pr, defaultBranch } = input;
  const draft = parseDraftBranch(pr.headRef, { draftPrefix: deps.config.draftBranchPrefix });
  if (!draft) return { kind: "ignored", reason: `${pr.headRef} is not a draft branch` };
  if (pr.baseRef !== defaultBranch)
    return { kind: "ignored", reason: `base ${pr.baseRef} is not the default branch` };
  const comments = await deps.port.listComments({ repo, issueNumber: pr.number });
  // An upgrade the app closed (its upstream package deleted, or no longer needed) is not a rejected
  // proposal: its note says what to do, and "reopen to keep authoring" would contradict it.
  if (comments.some((c) => c.body.includes(UPSTREAM_DELETED_MARKER)))
    return { kind: "ignored", reason: "closed by porchlight: its upstream package was deleted" };
  if (comments.some((c) => c.body.includes(UPGRADE_OBSOLETE_MARKER)))
    return { kind: "ignored", reason: "closed by porchlight: the upgrade is no longer needed" };
  const comment = await upsertComment({
    port: deps.port,
    repo,
    comments,
    issueNumber: pr.number,
    marker: REJECT_COMMENT_MARKER,
    body: rejectComment({ packagePath: draft.packagePath, workspace: draft.workspace, headRef: pr.headRef }),
  });
  return { kind: "rejected", comment };
}
