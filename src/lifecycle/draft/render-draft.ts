/**
 * Render a draft (Porch: a Draft PackageRevision is re-rendered whenever its resources change).
 * Level-triggered: it renders the branch head read when the job started, whatever event asked for it.
 *
 * Steps of {@link renderDraftHead}, for the head `H` of `drafts/<package-path>/<workspace>`:
 * 1. one verdict per sha: when `H` already has a concluded `porchlight/render` run from this app (the
 *    app's own render commit coming back, a push and a `synchronize` for the same sha, a redelivery),
 *    nothing is done; a run another live process holds is left to it; a stale one is adopted;
 * 2. read the tree at `H` once; judged packages = the top-most package holding each file the draft
 *    changes against the default branch (what its pull request shows) plus the package the branch
 *    names, within the configured directories (none → a neutral check);
 * 3. read those packages' blobs in batches and render each (`pushOnFailure`, size limits);
 * 4. if the output differs (in more than the functions' result messages: `contentDrift`), and `H` is not
 *    the app's own render commit (the loop guard), commit it onto `H` as ONE compare-and-swap
 *    (`commitFiles`): if the branch moved meanwhile — a push, a force-push, a rewind, a deletion — the
 *    result is dropped (`superseded`) and the branch gets a new job for its new head;
 * 5. one check run on the commit that now holds the content (ours `R`, or `H`), its conclusion from the
 *    merge gate exactly as on a pull request — `R` judged on its content rendered again in memory, so a
 *    pipeline that is not idempotent fails there as a re-run of `R` would — remembered as that sha's
 *    verdict (so `R`'s push costs nothing);
 * 6. the open pull requests GitHub associates with that commit get their follow-ups (../pull-request-follow-up.ts).
 * Writes: the commit and the check run (+1 per further 50 annotations).
 */
import { type BranchHead, GitHubError, type RepoRef } from "../../github/port.js";
import { DELETION_PROPOSED_PREFIX } from "../../github/revision-source.js";
import { isRenderCommit, renderCommitMessage } from "../../report/commit-message.js";
import {
  deletionProposedOutput,
  noPackageOutput,
  notADraftOutput,
  renderNotes,
} from "../../report/messages.js";
import { concludeOnFailure, existingVerdict, judgedPackages } from "../check-commit.js";
import { CLAIM_MEMO_MS, claimKey, type LifecycleDeps, VERDICT_MEMO_MS, verdictKey } from "../deps.js";
import { contentDrift, type GateVerdict, gateCheckReport } from "../merge-gate.js";
import { followUpPullRequests } from "../pull-request-follow-up.js";
import {
  noChanges,
  type RenderedPackages,
  renderOutputAgain,
  renderPackagesAtSha,
} from "../render-at-sha.js";
import { draftLookalike, normalizePrefix, parseDraftBranch } from "../revision-naming.js";
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

/** What happened. */
export type RenderDraftOutcome =
  | { kind: "ignored"; reason: string }
  /** The head already has a verdict, or another process holds its run. */
  | { kind: "existing" }
  /** The branch moved before the commit landed: the result was dropped. */
  | { kind: "superseded" }
  | { kind: "no-package"; checkSha: string }
  | {
      kind: "reported";
      checkSha: string;
      committedSha?: string;
      conclusion: string;
      packages: string[];
      /** The merge gate on the reported commit (the same rules as a pull request's check). */
      verdict: GateVerdict;
    };

/**
 * What the draft changes: every path the branch changes against the default branch (what its pull
 * request's files are), so a draft and its pull request judge the same packages. A 404 (no common
 * history) leaves only the branch's own package.
 */
