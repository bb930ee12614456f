/**
 * Judging a commit the app does not author: render the packages it changes in memory, apply the merge
 * gate and report ONE `porchlight/render` check run on it. Shared by pull request heads (forks, other
 * branches), merge queue groups, re-runs and the default branch (the app never commits there).
 *
 * Steps of {@link checkCommit}:
 * 1. one verdict per sha: a commit that already has a concluded run from this app is not judged again
 *    (unless `force`: a re-run adds a run, GitHub's convention); a run another process holds is left to it;
 * 2. judged packages = top-most packages holding the changed paths (plus the draft branch's package),
 *    within the configured directories, found by path and read subtree by subtree (one whole tree read
 *    only when every package is judged); none → a `neutral` check, so a required check never waits forever;
 * 3. render them in memory (same engine and limits as a draft), 4. gate (./merge-gate.ts),
 * 5. the check run (adopting a stale one), remembered as this sha's verdict.
 * A failure that is not GitHub being unavailable concludes the run with failure; an outage leaves it to
 * the job's retry (which adopts the run).
 */

import { RenderInterruptedError } from "../engine/errors.js";
import {
  type CheckAnnotation,
  GitHubError,
  isGitHubOutage,
  type RepoRef,
  type RepoTree,
} from "../github/port.js";
import type { CheckReport } from "../report/check-summary.js";
import { describeFailure, noPackageOutput } from "../report/messages.js";
import { type LifecycleDeps, VERDICT_MEMO_MS, verdictKey } from "./deps.js";
import { type GateVerdict, gateCheckReport } from "./merge-gate.js";
import { readJudgedPackages } from "./package-subtrees.js";
import { type RenderedPackages, renderPackagesAtSha } from "./render-at-sha.js";
import { directoryOf } from "./revision-list.js";
import { touchedPackages } from "./touched-packages.js";
import { CheckRunTracker, findVerdict, recheckWhenLeaseEnds, type Verdict } from "./verdict.js";

/** What {@link checkCommit} found and reported. */
export type CommitCheck =
  | { kind: "no-package"; checkRunId: number }
  /** The sha already had a verdict (or a live process holds its run): nothing was posted. */
  | { kind: "existing"; conclusion: string | undefined }
  | {
      kind: "judged";
      checkRunId: number;
      conclusion: string;
      verdict: GateVerdict;
      rendered: RenderedPackages;
      packagePaths: string[];
    };

/**
 * The packages judged at a commit — the same rule on every path that renders: the top-most package
 * holding each changed path, plus the package a draft branch names (`branchPackage`), limited to the
 * configured `directories` (`/` = the whole repository). Repository-relative, `""` = root package.
 */
function judgedPackages(options: {
  tree: RepoTree;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  directories: readonly string[];
}): string[] {
  return touchedPackages({
    entries: options.tree.entries,
    changedPaths: options.changedPaths,
    branchPackage: options.branchPackage,
  }).filter((p) => directoryOf(p, options.directories) !== undefined);
}

/**
 * The verdict a sha already has: the memo first (no request), then this app's runs on it. A concluded
 * run is remembered.
 */
export async function existingVerdict(repo: RepoRef, sha: string, deps: LifecycleDeps): Promise<Verdict> {
  if (await deps.queue.remembers(verdictKey(repo, sha)))
    return { kind: "concluded", runId: 0, conclusion: "" };
  const verdict = await findVerdict({ port: deps.port, repo, sha, appId: deps.appId, lease: deps.lease });
  if (verdict.kind === "concluded") await deps.queue.remember(verdictKey(repo, sha), VERDICT_MEMO_MS);
  // Its holder may be dead: look again when the lease ends.
  if (verdict.kind === "held")
    recheckWhenLeaseEnds({ queue: deps.queue, installationId: deps.installationId, repo, held: verdict });
  return verdict;
}

/** The judged packages of a commit and their entries: every package (a whole tree), or the changed ones' subtrees. */
async function readJudged(options: {
  repo: RepoRef;
  sha: string;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  allPackages?: boolean;
  deps: LifecycleDeps;
}): Promise<{ tree: RepoTree; packagePaths: string[] }> {
  const { repo, sha, deps } = options;
  if (!options.allPackages)
    return readJudgedPackages({
      port: deps.port,
      repo,
      sha,
      changedPaths: options.changedPaths,
      branchPackage: options.branchPackage,
      directories: deps.config.directories,
    });
  const tree = await deps.port.readTree({ repo, sha });
  const packagePaths = judgedPackages({
    tree,
    changedPaths: tree.entries.map((e) => e.path),
    directories: deps.config.directories,
  });
  return { tree, packagePaths };
}

