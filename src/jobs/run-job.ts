/**
 * Runs one job of the work queue. Every job:
 * 1. gets the GitHub port of its installation;
 * 2. reads the repository's state in ONE request (`readSnapshot`: default branch, `.github/porchlight.yml`
 *    — the one place the configuration is loaded, once per job — and the branch head or pull request
 *    the job is about), so it works on what GitHub holds NOW, never on what a webhook said;
 * 3. with an unusable configuration, reports it where the user looks (the one config-error branch:
 *    a failed check on the commit, or a comment on a closed pull request) and stops;
 * 4. calls its use-case.
 */
import { CONFIG_PATH, type ConfigResult, configFromText } from "../config/load.js";
import type { KptfileStatusMode, PushOnFailure } from "../engine/types.js";
import type { GitHubPort, RepoRef, RepoSnapshot } from "../github/port.js";
import { upsertComment } from "../lifecycle/comments.js";
import { updateDashboard } from "../lifecycle/dashboard/update-dashboard.js";
import type { UpstreamServices } from "../lifecycle/deps.js";
import { type LifecycleDeps, type Log, VERDICT_MEMO_MS, verdictKey } from "../lifecycle/deps.js";
import { renderDraftHead } from "../lifecycle/draft/render-draft.js";
import { checkDefaultBranchHead, checkMergeGroup } from "../lifecycle/judge/merge-queue.js";
import { rerunCheck } from "../lifecycle/judge/rerun.js";
import { proposeRevision } from "../lifecycle/proposals/propose.js";
import { publishRevision } from "../lifecycle/proposals/publish.js";
import type { RenderEngine, SizeLimits } from "../lifecycle/render-at-sha.js";
import { isUpgradeDraft, normalizePrefix } from "../lifecycle/revision-naming.js";
import { publishedJob, upgradeDraftJob } from "../lifecycle/upstream-job.js";
import { type CheckLease, findVerdict, postCheck } from "../lifecycle/verdict.js";
import type { Job, JobHandler, ReconcileJob, WorkQueue } from "../lifecycle/work-queue.js";
import { jobKey } from "../lifecycle/work-queue.js";
import { CONFIG_COMMENT_MARKER, configNotProcessedComment } from "../report/comments.js";
import { configErrorOutput } from "../report/messages.js";
import { runUpstreamJob } from "./run-upstream-job.js";

/** What the job runner needs. */
export interface JobRunnerDeps {
  /** The port of an installation (an installation-authenticated Octokit behind it). */
  portFor(installationId: number): Promise<GitHubPort>;
  engine: RenderEngine;
  queue: WorkQueue;
  log: Log;
  /** The operator's default `pushOnFailure` (`.github/porchlight.yml` overrides it). */
  pushOnFailure: PushOnFailure;
  /** The operator's default `kptfileStatus` (`.github/porchlight.yml` overrides it); default `full`. */
  kptfileStatus?: KptfileStatusMode;
  limits: SizeLimits;
  lease: CheckLease;
  appId?: number | undefined;
  /** The reconciliation pass (./reconcile.ts), for `reconcile` jobs. */
  reconcile?: (job: ReconcileJob) => Promise<void>;
  /** Upstream → downstream work (upgrade pull requests, PackageVariants), for `upstream` jobs. */
  upstream?: UpstreamServices;
}

type RepoJob = Exclude<Job, ReconcileJob>;

function snapshotRequest(job: RepoJob): { branch?: string; pullRequest?: number } {
  switch (job.kind) {
    case "draft":
      return { branch: job.branch };
    case "pull-request":
    case "publish":
      return { pullRequest: job.number };
    case "rerun":
      return job.headBranch ? { branch: job.headBranch } : {};
    default:
      return {};
  }
}

