/**
 * Reject = close a pull request without merging (Porch: a rejected proposal goes back to Draft). The
 * draft branch is kept, so the revision can be edited and proposed again (reopen the pull request, or
 * open a new one). One comment says so; closing the same pull request again updates it instead of
 * adding another.
 */
import type { LifecyclePort } from "../github/lifecycle-port.js";
import type { RepoRef } from "../github/port.js";
import { upsertComment } from "./comments.js";
import type { GateDeps } from "./gate-check.js";
import { parseDraftBranch } from "./revisions.js";

/** A pull request closed without merging. */
export interface ClosedPullRequest {
  repo: RepoRef;
  number: number;
  headRef: string;
  baseRef: string;
  defaultBranch: string;
}

/** What happened. */
export type RejectOutcome = { kind: "ignored"; reason: string } | { kind: "rejected"; comment: string };

/** Marker of the reject comment. */
export const REJECT_COMMENT_MARKER = "<!-- porchlight:reject -->";

/** Comments once on a rejected proposal; never deletes the branch. Throws GitHubError when GitHub fails. */
export async function rejectRevision(
  pr: ClosedPullRequest,
  deps: Pick<GateDeps, "config"> & { port: LifecyclePort },
): Promise<RejectOutcome> {
  const draft = parseDraftBranch(pr.headRef, { draftPrefix: deps.config.draftBranchPrefix });
  if (!draft) return { kind: "ignored", reason: `${pr.headRef} is not a draft branch` };
  if (pr.baseRef !== pr.defaultBranch)
    return { kind: "ignored", reason: `base ${pr.baseRef} is not the default branch` };
  const body = [
    REJECT_COMMENT_MARKER,
    "### ↩️ Proposal rejected",
    "",
    `Package \`${draft.packagePath}\`, workspace \`${draft.workspace}\` is a **Draft** revision again.`,
    `The branch \`${pr.headRef}\` is kept: push to it to keep authoring, and reopen this pull request (or open a new one) to propose it again.`,
  ].join("\n");
  const comment = await upsertComment({
    port: deps.port,
    repo: pr.repo,
    issueNumber: pr.number,
    marker: REJECT_COMMENT_MARKER,
    body,
  });
  return { kind: "rejected", comment };
}
