/**
 * Re-run: `check_run` `rerequested`, `check_suite` `rerequested`, or the check run's "Re-render" button
 * (`requested_action`). A re-run reports again even when the commit has a verdict (GitHub's convention:
 * a re-run adds a run), and it obeys the same rules as the first render:
 * - the commit is the CURRENT head of a draft branch → rendered like a draft push (committed only when
 *   its content is not what rendering produces and it is not the app's own render commit: the loop
 *   guard), with the pull request follow-ups: the outcome names the draft, and the job hands it to the
 *   draft render;
 * - the head of open pull requests into the default branch (a fork, another branch) → judged again;
 * - an older commit of a draft branch → judged in memory, nothing committed;
 * - the default branch → every package judged, nothing committed.
 */
import type { BranchHead, RepoRef, RepoSnapshot } from "../../github/port.js";
import { renderNotes } from "../../report/messages.js";
import { type CommitCheck, checkCommit } from "../check-commit.js";
import type { LifecycleDeps } from "../deps.js";
import { parseDraftBranch } from "../revision-naming.js";

/** The commit whose check is re-requested, with what the webhook says about it. */
export interface RerunInput {
  repo: RepoRef;
  sha: string;
  /** Branch the check suite ran for (`null` for a fork or a deleted branch). */
  headBranch: string | null;
  /** Pull requests the check run belongs to (`check_run.pull_requests`). */
  pullRequests: { number: number; headRef: string; headSha: string; baseRef: string }[];
  /** The repository as the job read it (default branch, the head branch's current head). */
  snapshot: RepoSnapshot;
}

/** What happened. */
export type RerunOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "judged"; check: CommitCheck }
  | {
      kind: "render-draft";
      /** The draft head to render again (the draft render's input). */
      draft: { repo: RepoRef; head: BranchHead; defaultBranch: string; force: true; notes: string[] };
    };

/** Runs the re-run. Throws GitHubError when GitHub fails. */
export async function rerunCheck(input: RerunInput, deps: LifecycleDeps): Promise<RerunOutcome> {
  const { repo, sha, snapshot } = input;
  const defaultBranch = snapshot.defaultBranch;
  const prefix = deps.config.draftBranchPrefix;
  const draft = input.headBranch ? parseDraftBranch(input.headBranch, { draftPrefix: prefix }) : undefined;
  const pull = input.pullRequests.find((p) => p.headSha === sha && p.baseRef === defaultBranch);
  if (draft && snapshot.branch?.sha === sha) {
    const notes = [renderNotes.rerun(pull?.number)];
    return {
      kind: "render-draft",
      draft: { repo, head: snapshot.branch, defaultBranch, force: true, notes },
    };
  }
  if (pull) {
    const files = await deps.port.listPullRequestFiles({ repo, number: pull.number });
    const check = await checkCommit({
      repo,
      sha,
      changedPaths: files,
      branchPackage: parseDraftBranch(pull.headRef, { draftPrefix: prefix })?.packagePath,
      notes: [renderNotes.rerun(pull.number)],
      force: true,
      deps,
    });
    return { kind: "judged", check };
  }
  if (draft) {
    const check = await checkCommit({
      repo,
      sha,
      changedPaths: [],
      branchPackage: draft.packagePath,
      notes: [renderNotes.rerun()],
      force: true,
      deps,
    });
    return { kind: "judged", check };
  }
  if (input.headBranch === defaultBranch) {
    const check = await checkCommit({
      repo,
      sha,
      changedPaths: [],
      allPackages: true,
      notes: [renderNotes.rerun()],
      force: true,
      deps,
    });
    return { kind: "judged", check };
  }
  return {
    kind: "ignored",
    reason: `${input.headBranch ?? "(no branch)"} is neither a draft branch nor the default branch`,
  };
}
