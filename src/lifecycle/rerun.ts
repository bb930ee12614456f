/**
 * Re-run: `check_run` `rerequested`, `check_suite` `rerequested`, or the check run's "Re-render" button
 * (`requested_action`). The commit is rendered again from scratch — a re-run is never a duplicate:
 * - it is the head of open pull requests into the default branch → judged again for each of them;
 * - it is on a draft branch → judged; when its content is not what rendering produces, rendered and
 *   committed like a draft push;
 * - it is on the default branch → every package judged, nothing committed.
 */
import type { RepoRef } from "../github/port.js";
import { type CommitCheck, checkCommit } from "./gate-check.js";
import type { JudgeDeps } from "./merge-queue.js";
import { type RenderDraftOutcome, renderDraft } from "./render-draft.js";
import { parseDraftBranch } from "./revisions.js";

/** The commit whose check is re-requested, with what the webhook says about it. */
export interface RerunInput {
  repo: RepoRef;
  sha: string;
  /** Branch the check suite ran for (`null` for a fork or a deleted branch). */
  headBranch: string | null;
  /** Pull requests the check run belongs to (`check_run.pull_requests`). */
  pullRequests: { number: number; headRef: string; headSha: string; baseRef: string }[];
  defaultBranch: string;
}

/** What happened. */
export type RerunOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "judged"; checks: CommitCheck[] }
  | { kind: "rendered"; render: RenderDraftOutcome };

/** Runs the re-run. Throws GitHubError when GitHub fails. */
export async function rerunCheck(input: RerunInput, deps: JudgeDeps): Promise<RerunOutcome> {
  const { repo, sha } = input;
  const pulls = input.pullRequests.filter((p) => p.headSha === sha && p.baseRef === input.defaultBranch);
  const prefix = deps.config.draftBranchPrefix;
  if (pulls.length > 0) {
    const checks: CommitCheck[] = [];
    for (const pr of pulls) {
      const files = await deps.port.listPullRequestFiles({ repo, number: pr.number });
      checks.push(
        await checkCommit({
          repo,
          sha,
          changedPaths: files,
          branchPackage: parseDraftBranch(pr.headRef, { draftPrefix: prefix })?.packagePath,
          notes: [`Re-run for pull request #${pr.number}.`],
          deps,
        }),
      );
    }
    return { kind: "judged", checks };
  }
  const draft = input.headBranch ? parseDraftBranch(input.headBranch, { draftPrefix: prefix }) : undefined;
  if (input.headBranch && draft) {
    // Rendered again like a draft push: committed only when its content is not what rendering produces,
    // the check reported with the merge gate. No queue: a re-run must not be dropped as a duplicate of
    // the first render of this sha.
    const render = await renderDraft(
      { repo, branch: input.headBranch, sha, changedPaths: [], defaultBranch: input.defaultBranch },
      { port: deps.port, engine: deps.engine, log: deps.log, config: deps.config },
    );
    if (render.kind === "reported") return { kind: "rendered", render };
    // No package (a neutral check, so a required check never waits forever), or an older commit of the
    // branch whose render commit cannot land (superseded): judged in memory, so the re-run still reports.
    const check = await checkCommit({
      repo,
      sha,
      changedPaths: [],
      branchPackage: draft.packagePath,
      notes: ["Re-run."],
      deps,
    });
    return { kind: "judged", checks: [check] };
  }
  if (input.headBranch === input.defaultBranch) {
    const check = await checkCommit({
      repo,
      sha,
      changedPaths: [],
      allPackages: true,
      notes: ["Re-run."],
      deps,
    });
    return { kind: "judged", checks: [check] };
  }
  return {
    kind: "ignored",
    reason: `${input.headBranch ?? "(no branch)"} is neither a draft branch nor the default branch`,
  };
}
