/**
 * Render a draft (Porch: a Draft PackageRevision is re-rendered whenever its resources change).
 * Level-triggered: it renders the branch head read when the job started, whatever event asked for it.
 *
 * Steps of {@link renderDraftHead}, for the head `H` of `drafts/<package-path>/<workspace>`:
 * 1. one verdict per sha: when `H` already has a concluded `porchlight/render` run from this app (the
 *    app's own render commit coming back, a push and a `synchronize` for the same sha, a redelivery),
 *    nothing is done; a run another live process holds is left to it; a stale one is adopted;
 * 2. judged packages = the top-most package holding each file the draft changes against the default
 *    branch (what its pull request shows) plus the package the branch names, within the configured
 *    directories (none → a neutral check): Kptfiles looked up by path, each package read as its own
 *    subtree, never the whole repository (../package-subtrees.ts);
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
import { noPackageOutput, renderNotes } from "../../report/messages.js";
import { concludeOnFailure, existingVerdict } from "../check-commit.js";
import { type LifecycleDeps, VERDICT_MEMO_MS, verdictKey } from "../deps.js";
import { type GateVerdict, gateCheckReport } from "../merge-gate.js";
import { readJudgedPackages } from "../package-subtrees.js";
import { followUpPullRequests } from "../pull-request-follow-up.js";
import { type RenderedPackages, renderOutputAgain, renderPackagesAtSha } from "../render-at-sha.js";
import { parseDraftBranch } from "../revision-naming.js";
import { CheckRunTracker } from "../verdict.js";
import { type DraftHead, draftChangedPaths, ignoreNotADraft, storeOutput } from "./draft-head.js";

export type { DraftHead };

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

/** Renders the draft head and reports it; see the module comment. Throws GitHubError when GitHub fails. */
export async function renderDraftHead(draft: DraftHead, deps: LifecycleDeps): Promise<RenderDraftOutcome> {
  const { repo, head } = draft;
  const parsed = parseDraftBranch(head.name, { draftPrefix: deps.config.draftBranchPrefix });
  if (!parsed) return ignoreNotADraft(draft, deps);
  // 1. One verdict per sha.
  const check = new CheckRunTracker({ port: deps.port, repo, lease: deps.lease });
  if (!draft.force) {
    const verdict = await existingVerdict(repo, head.sha, deps);
    if (verdict.kind === "concluded" || verdict.kind === "held") return { kind: "existing" };
    if (verdict.kind === "stale") check.adopt(verdict);
  }
  try {
    return await renderAndReport({ draft, branchPackage: parsed.packagePath, check, deps });
  } catch (error) {
    await concludeOnFailure({ check, sha: head.sha, error, deps });
    throw error;
  }
}

/** Steps 2 to 6 under the check run `check` (concluded by the caller when they throw). */
async function renderAndReport(options: {
  draft: DraftHead;
  branchPackage: string;
  check: CheckRunTracker;
  deps: LifecycleDeps;
}): Promise<RenderDraftOutcome> {
  const { draft, check, deps } = options;
  const { repo, head } = draft;
  // 2. What to render.
  const { packagePaths: paths, tree } = await readJudgedPackages({
    port: deps.port,
    repo,
    sha: head.sha,
    changedPaths: await draftChangedPaths(draft, deps),
    branchPackage: options.branchPackage,
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
    await deps.queue.enqueue({ kind: "draft", installationId: deps.installationId, repo, branch: head.name });
    if (!check.completed) await concludeSuperseded(check, draft, rendered, deps);
    return { kind: "superseded" };
  }
  // 5. The check, decided, then written.
  const decided = await decideDraftCheck({ draft, rendered, stored, deps });
  await writeDraftCheck({ draft, check, decided, rendered, deps });
  return {
    kind: "reported",
    checkSha: decided.checkSha,
    conclusion: decided.report.conclusion,
    packages: paths,
    verdict: decided.verdict,
    ...(decided.committedSha ? { committedSha: decided.committedSha } : {}),
  };
}

/** What the draft's check says, and on which commit. */
interface DraftCheck extends ReturnType<typeof gateCheckReport> {
  checkSha: string;
  committedSha: string | undefined;
  notes: string[];
}

/**
 * Step 5's decision, on the commit that now holds the content: ours holds exactly the render output
 * (judged as a re-run would judge it: its content rendered again, in memory); the head is judged with
 * what rendering would change. Writes nothing.
 */
async function decideDraftCheck(options: {
  draft: DraftHead;
  rendered: RenderedPackages;
  stored: { kind: "kept"; note: string } | { kind: "committed"; sha: string };
  deps: LifecycleDeps;
}): Promise<DraftCheck> {
  const { draft, rendered, stored, deps } = options;
  const committedSha = stored.kind === "committed" ? stored.sha : undefined;
  const notes = [
    ...(draft.notes ?? []),
    stored.kind === "committed" ? renderNotes.committed(stored.sha, draft.head.sha) : stored.note,
  ];
  const judged = committedSha
    ? await renderOutputAgain({
        rendered,
        engine: deps.engine,
        repo: draft.repo,
        pushOnFailure: deps.config.pushOnFailure,
        kptfileStatus: deps.config.kptfileStatus,
      })
    : rendered;
  const gate = gateCheckReport({
    packages: judged.packages,
    changes: judged.changes,
    enforceReadinessGates: deps.config.enforceReadinessGates,
    notes,
  });
  return { ...gate, checkSha: committedSha ?? draft.head.sha, committedSha, notes };
}

/** Step 5's and 6's writes: the check run (its own on our commit), the verdict memo, the pull request follow-ups. */
async function writeDraftCheck(options: {
  draft: DraftHead;
  check: CheckRunTracker;
  decided: DraftCheck;
  rendered: RenderedPackages;
  deps: LifecycleDeps;
}): Promise<void> {
  const { draft, check, decided, deps } = options;
  const { repo } = draft;
  // A stale run adopted on the head is concluded on the head; our commit gets its own run.
  const reporter =
    decided.committedSha && check.adoptedRun
      ? new CheckRunTracker({ port: deps.port, repo, lease: deps.lease })
      : check;
  if (reporter !== check) await concludeSuperseded(check, draft, options.rendered, deps, decided.notes);
  const created = await reporter.publish({
    headSha: decided.checkSha,
    report: decided.report,
    annotations: decided.annotations,
    renderedFrom: draft.head.sha,
  });
  await deps.queue.remember(verdictKey(repo, decided.checkSha), VERDICT_MEMO_MS);
  await followUpPullRequests({
    pulls: created.pullRequests.filter(
      (p) => p.baseRef === draft.defaultBranch && p.headSha === decided.checkSha,
    ),
    verdict: decided.verdict,
    deps,
    repo,
  });
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
