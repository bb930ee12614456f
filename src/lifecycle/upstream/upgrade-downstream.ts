/**
 * Upgrade pull requests (Porch's upgrade, as a GitHub pull request). For one downstream package —
 * level-triggered, from what GitHub holds now:
 * 1. read the package on the default branch and its Kptfile's upstream and lock;
 * 2. find the upstream package's newest published revision (`<package>/v<N>` tags of the upstream
 *    repository — in the installation or a public repository on the same host);
 * 3. if the package is behind, compute the upgrade: kpt's update with the Kptfile's strategy
 *    (default resource-merge), from the locked revision to `v<N>`; a merge that cannot be done is a
 *    failed `porchlight/upgrade` run on the default branch's head, and no draft;
 * 4. write it to the draft `drafts/<package>/upstream-upgrade` (one per downstream: a newer revision
 *    updates it, unless a person pushed to it — then a comment instead) and open or update its pull
 *    request (not again when a person closed it unmerged at this content); the draft is rendered like
 *    any other;
 * 5. report the local edits the merge overrides: a `porchlight/upgrade` run on the app's commit and on
 *    its render (warnings at each field) and a list in the pull request body;
 * 6. with `upgrades.autoMerge` only: merge it once its head passed `porchlight/render` and it overrides
 *    no local edit;
 * and when the upstream package was deleted, end its upgrades (./upstream-deleted.ts) instead.
 * Read, decide, write once: the job reads the facts ./upgrade-decision.ts asks for until it decides,
 * then carries out that one decision.
 */
import type { RepoRef } from "../../github/port.js";
import {
  outcomeAnnotations,
  overrideAnnotations,
  UPGRADE_CHECK_NAME,
  UPGRADE_FAILED_LABEL,
  type UpgradeState,
  upgradeCheckOutput,
  upgradeFailureIssue,
  upgradeFailureOutput,
  upgradeNeedsReview,
  upgradePullBody,
  upgradePullTitle,
} from "../../report/upgrade.js";
import { upgradeBlockedId, upgradeBlockedOutput } from "../../report/upgrade-blocked.js";
import { renderedGreen, writeDraft } from "../app-draft.js";
import { ensureCheckRun } from "../ensure-check-run.js";
import { formatDraftBranch, UPGRADE_WORKSPACE } from "../revision-naming.js";
import type { ComputedUpgrade, UpstreamDeps } from "../upgrade-plan.js";
import { readPackageFiles } from "../upstream-port.js";
import { decideUpgrade, type UpgradeDecision, type UpgradeOutcome } from "./upgrade-decision.js";
import { readFact, type UpgradeRun } from "./upgrade-facts.js";
import { closeObsolete, noteHeld } from "./upgrade-notes.js";
import { endUpgrades } from "./upstream-deleted.js";

function externalId(pkg: string, to: number): string {
  return `upgrade ${pkg} to=v${to}`;
}

/** Posts the `porchlight/upgrade` run of an upgrade on `sha` (warnings located in that commit's files). */
async function postUpgradeCheck(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  sha: string;
  state: UpgradeState;
}): Promise<void> {
  const { deps, repo, sha, state } = options;
  const files = (await readPackageFiles({ port: deps.port, repo, sha, dir: state.package })).files;
  const annotations = overrideAnnotations({
    overrides: state.overrides,
    packagePath: state.package,
    text: (file) => files.get(state.package ? file.slice(state.package.length + 1) : file)?.toString("utf8"),
  });
  annotations.push(
    ...outcomeAnnotations({
      outcomes: state.outcomes ?? [],
      packagePath: state.package,
      text: (file) =>
        files.get(state.package ? file.slice(state.package.length + 1) : file)?.toString("utf8"),
    }),
  );
  await deps.port.createCheckRun({
    repo,
    name: UPGRADE_CHECK_NAME,
    headSha: sha,
    status: "completed",
    conclusion: upgradeNeedsReview(state) ? "neutral" : "success",
    output: upgradeCheckOutput(state, annotations),
    externalId: externalId(state.package, state.to),
  });
}

