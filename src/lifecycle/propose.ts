/**
 * Propose = a pull request from a draft branch into the default branch (Porch: Draft → Proposed; a
 * GitHub draft pull request is still a Draft revision).
 *
 * Steps, on `opened` / `reopened` / `synchronize` / `ready_for_review`:
 * 1. the files the pull request changes (`GET pulls/{n}/files`);
 * 2. on `opened` / `reopened` / `ready_for_review` of a draft branch in this repository, the head is
 *    rendered exactly like a draft push (`renderDraft`: committed when its content is not what
 *    rendering produces; the render commit comes back as `synchronize` and is judged then), which
 *    reports the check; otherwise (`synchronize`: the push handler is already rendering that push; a
 *    fork; not a draft branch) the head is judged in memory (`checkCommit`). Both apply the same merge
 *    gate (`gateCheckReport`), and this event posts ONE `porchlight/render` check run;
 *    When the push handler is already rendering that head (the event came while its render ran), this
 *    event waits for the branch's renders and re-reads the head: if the app committed meanwhile, the
 *    render commit carries the verdict and this event posts nothing (never "edited by hand" on the
 *    user's unrendered commit);
 * 3. Porch refuses to propose a revision that does not render: when a package is `Rendered=False` the
 *    pull request is converted back to a GitHub draft (GraphQL) and ONE comment (updated, never
 *    duplicated) lists the failing steps; when it renders again the same comment says so.
 */
import type { LifecyclePort } from "../github/lifecycle-port.js";
import type { RepoRef } from "../github/port.js";
import { upsertComment } from "./comments.js";
import { checkCommit, type GateDeps } from "./gate-check.js";
import { describeProblem, type GateVerdict } from "./merge-gate.js";
import { draftLane, type RenderDraftOutcome, renderDraft } from "./render-draft.js";
import { parseDraftBranch } from "./revisions.js";
import type { WorkQueue } from "./work-queue.js";

/** A pull request event, reduced to what proposing needs. */
export interface PullRequestInput {
  repo: RepoRef;
  /** `opened`, `reopened`, `synchronize`, `ready_for_review`, ... */
  action: string;
  number: number;
  /** GraphQL node id (for `convertPullRequestToDraft`). */
  nodeId: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** GitHub draft pull request. */
  draft: boolean;
  /** The head branch is in this repository (not a fork): only then may the app commit to it. */
  sameRepository: boolean;
  defaultBranch: string;
}

/** Dependencies of {@link proposeRevision}. */
export interface ProposeDeps extends GateDeps {
  port: LifecyclePort;
  /** Shared with the push handler, so a head it is already rendering is not rendered twice. */
  queue?: WorkQueue;
}

/** What happened. */
export type ProposeOutcome =
  | { kind: "ignored"; reason: string }
  | {
      kind: "judged";
      conclusion: string;
      convertedToDraft: boolean;
      packages: string[];
      /** Set when the unrendered head was rendered and committed like a draft push. */
      render?: RenderDraftOutcome;
    };

/** Marker of the one comment proposing keeps up to date on a pull request. */
export const PROPOSE_COMMENT_MARKER = "<!-- porchlight:propose -->";

const PROPOSE_ACTIONS = new Set(["opened", "reopened", "synchronize", "ready_for_review"]);
const RENDER_FIRST_ACTIONS = new Set(["opened", "reopened", "ready_for_review"]);

function failureComment(pr: PullRequestInput, lines: string[], converted: boolean): string {
  const why = converted
    ? "Porch refuses to propose a package revision whose render fails, so this pull request was turned back into a **draft** (a GitHub draft pull request is a Draft revision)."
    : "Porch refuses to propose a package revision whose render fails: this pull request stays a **draft** until it renders.";
  return [
    PROPOSE_COMMENT_MARKER,
    "### ⛔ This revision cannot be proposed yet",
    "",
    why,
    "",
    `Failing at \`${pr.headSha.slice(0, 7)}\`:`,
    "",
    ...lines,
    "",
    `Push a fix to \`${pr.headRef}\`; once the \`porchlight/render\` check passes, mark the pull request ready for review.`,
  ].join("\n");
}

function fixedComment(pr: PullRequestInput): string {
  const next = pr.draft
    ? "Mark the pull request ready for review to propose the revision."
    : "The revision is proposed; merging it publishes it.";
  return [
    PROPOSE_COMMENT_MARKER,
    "### ✅ Renders cleanly now",
    "",
    `Every package this pull request touches renders at \`${pr.headSha.slice(0, 7)}\`. ${next}`,
  ].join("\n");
}

