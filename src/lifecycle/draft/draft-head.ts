/**
 * A draft's head as its job read it, and the draft render's steps around the render itself: what the
 * draft changes, whether and how its output is stored (decided, then committed by compare-and-swap), and
 * the neutral check of a branch that only looks like a Draft.
 */
import { type BranchHead, GitHubError, type RepoRef } from "../../github/port.js";
import { DELETION_PROPOSED_PREFIX } from "../../github/revision-source.js";
import { isRenderCommit, renderCommitMessage } from "../../report/commit-message.js";
import { deletionProposedOutput, notADraftOutput, renderNotes } from "../../report/messages.js";
import { existingVerdict } from "../check-commit.js";
import { CLAIM_MEMO_MS, claimKey, type LifecycleDeps, VERDICT_MEMO_MS, verdictKey } from "../deps.js";
import { contentDrift } from "../merge-gate.js";
import { noChanges, type RenderedPackages } from "../render-at-sha.js";
import { draftLookalike, normalizePrefix } from "../revision-naming.js";
import { CheckRunTracker } from "../verdict.js";

/** A draft branch and its head, as the job read them when it started. */
export interface DraftHead {
  repo: RepoRef;
  head: BranchHead;
  defaultBranch: string;
  /** A re-run: render again even when the head has a verdict (the loop guard still holds). */
  force?: boolean;
  /** Lines added to the summary (a re-run says so). */
  notes?: string[];
}

/**
 * What the draft changes: every path the branch changes against the default branch (what its pull
 * request's files are), so a draft and its pull request judge the same packages. A 404 (no common
 * history) leaves only the branch's own package.
 */
export async function draftChangedPaths(draft: DraftHead, deps: LifecycleDeps): Promise<string[]> {
  if (!draft.defaultBranch || draft.defaultBranch === draft.head.name) return [];
  try {
    return await deps.port.compareFiles({
      repo: draft.repo,
      base: draft.defaultBranch,
      head: draft.head.sha,
    });
  } catch (error) {
    if (error instanceof GitHubError && error.status === 404) return [];
    throw error;
  }
}

/** Step 4's decision: keep the head as it is (and why), or commit the render output onto it. */
export function decideStore(
  head: BranchHead,
  rendered: Pick<RenderedPackages, "packages" | "changes">,
): { kind: "kept"; note: string; loopGuard?: true } | { kind: "commit" } {
  if (noChanges(rendered.changes)) return { kind: "kept", note: renderNotes.unchanged(head.sha) };
  // Only the steps' results in the Kptfile's status.renderStatus differ (a re-render of rendered
  // content reports "no value changed" where the first render said "1 value(s) changed"): no noise commit.
  if (contentDrift(rendered.packages, rendered.changes).size === 0)
    return { kind: "kept", note: renderNotes.onlyResults(head.sha) };
  if (isRenderCommit(head.message)) return { kind: "kept", note: renderNotes.loopGuard(), loopGuard: true };
  return { kind: "commit" };
}

/** Step 4: commit the output onto the head (compare-and-swap), or say why not. */
export async function storeOutput(
  draft: DraftHead,
  rendered: RenderedPackages,
  deps: LifecycleDeps,
): Promise<
  | { kind: "kept"; note: string }
  | { kind: "committed"; sha: string }
  | { kind: "superseded"; message: string }
> {
  const { head, repo } = draft;
  const decided = decideStore(head, rendered);
  if (decided.kind === "kept") {
    if (decided.loopGuard)
      deps.log.warn(
        `${head.name}@${head.sha}: render of a render commit differs; not committing (loop guard)`,
      );
    return { kind: "kept", note: decided.note };
  }
  const outcome = await deps.port.commitFiles({
    repo,
    branch: head.name,
    expectedHead: head.sha,
    message: renderCommitMessage({ packages: rendered.packages, sha: head.sha }),
    changes: rendered.changes,
  });
  if (outcome.kind !== "committed") return { kind: "superseded", message: outcome.message };
  // Its push is on the way: it needs no job (this one reports it).
  await deps.queue.remember(claimKey(repo, outcome.sha), CLAIM_MEMO_MS);
  return outcome;
}

/** A neutral check saying why a branch that looks like a Draft is not one (once per sha). */
async function reportNotADraft(
  draft: DraftHead,
  reason: string,
  deps: LifecycleDeps,
  output = notADraftOutput(draft.head.name, reason),
): Promise<void> {
  const { repo, head } = draft;
  const verdict = await existingVerdict(repo, head.sha, deps);
  if (verdict.kind === "concluded" || verdict.kind === "held") return;
  const check = new CheckRunTracker({ port: deps.port, repo, lease: deps.lease });
  if (verdict.kind === "stale") check.adopt(verdict);
  await check.conclude({
    headSha: head.sha,
    conclusion: "neutral",
    output,
  });
  await deps.queue.remember(verdictKey(repo, head.sha), VERDICT_MEMO_MS);
}

/** The outcome for a branch that is not a Draft: a neutral check when it looks like one (or proposes a deletion). */
export async function ignoreNotADraft(
  draft: DraftHead,
  deps: LifecycleDeps,
): Promise<{ kind: "ignored"; reason: string }> {
  const { head } = draft;
  const lookalike = draftLookalike(head.name, { draftPrefix: deps.config.draftBranchPrefix });
  if (head.name.startsWith(DELETION_PROPOSED_PREFIX))
    await reportNotADraft(
      draft,
      "",
      deps,
      deletionProposedOutput(head.name.slice(DELETION_PROPOSED_PREFIX.length)),
    );
  else if (lookalike) await reportNotADraft(draft, lookalike, deps);
  return {
    kind: "ignored",
    reason:
      lookalike ?? `not a ${normalizePrefix(deps.config.draftBranchPrefix)}<package>/<workspace> branch`,
  };
}