/** The commit a configuration error is reported on, or the pull request it is commented on. */
function configErrorTarget(
  job: RepoJob,
  snapshot: RepoSnapshot,
  loaded: Extract<ConfigResult, { ok: false }>,
): { sha: string } | { comment: number } | undefined {
  switch (job.kind) {
    case "draft": {
      // Only on branches that are drafts under the file's prefix when it is readable, else `drafts/`.
      const head = snapshot.branch;
      return head?.name.startsWith(normalizePrefix(loaded.draftBranchPrefix)) ? { sha: head.sha } : undefined;
    }
    case "default-branch":
      return snapshot.defaultBranchSha ? { sha: snapshot.defaultBranchSha } : undefined;
    case "merge-group":
      return { sha: job.headSha };
    case "rerun":
      return { sha: job.sha };
    case "pull-request":
    case "publish": {
      const pull = snapshot.pullRequest;
      if (!pull) return undefined;
      return pull.state === "open" ? { sha: pull.headSha } : { comment: pull.number };
    }
    case "upstream":
    case "dashboard":
      return undefined;
  }
}

async function reportConfigError(options: {
  job: RepoJob;
  port: GitHubPort;
  snapshot: RepoSnapshot;
  loaded: Extract<ConfigResult, { ok: false }>;
  deps: JobRunnerDeps;
}): Promise<void> {
  const { job, port, snapshot, loaded, deps } = options;
  const target = configErrorTarget(job, snapshot, loaded);
  deps.log.warn(`${jobKey(job)}: ${loaded.message}`);
  if (!target) return;
  if ("comment" in target) {
    await upsertComment({
      port,
      repo: job.repo,
      issueNumber: target.comment,
      marker: CONFIG_COMMENT_MARKER,
      body: configNotProcessedComment(loaded.message),
    });
    return;
  }
  // One verdict per sha: a commit already reported (e.g. by the push of the same sha) is not reported twice.
  const key = verdictKey(job.repo, target.sha);
  if (job.kind !== "rerun") {
    if (await deps.queue.remembers(key)) return;
    const verdict = await findVerdict({
      port,
      repo: job.repo,
      sha: target.sha,
      appId: deps.appId,
      lease: deps.lease,
    });
    if (verdict.kind === "concluded" || verdict.kind === "held") return;
  }
  await postCheck({
    port,
    repo: job.repo,
    headSha: target.sha,
    conclusion: "failure",
    output: configErrorOutput(loaded.message),
  });
  await deps.queue.remember(key, VERDICT_MEMO_MS);
}

async function runRepoJob(job: RepoJob, deps: JobRunnerDeps): Promise<string> {
  const port = await deps.portFor(job.installationId);
  const snapshot = await port.readSnapshot({
    repo: job.repo,
    configPath: CONFIG_PATH,
    ...snapshotRequest(job),
  });
  const loaded = configFromText(snapshot.config?.text, {
    ...(snapshot.config?.source === "organization"
      ? { file: `${job.repo.owner}/.github/${CONFIG_PATH}` }
      : {}),
    defaults: {
      pushOnFailure: deps.pushOnFailure,
      ...(deps.kptfileStatus ? { kptfileStatus: deps.kptfileStatus } : {}),
    },
  });
  if (!loaded.ok) {
    await reportConfigError({ job, port, snapshot, loaded, deps });
    return "configuration error";
  }
  const lifecycle: LifecycleDeps = {
    port,
    engine: deps.engine,
    log: deps.log,
    config: loaded.config,
    lease: deps.lease,
    appId: deps.appId,
    limits: deps.limits,
    queue: deps.queue,
    installationId: job.installationId,
  };
  const outcome = await runUseCase(job, { deps, lifecycle, snapshot, loaded });
  // After the work, so the dashboard shows it; one dashboard job per repository waits at a time.
  if (loaded.config.dashboard && job.kind !== "dashboard" && job.kind !== "upstream") {
    const { installationId, delivery } = job;
    await deps.queue.enqueue({
      kind: "dashboard",
      installationId,
      repo: job.repo,
      ...(delivery ? { delivery } : {}),
    });
  }
  return outcome;
}

/** The context a use-case runs in: what the job runner read before it (see {@link runRepoJob}). */
interface UseCaseContext {
  deps: JobRunnerDeps;
  lifecycle: LifecycleDeps;
  snapshot: RepoSnapshot;
  loaded: Extract<ConfigResult, { ok: true }>;
}

