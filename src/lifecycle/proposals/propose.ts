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
 * Read, decide, write once: {@link decideProposal} decides from the pull request (and its head's
 * verdict, read when it asks), then one branch of {@link proposeRevision} acts.
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

/** What {@link decideProposal} reads: the pull request's state, and its head's verdict once read. */
export interface ProposalFacts {
  state: "open" | "closed";
  merged: boolean;
  /** Its base is the repository's default branch. */
  intoDefault: boolean;
  baseRef: string;
  /** Its head is a draft branch of this repository. */
  ownDraft: boolean;
  /** The webhook's action (`synchronize`: a push to the head). */
  action: string | undefined;
  /** The head's verdict: `pending` (none concluded), else its conclusion; absent: not read yet. */
  verdict?: { kind: "pending" } | { kind: "concluded"; conclusion: string };
}

/** The one thing {@link proposeRevision} does. */
export type ProposalDecision =
  | { kind: "ignored"; reason: string }
  | { kind: "reject" }
  | { kind: "read-verdict" }
  | { kind: "render" }
  | { kind: "follow-up"; conclusion: string; judgeAgain: boolean }
  | { kind: "judge-foreign" };

/** Decides from `facts` (pure): see the module comment's steps. */
export function decideProposal(facts: ProposalFacts): ProposalDecision {
  if (facts.state === "closed")
    return facts.merged
      ? { kind: "ignored", reason: "merged: published by the publish job" }
      : { kind: "reject" };
  if (!facts.intoDefault)
    return { kind: "ignored", reason: `base ${facts.baseRef} is not the default branch` };
  if (!facts.ownDraft) return { kind: "judge-foreign" };
  // A push to the branch is rendered by its draft job, which follows up on this pull request.
  if (facts.action === "synchronize") return { kind: "render" };
  if (!facts.verdict) return { kind: "read-verdict" };
  if (facts.verdict.kind === "pending") return { kind: "render" };
  const { conclusion } = facts.verdict;
  return { kind: "follow-up", conclusion, judgeAgain: conclusion === "failure" };
}

/** Runs the propose use-case for a pull request's current state. Throws GitHubError when GitHub fails. */
export async function proposeRevision(input: PullRequestInput, deps: LifecycleDeps): Promise<ProposeOutcome> {
  const { repo, pull } = input;
  const draft = parseDraftBranch(pull.headRef, { draftPrefix: deps.config.draftBranchPrefix });
  const facts: ProposalFacts = {
    state: pull.state === "closed" ? "closed" : "open",
    merged: Boolean(pull.merged),
    intoDefault: pull.baseRef === input.defaultBranch,
    baseRef: pull.baseRef,
    ownDraft: Boolean(draft && input.sameRepository),
    action: input.action,
  };
  let decision = decideProposal(facts);
  if (decision.kind === "read-verdict") {
    const verdict = await findVerdict({
      port: deps.port,
      repo,
      sha: pull.headSha,
      appId: deps.appId,
      lease: deps.lease,
    });
    facts.verdict =
      verdict.kind === "concluded"
        ? { kind: "concluded", conclusion: verdict.conclusion }
        : { kind: "pending" };
    decision = decideProposal(facts);
  }
  switch (decision.kind) {
    case "ignored":
      return decision;
    case "reject": {
      const rejected = await rejectRevision(input, deps);
      return rejected.kind === "rejected" ? { kind: "rejected" } : rejected;
    }
    case "render":
      await deps.queue.enqueue({
        kind: "draft",
        installationId: deps.installationId,
        repo,
        branch: pull.headRef,
      });
      return { kind: "rendering" };
    case "follow-up":
      return followUpDraft(input, deps, { ...decision, packagePath: draft!.packagePath });
    case "judge-foreign":
      return judgeForeign(input, deps, draft?.packagePath);
    case "read-verdict":
      throw new Error("the verdict was read: decideProposal does not ask again");
  }
}

/** A draft branch whose head has its verdict: the failing steps judged again (in memory), then the follow-ups. */
async function followUpDraft(
  input: PullRequestInput,
  deps: LifecycleDeps,
  d: { conclusion: string; judgeAgain: boolean; packagePath: string },
): Promise<ProposeOutcome> {
  const { repo, pull } = input;
  let gate = PASSED;
  if (d.judgeAgain) {
    const files = await deps.port.listPullRequestFiles({ repo, number: pull.number });
    const judged = await judgeCommit({
      repo,
      sha: pull.headSha,
      changedPaths: files,
      branchPackage: d.packagePath,
      deps,
    });
    gate = judged.kind === "rendered" ? judged.verdict : PASSED;
  }
  const { convertedToDraft } = await followUpPullRequest({ repo, pull, verdict: gate, deps });
  return { kind: "judged", conclusion: d.conclusion, convertedToDraft };
}

/** A fork or another branch: judged in memory and reported on its head, then the follow-ups. */
async function judgeForeign(
  input: PullRequestInput,
  deps: LifecycleDeps,
  branchPackage: string | undefined,
): Promise<ProposeOutcome> {
  const { repo, pull } = input;
  const files = await deps.port.listPullRequestFiles({ repo, number: pull.number });
  const judgeInput = { repo, sha: pull.headSha, changedPaths: files, branchPackage, deps };
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
