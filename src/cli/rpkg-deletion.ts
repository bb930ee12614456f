/**
 * Porch's DeletionProposed on GitHub, where reviewers look: `propose-delete` creates the branch
 * `deletion-proposed/<pkg>/v<N>` holding one empty commit on top of the revision's commit ("Propose deletion
 * of ..."), a new commit the app judges with its neutral `DeletionProposed: <tag>` check, and opens an issue
 * labelled `porchlight-deletion` that says what approving (`rpkg del`) and rejecting (`rpkg reject`) do.
 * Rejecting or deleting closes that issue with a comment saying which it was.
 */
import { DELETION_PROPOSED_PREFIX } from "../github/revision-source.js";
import { type LocatedRevision, tagOf, type VerbCtx } from "./rpkg-context.js";

/** The label of deletion-proposal issues. */
export const DELETION_LABEL = "porchlight-deletion";

const titleOf = (tag: string) => `DeletionProposed: ${tag}`;

function issueBody(r: LocatedRevision, tag: string): string {
  return `Published revision \`${r.name}\` (tag \`${tag}\`, commit ${r.sha}) is proposed for deletion.

- Approve the deletion: \`porchlight rpkg del ${r.name}\` — the tag is deleted and its commit kept at branch \`deleted/${tag}\` (nothing is lost).
- Reject it: \`porchlight rpkg reject ${r.name}\` — the revision is Published again (deleting the branch \`${DELETION_PROPOSED_PREFIX}${tag}\` does the same).

porchlight closes this issue when the proposal is decided.`;
}

/** Marks `r` DeletionProposed: the proposal branch (an empty commit on the revision's) and its issue. */
export async function proposeDeletion(ctx: VerbCtx, r: LocatedRevision): Promise<void> {
  const tag = tagOf(r);
  const branch = `${DELETION_PROPOSED_PREFIX}${tag}`;
  const created = await ctx.port.createBranch({ repo: r.repo, branch, sha: r.sha });
  if (created.kind === "exists") return;
  // A commit of its own, so the app gives the proposal a check (the tagged commit has its verdict already).
  await ctx.port.commitFiles({
    repo: r.repo,
    branch,
    expectedHead: r.sha,
    message: `Propose deletion of ${tag}\n\nDeletionProposed: porchlight rpkg del ${r.name} deletes it, porchlight rpkg reject ${r.name} keeps it.`,
    changes: { additions: [], deletions: [] },
  });
  const open = (await ctx.port.listIssues({ repo: r.repo, label: DELETION_LABEL })).find(
    (i) => i.state === "open" && i.title === titleOf(tag),
  );
  if (!open)
    await ctx.port.createIssue({
      repo: r.repo,
      title: titleOf(tag),
      body: issueBody(r, tag),
      labels: [DELETION_LABEL],
    });
}

/** Closes the open deletion-proposal issue of `r` (if any) with `note` as its last comment. */
export async function closeDeletionIssue(ctx: VerbCtx, r: LocatedRevision, note: string): Promise<void> {
  const tag = tagOf(r);
  const issues = await ctx.port.listIssues({ repo: r.repo, label: DELETION_LABEL });
  for (const issue of issues.filter((i) => i.state === "open" && i.title === titleOf(tag))) {
    await ctx.port.createComment({ repo: r.repo, issueNumber: issue.number, body: note });
    await ctx.port.updateIssue({ repo: r.repo, number: issue.number, state: "closed" });
  }
}