/** What {@link judgeCommit} found. */
export type Judgement =
  | { kind: "no-package"; packagePaths: string[] }
  | {
      kind: "rendered";
      packagePaths: string[];
      rendered: RenderedPackages;
      report: CheckReport;
      verdict: GateVerdict;
      annotations: CheckAnnotation[];
    };

/** What a commit's packages are and how they render, without reporting anything. */
export async function judgeCommit(options: {
  repo: RepoRef;
  sha: string;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  allPackages?: boolean;
  notes?: string[];
  deps: LifecycleDeps;
}): Promise<Judgement> {
  const { repo, sha, deps } = options;
  const { tree, packagePaths } = await readJudged(options);
  if (packagePaths.length === 0) return { kind: "no-package", packagePaths };
  const rendered = await renderPackagesAtSha({
    port: deps.port,
    repo,
    sha,
    tree,
    packagePaths,
    engine: deps.engine,
    pushOnFailure: deps.config.pushOnFailure,
    kptfileStatus: deps.config.kptfileStatus,
    limits: deps.limits,
  });
  const gated = gateCheckReport({
    packages: rendered.packages,
    changes: rendered.changes,
    enforceReadinessGates: deps.config.enforceReadinessGates,
    notes: options.notes ?? [],
  });
  return { kind: "rendered", packagePaths, rendered, ...gated };
}

/** How a use-case ends when something failed: conclude the run unless a retry will redo it. */
export async function concludeOnFailure(options: {
  check: CheckRunTracker;
  sha: string;
  error: unknown;
  deps: Pick<LifecycleDeps, "log">;
}): Promise<void> {
  const { check, error, deps } = options;
  // A render interrupted by shutdown is no verdict: the job runs again (another process, or reconciliation).
  if (check.completed || isGitHubOutage(error) || error instanceof RenderInterruptedError) return;
  const message = describeFailure(error, error instanceof GitHubError ? "rejected" : "crash");
  deps.log.error(`${options.sha}: ${message}`);
  await check.fail({ headSha: options.sha, message }).catch((e: unknown) => {
    deps.log.error(
      `could not complete the check run on ${options.sha}: ${e instanceof Error ? e.message : String(e)}`,
    );
  });
}

/**
 * Judges commit `sha` and reports it (see the module comment). `changedPaths` are the files the change
 * touches (pull request files, merge-group diff, pushed files). Throws GitHubError when GitHub fails.
 */
export async function checkCommit(options: {
  repo: RepoRef;
  sha: string;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  /** Judge every package of the commit (re-run of a default-branch commit, whose diff is unknown). */
  allPackages?: boolean;
  notes?: string[];
  /** A re-run: report again even when the sha has a verdict. */
  force?: boolean;
  deps: LifecycleDeps;
}): Promise<CommitCheck> {
  const { repo, sha, deps } = options;
  let adopt: { runId: number; sent: number } | undefined;
  if (!options.force) {
    const verdict = await existingVerdict(repo, sha, deps);
    if (verdict.kind === "concluded")
      return { kind: "existing", conclusion: verdict.conclusion || undefined };
    if (verdict.kind === "held") return { kind: "existing", conclusion: undefined };
    if (verdict.kind === "stale") adopt = { runId: verdict.runId, sent: verdict.sent };
  }
  const check = new CheckRunTracker({ port: deps.port, repo, lease: deps.lease });
  if (adopt) check.adopt(adopt);
  try {
    const judged = await judgeCommit(options);
    if (judged.kind === "no-package") {
      const { id } = await check.conclude({
        headSha: sha,
        conclusion: "neutral",
        output: noPackageOutput(deps.config.directories),
      });
      await deps.queue.remember(verdictKey(repo, sha), VERDICT_MEMO_MS);
      return { kind: "no-package", checkRunId: id };
    }
    const { id } = await check.publish({
      headSha: sha,
      report: judged.report,
      annotations: judged.annotations,
      renderedFrom: sha,
    });
    await deps.queue.remember(verdictKey(repo, sha), VERDICT_MEMO_MS);
    return {
      kind: "judged",
      checkRunId: id,
      conclusion: judged.report.conclusion,
      verdict: judged.verdict,
      rendered: judged.rendered,
      packagePaths: judged.packagePaths,
    };
  } catch (error) {
    await concludeOnFailure({ check, sha, error, deps });
    throw error;
  }
}
