/**
 * Judging commits the app must never write to: a merge queue group and the default branch. Both render
 * the changed packages in memory, commit nothing, and report `porchlight/render` on the commit
 * (./check-commit.ts).
 */
import type { RepoRef } from "../../github/port.js";
import { renderNotes } from "../../report/messages.js";
import { type CommitCheck, checkCommit } from "../check-commit.js";
import type { LifecycleDeps } from "../deps.js";

/**
 * `merge_group` `checks_requested`: renders the packages changed between `baseSha` and `headSha` (the
 * queue's temporary merge commit) and reports on `headSha`, so the queue can merge only what renders.
 */
export async function checkMergeGroup(
  group: { repo: RepoRef; headSha: string; baseSha: string },
  deps: LifecycleDeps,
): Promise<CommitCheck> {
  const files = await deps.port.compareFiles({ repo: group.repo, base: group.baseSha, head: group.headSha });
  return checkCommit({
    repo: group.repo,
    sha: group.headSha,
    changedPaths: files,
    notes: [renderNotes.mergeQueue()],
    deps,
  });
}

/**
 * The head of the default branch gets a check only — the app never commits to the default branch
 * (publishing happens through pull requests). The packages judged are those the head commit changes
 * (`changedPaths` when the caller knows them for this sha — a push's files — else the head commit's own
 * diff against its first parent, which for a merge commit is what the pull request changed).
 */
export async function checkDefaultBranchHead(
  head: { repo: RepoRef; sha: string; changedPaths?: string[] | undefined },
  deps: LifecycleDeps,
): Promise<CommitCheck> {
  const changedPaths =
    head.changedPaths ?? (await deps.port.listCommitFiles({ repo: head.repo, sha: head.sha }));
  return checkCommit({
    repo: head.repo,
    sha: head.sha,
    changedPaths,
    notes: [renderNotes.defaultBranch()],
    deps,
  });
}