/** A draft job: render the head; an upgrade draft that may merge itself is looked at again once judged. */
async function runDraft(job: Extract<RepoJob, { kind: "draft" }>, ctx: UseCaseContext): Promise<string> {
  const { deps, lifecycle, snapshot, loaded } = ctx;
  if (!snapshot.branch) return "the branch is gone";
  const outcome = await renderDraftHead(
    { repo: job.repo, head: snapshot.branch, defaultBranch: snapshot.defaultBranch },
    lifecycle,
  );
  if (
    deps.upstream &&
    loaded.config.upgrades.autoMerge &&
    isUpgradeDraft(snapshot.branch.name, loaded.config)
  )
    await deps.queue.enqueue(upgradeDraftJob(job, snapshot.branch.name));
  return `${outcome.kind} at ${snapshot.branch.sha.slice(0, 7)}`;
}

/** A publish job: tag what the merge approved; downstreams take the new revisions. */
async function runPublish(job: Extract<RepoJob, { kind: "publish" }>, ctx: UseCaseContext): Promise<string> {
  const { deps, lifecycle, snapshot } = ctx;
  const pull = snapshot.pullRequest;
  if (!pull?.merged || !pull.mergeCommitSha) return "not merged";
  const outcome = await publishRevision(
    { repo: job.repo, pull, sameRepository: job.sameRepository, defaultBranch: snapshot.defaultBranch },
    lifecycle,
  );
  // Downstreams take the new revisions whether or not GitHub echoes the app's own tag push.
  if (deps.upstream && outcome.kind === "published") {
    for (const p of outcome.packages.filter((p) => p.kind === "published"))
      await deps.queue.enqueue(publishedJob(job, p.packagePath));
  }
  return outcome.kind;
}

/** Calls the job's use-case with the state read for it. */
async function runUseCase(job: RepoJob, ctx: UseCaseContext): Promise<string> {
  const { deps, lifecycle, snapshot } = ctx;
  const repo: RepoRef = job.repo;
  switch (job.kind) {
    case "dashboard":
      return updateDashboard(repo, {
        ...lifecycle,
        ...(deps.upstream ? { index: deps.upstream.index } : {}),
      });
    case "draft":
      return runDraft(job, ctx);
    case "pull-request": {
      if (!snapshot.pullRequest) return "no such pull request";
      const outcome = await proposeRevision(
        {
          repo,
          pull: snapshot.pullRequest,
          sameRepository: job.sameRepository,
          defaultBranch: snapshot.defaultBranch,
          action: job.action,
        },
        lifecycle,
      );
      return outcome.kind;
    }
    case "publish":
      return runPublish(job, ctx);
    case "default-branch": {
      const sha = snapshot.defaultBranchSha;
      if (!sha) return "empty repository";
      const changedPaths = job.hint?.sha === sha ? job.hint.changedPaths : undefined;
      return (await checkDefaultBranchHead({ repo, sha, changedPaths }, lifecycle)).kind;
    }
    case "merge-group":
      return (await checkMergeGroup({ repo, headSha: job.headSha, baseSha: job.baseSha }, lifecycle)).kind;
    case "upstream":
      if (!deps.upstream) return "upstream work is not enabled";
      return runUpstreamJob(job, { lifecycle, snapshot, services: deps.upstream });
    case "rerun": {
      const outcome = await rerunCheck(
        { repo, sha: job.sha, headBranch: job.headBranch, pullRequests: job.pullRequests, snapshot },
        lifecycle,
      );
      if (outcome.kind !== "render-draft") return outcome.kind;
      await renderDraftHead(outcome.draft, lifecycle);
      return "rendered";
    }
  }
}

/** The queue's handler: runs `job` (see the module comment) and logs what happened. */
export function createJobHandler(deps: JobRunnerDeps): JobHandler {
  return async (job, run) => {
    if (job.kind === "reconcile") {
      await deps.reconcile?.(job);
      return;
    }
    const outcome = await runRepoJob(job, deps);
    deps.log.info(`${jobKey(job)}${run.attempt > 1 ? ` (attempt ${run.attempt})` : ""}: ${outcome}`);
  };
}