/**
 * Runs the propose use-case for one pull request event. Pull requests into another branch than the
 * default branch are ignored (they propose nothing). Throws GitHubError when GitHub fails.
 */
export async function proposeRevision(pr: PullRequestInput, deps: ProposeDeps): Promise<ProposeOutcome> {
  if (!PROPOSE_ACTIONS.has(pr.action)) return { kind: "ignored", reason: `action ${pr.action}` };
  if (pr.baseRef !== pr.defaultBranch)
    return { kind: "ignored", reason: `base ${pr.baseRef} is not the default branch` };
  const { port } = deps;
  const draft = parseDraftBranch(pr.headRef, { draftPrefix: deps.config.draftBranchPrefix });
  const files = await port.listPullRequestFiles({ repo: pr.repo, number: pr.number });

  // Opening / reopening / marking ready a draft branch of this repository: render it exactly like a draft
  // push (commit when its content is not what rendering produces — e.g. pushed before the app was
  // installed — and report the check with the merge gate); the render commit comes back as
  // `synchronize` and is judged then. On `synchronize` the push handler is already rendering that push,
  // so the head is only judged. Either way ONE check run from this event, with the same rules.
  let render: RenderDraftOutcome | undefined;
  if (draft && pr.sameRepository && RENDER_FIRST_ACTIONS.has(pr.action)) {
    render = await renderDraft(
      {
        repo: pr.repo,
        branch: pr.headRef,
        sha: pr.headSha,
        changedPaths: files,
        defaultBranch: pr.defaultBranch,
      },
      {
        port,
        engine: deps.engine,
        log: deps.log,
        config: deps.config,
        ...(deps.queue ? { queue: deps.queue } : {}),
      },
    );
  }
  if ((render?.kind === "duplicate" || render?.kind === "superseded") && deps.queue) {
    // The push handler has (or had) this head in hand: it renders, may commit, and reports the check.
    // Judging the unrendered head now would call the app's own pending render a hand edit. Wait for
    // the branch's renders, then re-read the head: when it moved (the app committed, or a newer push),
    // that commit gets its own check (and `synchronize` judges it); otherwise judge the head as usual.
    await deps.queue.idle(draftLane({ repo: pr.repo, branch: pr.headRef }));
    const head = port.readBranchHead
      ? await port.readBranchHead({ repo: pr.repo, branch: pr.headRef })
      : pr.headSha;
    if (head !== pr.headSha) {
      deps.log.info(
        `#${pr.number}: ${pr.headRef} moved from ${pr.headSha.slice(0, 7)} to ${head?.slice(0, 7) ?? "(deleted)"} while its render ran; that head is judged on its own`,
      );
      return { kind: "ignored", reason: "the head moved while its render ran" };
    }
  }
  let judged: { conclusion: string; verdict: GateVerdict; packages: string[] };
  if (render?.kind === "reported") {
    judged = render;
  } else {
    // Not rendered here (not a draft branch, a fork, `synchronize`, no package, or the push handler
    // is already on it): judge the head in memory.
    const checked = await checkCommit({
      repo: pr.repo,
      sha: pr.headSha,
      changedPaths: files,
      branchPackage: draft?.packagePath,
      deps,
    });
    if (checked.kind === "no-package") {
      return { kind: "judged", conclusion: "neutral", convertedToDraft: false, packages: [] };
    }
    judged = { conclusion: checked.conclusion, verdict: checked.verdict, packages: checked.packagePaths };
  }

  const failures = judged.verdict.problems.filter((p) => p.kind === "render-failed");
  let converted = false;
  if (failures.length > 0) {
    if (!pr.draft && deps.config.convertFailingToDraft) {
      await port.convertPullRequestToDraft({ nodeId: pr.nodeId });
      converted = true;
    }
    await upsertComment({
      port,
      repo: pr.repo,
      issueNumber: pr.number,
      marker: PROPOSE_COMMENT_MARKER,
      body: failureComment(pr, failures.map(describeProblem), converted || pr.draft),
    });
  } else {
    // Only a pull request we complained about gets the all-clear (no comment noise otherwise).
    await upsertComment({
      port,
      repo: pr.repo,
      issueNumber: pr.number,
      marker: PROPOSE_COMMENT_MARKER,
      body: fixedComment(pr),
      onlyIfExists: true,
    });
  }
  return {
    kind: "judged",
    conclusion: judged.conclusion,
    convertedToDraft: converted,
    packages: judged.packages,
    ...(render ? { render } : {}),
  };
}
