/**
 * Reconciliation: finds the work no webhook asked for — a delivery GitHub never retried, a restart or a
 * crash that lost the embedded queue, an outage longer than a job's retries — and enqueues it. It runs
 * for every installation on start, then every `PORCHLIGHT_RECONCILE_INTERVAL_MS`, and for the
 * repositories an `installation` / `installation_repositories` event adds.
 *
 * A pass over one repository enqueues:
 * - a draft job for each draft branch whose head has no concluded `porchlight/render` run from this app,
 *   or a stale one (in progress, lease expired); a run another process holds is left to it, and the
 *   repository is looked at again when that lease ends (the holder may be dead);
 * - a pull-request job for each open pull request into the default branch from elsewhere (a fork,
 *   another branch) whose head has no verdict (draft branches are covered by their draft job);
 * - a publish job for each recently closed (30 most recently updated) merged pull request from a draft
 *   branch whose merge commit carries no revision tag and that has no publish comment.
 *
 * Cost per repository per pass: 5 requests (snapshot, draft branches, open and recently closed pull
 * requests, tags) + 1 per head whose verdict is not in the memo (each draft branch's, each other open
 * pull request's; after a restart every head once, then only new heads) + 1
 * per merged pull request without a tag at its merge commit. Plus, per installation, 1 request listing
 * its repositories.
 */
import { CONFIG_PATH, configFromText } from "../config/load.js";
import type { GitHubPort, RepoRef } from "../github/port.js";
import { type Log, VERDICT_MEMO_MS, verdictKey } from "../lifecycle/deps.js";
import { normalizePrefix, parseDraftBranch } from "../lifecycle/revision-naming.js";
import { type CheckLease, findVerdict, recheckWhenLeaseEnds } from "../lifecycle/verdict.js";
import type { Job, ReconcileJob, WorkQueue } from "../lifecycle/work-queue.js";
import { PUBLISH_COMMENT_MARKER } from "../report/comments.js";

/** Closed pull requests looked at per pass (the most recently updated). */
export const RECENTLY_CLOSED = 30;

/** What a pass needs. */
export interface ReconcileDeps {
  portFor(installationId: number): Promise<GitHubPort>;
  queue: WorkQueue;
  log: Log;
  lease: CheckLease;
  appId?: number | undefined;
}

/** What a pass over one repository enqueued (for logs and tests). */
export interface ReconcileReport {
  repo: RepoRef;
  enqueued: Job[];
}

async function needsVerdict(options: {
  installationId: number;
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  deps: ReconcileDeps;
}): Promise<boolean> {
  const { repo, sha, deps } = options;
  const key = verdictKey(repo, sha);
  if (await deps.queue.remembers(key)) return false;
  const verdict = await findVerdict({ port: options.port, repo, sha, appId: deps.appId, lease: deps.lease });
  if (verdict.kind === "concluded") await deps.queue.remember(key, VERDICT_MEMO_MS);
  // A run another process holds: if that process is dead, its lease ends and this pass runs again then.
  if (verdict.kind === "held")
    recheckWhenLeaseEnds({ queue: deps.queue, installationId: options.installationId, repo, held: verdict });
  return verdict.kind === "none" || verdict.kind === "stale";
}

/** One pass over one repository; see the module comment. */
export async function reconcileRepository(options: {
  installationId: number;
  repo: RepoRef;
  deps: ReconcileDeps;
}): Promise<ReconcileReport> {
  const { installationId, repo, deps } = options;
  const port = await deps.portFor(installationId);
  const snapshot = await port.readSnapshot({ repo, configPath: CONFIG_PATH });
  const loaded = configFromText(snapshot.config?.text);
  const enqueued: Job[] = [];
  if (!loaded.ok) {
    // Jobs would only report the configuration error; the pushes that fix it bring their own hints.
    deps.log.warn(`reconcile ${repo.owner}/${repo.repo}: ${loaded.message}`);
    return { repo, enqueued };
  }
  const prefix = normalizePrefix(loaded.config.draftBranchPrefix);
  const base = { installationId, repo };
  const check = (sha: string) => needsVerdict({ installationId, port, repo, sha, deps });

  for (const branch of await port.listBranches({ repo, prefix })) {
    if (!parseDraftBranch(branch.name, { draftPrefix: prefix })) continue;
    if (await check(branch.sha)) enqueued.push({ kind: "draft", ...base, branch: branch.name });
  }
  const defaultBranch = snapshot.defaultBranch;
  for (const pull of await port.listPullRequests({ repo, state: "open", base: defaultBranch })) {
    const ownDraft = pull.sameRepository && parseDraftBranch(pull.headRef, { draftPrefix: prefix });
    if (ownDraft) continue;
    if (await check(pull.headSha))
      enqueued.push({
        kind: "pull-request",
        ...base,
        number: pull.number,
        sameRepository: pull.sameRepository,
      });
  }
  const merged = (
    await port.listPullRequests({ repo, state: "closed", base: defaultBranch, limit: RECENTLY_CLOSED })
  ).filter((p) => p.merged && p.mergeCommitSha && parseDraftBranch(p.headRef, { draftPrefix: prefix }));
  if (merged.length > 0) {
    const tagged = new Set((await port.listTags({ repo, prefix: "" })).map((t) => t.sha));
    for (const pull of merged) {
      if (tagged.has(pull.mergeCommitSha as string)) continue;
      const comments = await port.listComments({ repo, issueNumber: pull.number });
      if (comments.some((c) => c.body.includes(PUBLISH_COMMENT_MARKER))) continue;
      enqueued.push({ kind: "publish", ...base, number: pull.number, sameRepository: pull.sameRepository });
    }
  }
  for (const job of enqueued) await deps.queue.enqueue(job);
  // The downstream index and PackageVariants of the repository (and upstreams no webhook reports).
  await deps.queue.enqueue({ kind: "upstream", ...base, task: { type: "index" } });
  if (enqueued.length > 0)
    deps.log.info(
      `reconcile ${repo.owner}/${repo.repo}: ${enqueued.length} job(s) for work nothing asked for`,
    );
  return { repo, enqueued };
}

/** A `reconcile` job: one repository, or every repository of the installation (one job each). */
export async function reconcile(job: ReconcileJob, deps: ReconcileDeps): Promise<void> {
  if (job.repo) {
    await reconcileRepository({ installationId: job.installationId, repo: job.repo, deps });
    return;
  }
  const port = await deps.portFor(job.installationId);
  for (const repo of await port.listInstallationRepositories())
    await deps.queue.enqueue({ kind: "reconcile", installationId: job.installationId, repo });
}
