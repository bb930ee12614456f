/**
 * Judging commits the app must never write to: a merge queue group and a direct push to the default
 * branch. Both render the changed packages in memory, commit nothing, and report `porchlight/render`
 * on the commit (./gate-check.ts).
 */
import type { LifecyclePort } from "../github/lifecycle-port.js";
import type { RepoRef } from "../github/port.js";
import { type CommitCheck, checkCommit, type GateDeps } from "./gate-check.js";

/** Dependencies: the gate's, with the lifecycle port (for the merge group diff). */
export type JudgeDeps = GateDeps & { port: LifecyclePort };

/**
 * `merge_group` `checks_requested`: renders the packages changed between `baseSha` and `headSha` (the
 * queue's temporary merge commit) and reports on `headSha`, so the queue can merge only what renders.
 */
export async function checkMergeGroup(
  group: { repo: RepoRef; headSha: string; baseSha: string },
  deps: JudgeDeps,
): Promise<CommitCheck> {
  const files = await deps.port.compareFiles({ repo: group.repo, base: group.baseSha, head: group.headSha });
  return checkCommit({
    repo: group.repo,
    sha: group.headSha,
    changedPaths: files,
    notes: ["Merge queue: rendered in memory, nothing committed."],
    deps,
  });
}

/**
 * A push straight to the default branch that touches packages gets a check only — the app never
 * commits to the default branch (publishing happens through pull requests).
 */
export async function checkDefaultBranchPush(
  push: { repo: RepoRef; sha: string; changedPaths: string[] },
  deps: GateDeps,
): Promise<CommitCheck> {
  return checkCommit({
    repo: push.repo,
    sha: push.sha,
    changedPaths: push.changedPaths,
    notes: [
      "Direct push to the default branch: checked only; porchlight never commits to the default branch.",
    ],
    deps,
  });
}