/** Says on the default branch's head why no upgrade comes for `pkg` (once per commit and reason). */
async function reportBlocked(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  sha: string;
  pkg: string;
  reason: string;
}): Promise<void> {
  const { deps, repo, sha, pkg, reason } = options;
  deps.log.warn(`${repo.owner}/${repo.repo}/${pkg}: no upgrade: ${reason}`);
  const id = upgradeBlockedId(pkg, reason);
  await ensureCheckRun(deps.port, {
    repo,
    name: UPGRADE_CHECK_NAME,
    sha,
    externalId: id,
    conclusion: "neutral",
    output: upgradeBlockedOutput({ pkg, reason }),
  });
}

/** Opens the issue of a failed upgrade unless one with its title is open (webhooks come twice). */
async function openFailureIssue(
  deps: UpstreamDeps,
  repo: RepoRef,
  failure: Parameters<typeof upgradeFailureIssue>[0],
): Promise<void> {
  const issue = upgradeFailureIssue(failure);
  const open = await deps.port.listIssues({ repo, label: UPGRADE_FAILED_LABEL });
  if (open.some((i) => i.state === "open" && i.title === issue.title)) return;
  await deps.port.createIssue({ repo, ...issue, labels: [UPGRADE_FAILED_LABEL] });
}

/** One downstream package: see the module comment. */
export async function upgradeDownstream(
  input: { repo: RepoRef; pkg: string; defaultBranch: string; defaultSha: string },
  deps: UpstreamDeps,
): Promise<UpgradeOutcome> {
  if (input.pkg === "") return { kind: "not-downstream" };
  const branch = formatDraftBranch(
    { packagePath: input.pkg, workspace: UPGRADE_WORKSPACE },
    { draftPrefix: deps.config.draftBranchPrefix },
  );
  const run: UpgradeRun = { input, deps, branch, facts: { autoMerge: deps.config.upgrades.autoMerge } };
  for (;;) {
    const decision = decideUpgrade(run.facts);
    if (decision.kind !== "read") return carryOut(run, decision);
    await readFact(run, decision.fact);
  }
}

/** Does what {@link decideUpgrade} decided: the one write of the job. */
async function carryOut(
  run: UpgradeRun,
  d: Exclude<UpgradeDecision, { kind: "read" }>,
): Promise<UpgradeOutcome> {
  const { deps, input } = run;
  const { repo, pkg, defaultSha } = input;
  switch (d.kind) {
    case "done":
      return d.outcome;
    case "report-blocked":
      await reportBlocked({ deps, repo, sha: defaultSha, pkg, reason: d.reason });
      return { kind: "blocked", message: d.reason };
    case "end-upgrades":
      return {
        kind: "upstream-deleted",
        closed: await endUpgrades({ ...input, deletion: d.deletion }, deps),
      };
    case "report-failure":
      await reportFailure(run, d.to, d.message);
      return { kind: "failed", message: d.message };
    case "hold":
      if (d.comment !== undefined)
        await noteHeld(deps.port, repo, d.comment, d.to, run.status!.upstreamPackage);
      return { kind: "held", to: d.to };
    case "close-obsolete":
      await closeObsolete(deps.port, repo, { pkg, upstream: run.status!.upstreamPackage, ...d });
      return { kind: "obsolete", pull: d.pull, current: d.current };
    case "keep":
      return keepDraft(run, d);
    case "write":
      return writeUpgrade(run, d);
  }
}

/** A merge that cannot be done: a failed run on the default branch's head, and an issue. */
async function reportFailure(run: UpgradeRun, to: number, message: string): Promise<void> {
  const { deps, input } = run;
  const failure = {
    pkg: input.pkg,
    upstream: run.status!.upstreamPackage,
    to,
    message,
    repository: input.repo.repo,
  };
  await ensureCheckRun(deps.port, {
    repo: input.repo,
    name: UPGRADE_CHECK_NAME,
    sha: input.defaultSha,
    externalId: `upgrade-failed ${input.pkg} to=v${to}`,
    conclusion: "failure",
    output: upgradeFailureOutput(failure),
  });
  await openFailureIssue(deps, input.repo, failure);
}

