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
 *    no local edit.
 */
import type { RepoRef } from "../../github/port.js";
import {
  outcomeAnnotations,
  overrideAnnotations,
  UPGRADE_CHECK_NAME,
  UPGRADE_FAILED_LABEL,
  UPGRADE_HELD_MARKER,
  type UpgradeState,
  upgradeCheckOutput,
  upgradeFailureIssue,
  upgradeFailureOutput,
  upgradeHeldComment,
  upgradeNeedsReview,
  upgradePullBody,
  upgradePullTitle,
} from "../../report/upgrade.js";
import { upgradeBlockedId, upgradeBlockedOutput } from "../../report/upgrade-blocked.js";
import { appCommitOf, rejectedAt, renderedGreen, sameFiles, writeDraft } from "../app-draft.js";
import { upsertComment } from "../comments.js";
import { ensureCheckRun } from "../ensure-check-run.js";
import { formatDraftBranch, UPGRADE_WORKSPACE } from "../revision-naming.js";
import {
  type ComputedUpgrade,
  computeUpgrade,
  downstreamStatus,
  type UpstreamDeps,
} from "../upgrade-plan.js";
import { readPackageFiles, UpstreamBlockedError } from "../upstream-port.js";
import { endUpgrades, readUpstreamDeletion } from "./upstream-deleted.js";

/** What {@link upgradeDownstream} did. */
export type UpgradeOutcome =
  | { kind: "not-downstream" | "not-on-revision" | "up-to-date" | "no-revision" | "owned-by-variant" }
  | { kind: "failed" | "blocked"; message: string }
  | { kind: "held"; to: number }
  | { kind: "upstream-deleted"; closed: number[] }
  | { kind: "rejected" | "merged"; to: number; pull: number }
  | { kind: "proposed" | "updated" | "current"; to: number; pull: number | undefined; overrides: number };

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
  const runs = await deps.port.listCheckRuns({ repo, sha, name: UPGRADE_CHECK_NAME });
  if (runs.some((r) => r.externalId === id)) return;
  await deps.port.createCheckRun({
    repo,
    name: UPGRADE_CHECK_NAME,
    headSha: sha,
    status: "completed",
    conclusion: "neutral",
    output: upgradeBlockedOutput({ pkg, reason }),
    externalId: id,
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
  const { repo, pkg, defaultSha } = input;
  const { port } = deps;
  if (pkg === "") return { kind: "not-downstream" };
  let status: Awaited<ReturnType<typeof downstreamStatus>>;
  try {
    status = await downstreamStatus({
      port,
      host: deps.host,
      repo,
      pkg,
      sha: defaultSha,
      access: deps.access,
    });
  } catch (error) {
    if (!(error instanceof UpstreamBlockedError)) throw error;
    await reportBlocked({ deps, repo, sha: defaultSha, pkg, reason: error.message });
    return { kind: "blocked", message: error.message };
  }
  if (!status) return { kind: "not-downstream" };
  if (status.variant) return { kind: "owned-by-variant" };
  if (status.current === undefined) return { kind: "not-on-revision" };
  if (status.latest === undefined || status.latest > status.current) {
    const deletion = await readUpstreamDeletion(port, pkg, status);
    if (deletion) {
      const closed = await endUpgrades({ ...input, deletion }, deps);
      return { kind: "upstream-deleted", closed };
    }
  }
  if (status.latest === undefined) return { kind: "no-revision" };
  if (status.latest <= status.current) return { kind: "up-to-date" };
  const to = status.latest;

  let upgrade: ComputedUpgrade;
  try {
    upgrade = await computeUpgrade({ port, host: deps.host, pkg, status, to, access: deps.access });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const failure = { pkg, upstream: status.upstreamPackage, to, message, repository: repo.repo };
    await ensureCheckRun(port, {
      repo,
      name: UPGRADE_CHECK_NAME,
      sha: defaultSha,
      externalId: `upgrade-failed ${pkg} to=v${to}`,
      conclusion: "failure",
      output: upgradeFailureOutput(failure),
    });
    await openFailureIssue(deps, repo, failure);
    return { kind: "failed", message };
  }

  const branch = formatDraftBranch(
    { packagePath: pkg, workspace: UPGRADE_WORKSPACE },
    { draftPrefix: deps.config.draftBranchPrefix },
  );
  const pulls = await port.listPullRequests({ repo, state: "open", base: input.defaultBranch });
  const pull = pulls.find((p) => p.headRef === branch && p.sameRepository);
  const headSha = await port.readBranchHead({ repo, branch });
  if (headSha) {
    const snapshot = await port.readSnapshot({ repo, configPath: ".github/porchlight.yml", branch });
    const head = snapshot.branch ?? { sha: headSha, message: "" };
    const ours = await appCommitOf({ port, repo, head, checkName: UPGRADE_CHECK_NAME, appId: deps.appId });
    if (!ours) {
      if (pull) {
        await upsertComment({
          port,
          repo,
          issueNumber: pull.number,
          marker: UPGRADE_HELD_MARKER,
          body: upgradeHeldComment({ to, pkg: status.upstreamPackage }),
        });
      }
      return { kind: "held", to };
    }
    const written = (await readPackageFiles({ port, repo, sha: ours.sha, dir: pkg })).files;
    if (sameFiles(written, upgrade.files)) {
      // The draft holds this upgrade: its head (the render of the app's commit) gets the report too.
      const state: UpgradeState = { ...upgrade.state, commit: ours.sha };
      if (head.sha !== ours.sha) {
        const runs = await port.listCheckRuns({ repo, sha: head.sha, name: UPGRADE_CHECK_NAME });
        if (runs.length === 0) await postUpgradeCheck({ deps, repo, sha: head.sha, state });
      }
      if (!pull) {
        const rejected = await rejectedAt({ port, repo, branch, headSha: head.sha });
        if (rejected !== undefined) return { kind: "rejected", to, pull: rejected };
      }
      const number =
        pull?.number ?? (await openPull({ deps, repo, branch, base: input.defaultBranch, upgrade, state }));
      if (
        deps.config.upgrades.autoMerge &&
        !upgradeNeedsReview(upgrade.state) &&
        !pull?.draft &&
        (await autoMerge({ deps, repo, number, headSha: head.sha }))
      ) {
        return { kind: "merged", to, pull: number };
      }
      return { kind: "current", to, pull: number, overrides: upgrade.overrides.length };
    }
  }
  const write = await writeDraft({
    port,
    repo,
    branch,
    baseSha: defaultSha,
    dir: pkg,
    files: upgrade.files,
    executables: status.executables,
    message: `Upgrade ${pkg} to ${status.upstreamPackage}/v${to}\n\nUpstream ${upgrade.state.upstream.repo} ${status.upstreamPackage}: v${status.current} → v${to} (kpt pkg update, ${upgrade.strategy}).\n`,
  });
  if (write.kind === "superseded")
    throw new Error(`${branch} moved while it was written; the next run retries`);
  const commit = write.sha;
  const state: UpgradeState = { ...upgrade.state, commit };
  await postUpgradeCheck({ deps, repo, sha: commit, state });
  if (pull) {
    await port.updatePullRequest({
      repo,
      number: pull.number,
      title: upgradePullTitle(state),
      body: upgradePullBody({ state, strategy: upgrade.strategy, upstreamChanges: upgrade.upstreamChanges }),
    });
    return { kind: "updated", to, pull: pull.number, overrides: upgrade.overrides.length };
  }
  const number = await openPull({ deps, repo, branch, base: input.defaultBranch, upgrade, state });
  return { kind: "proposed", to, pull: number, overrides: upgrade.overrides.length };
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