async function draftChangedPaths(draft: DraftHead, deps: LifecycleDeps): Promise<string[]> {
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

/** Step 4: commit the output onto the head (CAS), or say why not. */
async function storeOutput(
  draft: DraftHead,
  rendered: RenderedPackages,
  deps: LifecycleDeps,
): Promise<
  | { kind: "kept"; note: string }
  | { kind: "committed"; sha: string }
  | { kind: "superseded"; message: string }
> {
  const { head, repo } = draft;
  if (noChanges(rendered.changes)) return { kind: "kept", note: renderNotes.unchanged(head.sha) };
  // Only the steps' results in the Kptfile's status.renderStatus differ (a re-render of rendered
  // content reports "no value changed" where the first render said "1 value(s) changed"): no noise commit.
  if (contentDrift(rendered.packages, rendered.changes).size === 0)
    return { kind: "kept", note: renderNotes.onlyResults(head.sha) };
  if (isRenderCommit(head.message)) {
    deps.log.warn(`${head.name}@${head.sha}: render of a render commit differs; not committing (loop guard)`);
    return { kind: "kept", note: renderNotes.loopGuard() };
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

/** Renders the draft head and reports it; see the module comment. Throws GitHubError when GitHub fails. */
export async function renderDraftHead(draft: DraftHead, deps: LifecycleDeps): Promise<RenderDraftOutcome> {
  const { repo, head } = draft;
  const parsed = parseDraftBranch(head.name, { draftPrefix: deps.config.draftBranchPrefix });
  if (!parsed) {
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

  // 1. One verdict per sha.
  const check = new CheckRunTracker({ port: deps.port, repo, lease: deps.lease });
  if (!draft.force) {
    const verdict = await existingVerdict(repo, head.sha, deps);
    if (verdict.kind === "concluded" || verdict.kind === "held") return { kind: "existing" };
    if (verdict.kind === "stale") check.adopt(verdict);
  }
  try {
    // 2. What to render.
    const tree = await deps.port.readTree({ repo, sha: head.sha });
    const paths = judgedPackages({
      tree,
      changedPaths: await draftChangedPaths(draft, deps),
      branchPackage: parsed.packagePath,
      directories: deps.config.directories,
    });
    if (paths.length === 0) {
      await check.conclude({
        headSha: head.sha,
        conclusion: "neutral",
        output: noPackageOutput(deps.config.directories),
      });
      await deps.queue.remember(verdictKey(repo, head.sha), VERDICT_MEMO_MS);
      return { kind: "no-package", checkSha: head.sha };
    }
    // 3. Render.
    const rendered = await renderPackagesAtSha({
      port: deps.port,
      repo,
      sha: head.sha,
      tree,
      packagePaths: paths,
      engine: deps.engine,
      pushOnFailure: deps.config.pushOnFailure,
      kptfileStatus: deps.config.kptfileStatus,
      limits: deps.limits,
    });
    // 4. Store.
    const stored = await storeOutput(draft, rendered, deps);
    if (stored.kind === "superseded") {
      deps.log.info(`${head.name}@${head.sha}: the branch moved (${stored.message}); result dropped`);
      await deps.queue.enqueue({
        kind: "draft",
        installationId: deps.installationId,
        repo,
        branch: head.name,
      });
      if (!check.completed) await concludeSuperseded(check, draft, rendered, deps);
      return { kind: "superseded" };
    }
    // 5. The check, on the commit that now holds the content: ours holds exactly the render output
    // (nothing left to change); the head is judged with what rendering would change.
    const committedSha = stored.kind === "committed" ? stored.sha : undefined;
    const notes = [
      ...(draft.notes ?? []),
      committedSha ? renderNotes.committed(committedSha, head.sha) : (stored as { note: string }).note,
    ];
    // Our commit is judged as a re-run of it would judge it: its content rendered again (in memory).
    const judged = committedSha
      ? await renderOutputAgain({
          rendered,
          engine: deps.engine,
          repo,
          pushOnFailure: deps.config.pushOnFailure,
          kptfileStatus: deps.config.kptfileStatus,
        })
      : rendered;
    const { report, verdict, annotations } = gateCheckReport({
      packages: judged.packages,
      changes: judged.changes,
      enforceReadinessGates: deps.config.enforceReadinessGates,
      notes,
    });
    const checkSha = committedSha ?? head.sha;
    // A stale run adopted on the head is concluded on the head; our commit gets its own run.
    const reporter =
      committedSha && check.adoptedRun
        ? new CheckRunTracker({ port: deps.port, repo, lease: deps.lease })
        : check;
    if (reporter !== check) await concludeSuperseded(check, draft, rendered, deps, notes);
    const created = await reporter.publish({
      headSha: checkSha,
      report,
      annotations,
      renderedFrom: head.sha,
    });
    await deps.queue.remember(verdictKey(repo, checkSha), VERDICT_MEMO_MS);
    // 6. Pull request follow-ups.
    await followUpPullRequests({
      pulls: created.pullRequests.filter((p) => p.baseRef === draft.defaultBranch && p.headSha === checkSha),
      verdict,
      deps,
      repo,
    });
    return {
      kind: "reported",
      checkSha,
      conclusion: report.conclusion,
      packages: paths,
      verdict,
      ...(committedSha ? { committedSha } : {}),
    };
  } catch (error) {
    await concludeOnFailure({ check, sha: head.sha, error, deps });
    throw error;
  }
}

/** Concludes a run adopted on a head whose render is not (or no longer) reported there: judged as it is. */
async function concludeSuperseded(
  check: CheckRunTracker,
  draft: DraftHead,
  rendered: RenderedPackages,
  deps: LifecycleDeps,
  notes: string[] = [],
): Promise<void> {
  if (!check.adoptedRun) return;
  const { report, annotations } = gateCheckReport({
    packages: rendered.packages,
    changes: rendered.changes,
    enforceReadinessGates: deps.config.enforceReadinessGates,
    notes,
  });
  await check.publish({ headSha: draft.head.sha, report, annotations, renderedFrom: draft.head.sha });
}