/** The draft holds this upgrade: its head gets the report too, its pull request is open (and merged, maybe). */
async function keepDraft(
  run: UpgradeRun,
  d: Extract<UpgradeDecision, { kind: "keep" }>,
): Promise<UpgradeOutcome> {
  const { deps, input, branch } = run;
  const upgrade = run.upgrade!;
  const state: UpgradeState = { ...upgrade.state, commit: run.ours! };
  const repo = input.repo;
  if (d.reportHead) await postUpgradeCheck({ deps, repo, sha: run.head!, state });
  const number =
    run.facts.draft?.pull?.number ??
    (await openPull({ deps, repo, branch, base: input.defaultBranch, upgrade, state }));
  if (d.tryMerge && (await autoMerge({ deps, repo, number, headSha: run.head! })))
    return { kind: "merged", to: d.to, pull: number };
  return { kind: "current", to: d.to, pull: number, overrides: d.overrides };
}

/** Writes the upgrade to the draft, reports it, and opens or updates its pull request. */
async function writeUpgrade(
  run: UpgradeRun,
  d: Extract<UpgradeDecision, { kind: "write" }>,
): Promise<UpgradeOutcome> {
  const { deps, input, branch } = run;
  const { repo, pkg } = input;
  const status = run.status!;
  const upgrade = run.upgrade!;
  const write = await writeDraft({
    port: deps.port,
    repo,
    branch,
    baseSha: input.defaultSha,
    dir: pkg,
    files: upgrade.files,
    executables: status.executables,
    message: `Upgrade ${pkg} to ${status.upstreamPackage}/v${d.to}\n\nUpstream ${upgrade.state.upstream.repo} ${status.upstreamPackage}: v${status.current} → v${d.to} (kpt pkg update, ${upgrade.strategy}).\n`,
  });
  if (write.kind === "superseded")
    throw new Error(`${branch} moved while it was written; the next run retries`);
  const state: UpgradeState = { ...upgrade.state, commit: write.sha };
  await postUpgradeCheck({ deps, repo, sha: write.sha, state });
  if (d.update !== undefined) {
    await deps.port.updatePullRequest({
      repo,
      number: d.update,
      title: upgradePullTitle(state),
      body: upgradePullBody({ state, strategy: upgrade.strategy, upstreamChanges: upgrade.upstreamChanges }),
    });
    return { kind: "updated", to: d.to, pull: d.update, overrides: d.overrides };
  }
  const number = await openPull({ deps, repo, branch, base: input.defaultBranch, upgrade, state });
  return { kind: "proposed", to: d.to, pull: number, overrides: d.overrides };
}

/**
 * `upgrades.autoMerge`: merges the upgrade pull request when its head (`headSha`, the rendered draft)
 * passed `porchlight/render`, then publishes it (the publish job, as the merge's webhook would ask).
 */
async function autoMerge(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  number: number;
  headSha: string;
}): Promise<boolean> {
  const { deps, repo, number, headSha } = options;
  if (!(await renderedGreen({ port: deps.port, repo, sha: headSha, appId: deps.appId }))) return false;
  const merged = await deps.port.mergePullRequest({ repo, number, sha: headSha });
  if (merged.kind === "refused") {
    deps.log.info(
      `upgrade pull request #${number} of ${repo.owner}/${repo.repo} not merged: ${merged.message}`,
    );
    return false;
  }
  await deps.queue.enqueue({
    kind: "publish",
    installationId: deps.installationId,
    repo,
    number,
    sameRepository: true,
  });
  return true;
}

async function openPull(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  branch: string;
  base: string;
  upgrade: ComputedUpgrade;
  state: UpgradeState;
}): Promise<number> {
  const { deps, repo, upgrade, state } = options;
  const created = await deps.port.createPullRequest({
    repo,
    head: options.branch,
    base: options.base,
    title: upgradePullTitle(state),
    body: upgradePullBody({ state, strategy: upgrade.strategy, upstreamChanges: upgrade.upstreamChanges }),
  });
  return created.number;
}
