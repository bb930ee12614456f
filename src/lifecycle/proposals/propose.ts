/**
 * Propose = a pull request from a draft branch into the default branch (Porch: Draft → Proposed; a
 * GitHub draft pull request is still a Draft revision). Porch refuses to propose a revision that does
 * not render: when a package is `Rendered=False` the pull request is converted back to a GitHub draft
 * (GraphQL) and ONE comment (updated, never duplicated) lists the failing steps; when it renders again
 * the same comment says so. Those are the FOLLOW-UPS of a verdict.
 *
 * Who gives the verdict (one per sha):
 * - a draft branch of this repository: the draft job (../draft/render-draft.ts) renders the head —
 *   committing when its content is not what rendering produces — and runs the follow-ups of the pull
 *   requests GitHub associates with the reported commit. A pull request event only makes sure that job
 *   runs, or, when the head already has its verdict (the pull request was opened after the push was
 *   rendered), runs the follow-ups itself;
 * - any other head (a fork, another branch): judged in memory and reported here (../check-commit.ts).
 *
 * Steps of {@link proposeRevision}, for the pull request's CURRENT state:
 * 1. closed unmerged → reject (./reject.ts); merged → nothing here (the publish job); base not the
 *    default branch → ignored;
 * 2. a draft branch of this repository: head without a concluded verdict → enqueue its draft job; with
 *    one → follow-ups (the failing steps are judged again in memory only when it failed);
 * 3. otherwise: judge and report the head, then the follow-ups.
 */
import { checkCommit, judgeCommit } from "../check-commit.js";
import type { LifecycleDeps } from "../deps.js";
import type { GateVerdict } from "../merge-gate.js";
import { followUpPullRequest } from "../pull-request-follow-up.js";
import { parseDraftBranch } from "../revision-naming.js";
import { findVerdict } from "../verdict.js";
import type { PullRequestInput } from "./pull-request-input.js";
import { rejectRevision } from "./reject.js";

/** What happened. */
export type ProposeOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "rendering" }
  | { kind: "rejected" }
  | { kind: "judged"; conclusion: string; convertedToDraft: boolean };

const PASSED: GateVerdict = { passed: true, problems: [] };

/** Runs the propose use-case for a pull request's current state. Throws GitHubError when GitHub fails. */
export async function proposeRevision(input: PullRequestInput, deps: LifecycleDeps): Promise<ProposeOutcome> {
  const { repo, pull } = input;
  if (pull.state === "closed") {
    if (pull.merged) return { kind: "ignored", reason: "merged: published by the publish job" };
    const rejected = await rejectRevision(input, deps);
    return rejected.kind === "rejected" ? { kind: "rejected" } : rejected;
  }
  if (pull.baseRef !== input.defaultBranch)
    return { kind: "ignored", reason: `base ${pull.baseRef} is not the default branch` };
  const draft = parseDraftBranch(pull.headRef, { draftPrefix: deps.config.draftBranchPrefix });

  if (draft && input.sameRepository) {
    // A push to the branch is rendered by its draft job, which follows up on this pull request.
    if (input.action === "synchronize") {
      await deps.queue.enqueue({
        kind: "draft",
        installationId: deps.installationId,
        repo,
        branch: pull.headRef,
      });
      return { kind: "rendering" };
    }
    const verdict = await findVerdict({
      port: deps.port,
      repo,
      sha: pull.headSha,
      appId: deps.appId,
      lease: deps.lease,
    });
    if (verdict.kind !== "concluded") {
      await deps.queue.enqueue({
        kind: "draft",
        installationId: deps.installationId,
        repo,
        branch: pull.headRef,
      });
      return { kind: "rendering" };
    }
    let gate = PASSED;
    if (verdict.conclusion === "failure") {
      const files = await deps.port.listPullRequestFiles({ repo, number: pull.number });
      const judged = await judgeCommit({
        repo,
        sha: pull.headSha,
        changedPaths: files,
        branchPackage: draft.packagePath,
        deps,
      });
      gate = judged.kind === "rendered" ? judged.verdict : PASSED;
    }
    const { convertedToDraft } = await followUpPullRequest({ repo, pull, verdict: gate, deps });
    return { kind: "judged", conclusion: verdict.conclusion, convertedToDraft };
  }

  // A fork or another branch: judged in memory and reported on its head.
  const files = await deps.port.listPullRequestFiles({ repo, number: pull.number });
  const judgeInput = {
    repo,
    sha: pull.headSha,
    changedPaths: files,
    branchPackage: draft?.packagePath,
    deps,
  };
  const checked = await checkCommit(judgeInput);
  if (checked.kind === "no-package")
    return { kind: "judged", conclusion: "neutral", convertedToDraft: false };
  let gate: GateVerdict;
  let conclusion: string;
  if (checked.kind === "judged") {
    gate = checked.verdict;
    conclusion = checked.conclusion;
  } else if (checked.conclusion === "failure" || checked.conclusion === undefined) {
    const judged = await judgeCommit(judgeInput);
    gate = judged.kind === "rendered" ? judged.verdict : PASSED;
    conclusion = judged.kind === "rendered" ? judged.report.conclusion : "neutral";
  } else {
    gate = PASSED;
    conclusion = checked.conclusion;
  }
  const { convertedToDraft } = await followUpPullRequest({ repo, pull, verdict: gate, deps });
  return { kind: "judged", conclusion, convertedToDraft };
}
