/**
 * Runs an `upstream` job (see ../lifecycle/upstream-job.ts): one repository, its state read when the job starts.
 */

import { isGitHubOutage, type RepoRef, type RepoSnapshot, type RepoTree } from "../github/port.js";
import type { LifecycleDeps, UpstreamServices } from "../lifecycle/deps.js";
import { type DownstreamEntry, downstreamsInRepository } from "../lifecycle/downstream-index.js";
import { mainThreadLimitProblem } from "../lifecycle/main-thread-limits.js";
import { latestRevision, parseDraftBranch, UPGRADE_WORKSPACE } from "../lifecycle/revision-naming.js";
import type { UpstreamDeps } from "../lifecycle/upgrade-plan.js";
import { reportBlastRadius } from "../lifecycle/upstream/blast-radius.js";
import { upgradeDownstream } from "../lifecycle/upstream/upgrade-downstream.js";
import { memoizedAccess } from "../lifecycle/upstream-consent.js";
import type { UpstreamJob, UpstreamTask } from "../lifecycle/upstream-job.js";
import type { UpstreamPort } from "../lifecycle/upstream-port.js";
import { OWNER_ANNOTATION, repoKey } from "../lifecycle/upstream-source.js";
import { reconcileVariants, VARIANT_WORKSPACE_PREFIX } from "../lifecycle/variants/reconcile-variants.js";

/** Re-reads a repository's Kptfiles (default branch head) into the index; returns its entries. */
export async function refreshIndex(options: {
  installationId: number;
  repo: RepoRef;
  sha: string;
  port: UpstreamPort;
  services: UpstreamServices;
}): Promise<{ entries: DownstreamEntry[]; tree: RepoTree; refused: string[] }> {
  const { repo, port, services } = options;
  const tree = await port.readTree({ repo, sha: options.sha });
  const kptfiles = tree.entries.filter((e) => {
    if (e.type !== "blob" || (e.path !== "Kptfile" && !e.path.endsWith("/Kptfile"))) return false;
    const tooLarge = mainThreadLimitProblem(e.path, e.size);
    if (tooLarge) services.log.warn(`${repo.owner}/${repo.repo}: ${tooLarge}`);
    return !tooLarge;
  });
  const blobs = await port.readBlobs({ repo, blobs: kptfiles.map((e) => ({ sha: e.sha, size: e.size })) });
  const texts = new Map(kptfiles.map((e) => [e.path, Buffer.from(blobs.get(e.sha) ?? []).toString("utf8")]));
  const refused: string[] = [];
  const entries = downstreamsInRepository({
    repo: `${repo.owner}/${repo.repo}`,
    kptfiles: texts,
    host: services.host,
    ownerAnnotation: OWNER_ANNOTATION,
    refused,
  });
  await services.index.setRepository(options.installationId, `${repo.owner}/${repo.repo}`, entries);
  return { entries, tree, refused };
}

/** The job that moves a downstream forward: its variant's reconciliation, or its upgrade pull request. */
function followUp(installationId: number, d: DownstreamEntry): UpstreamJob {
  const repo = toRepo(d.repo);
  return d.variant
    ? { kind: "upstream", installationId, repo, task: { type: "variants" } }
    : { kind: "upstream", installationId, repo, task: { type: "downstream", package: d.package } };
}

/**
 * Whether the repository's PackageVariants need reconciling: its variants directory holds files, or
 * (every variant removed) drafts of variants are left to delete or orphan.
 */
async function hasVariantWork(options: {
  port: UpstreamPort;
  repo: RepoRef;
  tree: RepoTree;
  config: LifecycleDeps["config"];
}): Promise<boolean> {
  const { port, repo, tree, config } = options;
  const dir = config.packageVariants.directory.replace(/^\/+|\/+$/g, "");
  if (tree.entries.some((e) => e.type === "blob" && e.path.startsWith(`${dir}/`))) return true;
  const prefix = config.draftBranchPrefix;
  return (await port.listBranches({ repo, prefix })).some((b) =>
    parseDraftBranch(b.name, { draftPrefix: prefix })?.workspace.startsWith(VARIANT_WORKSPACE_PREFIX),
  );
}

function toRepo(key: string): RepoRef {
  const [owner, repo] = key.split("/");
  return { owner, repo };
}

/**
 * The newest published revision of a downstream's upstream package (`none`: it has none), or undefined
 * when its repository cannot be read (not granted, deleted, GitHub refusing): that upstream is skipped
 * and logged, and the pass goes on with the others. An outage (5xx, rate limit) still fails the job.
 */
async function newestRevision(
  port: UpstreamPort,
  e: DownstreamEntry,
  log: LifecycleDeps["log"],
): Promise<number | "none" | undefined> {
  try {
    const tags = await port.listTags({
      repo: toRepo(e.upstream.repo),
      prefix: e.upstream.package ? `${e.upstream.package}/v` : "v",
    });
    return (
      latestRevision(
        tags.map((t) => t.name),
        e.upstream.package,
      ) ?? "none"
    );
  } catch (error) {
    if (isGitHubOutage(error)) throw error;
    log.warn(
      `upstream ${e.upstream.repo} of ${e.repo}/${e.package} cannot be read, skipped: ${(error as Error).message}`,
    );
    return undefined;
  }
}

/** One upstream job as it runs: the job and what it reads and writes through. */
interface UpstreamRun {
  job: UpstreamJob;
  lifecycle: LifecycleDeps;
  services: UpstreamServices;
  port: UpstreamPort;
  deps: UpstreamDeps;
}

type Task<T extends UpstreamTask["type"]> = Extract<UpstreamTask, { type: T }>;

/** `published` / `deleted`: each downstream of the package gets its follow-up job. */
async function fanOut(run: UpstreamRun, task: Task<"published" | "deleted">): Promise<string> {
  const { job, services } = run;
  const { repo, installationId } = job;
  const downstreams = await services.index.downstreamsOf(
    installationId,
    repoKey(`${repo.owner}/${repo.repo}`),
    task.package,
  );
  for (const d of downstreams) await services.queue.enqueue(followUp(installationId, d));
  return `${downstreams.length} downstream(s) of ${task.package}`;
}

/**
 * The packages whose own job must say why they are not followed: a refused upstream URL, or an upstream
 * not read for this repository. Each gets a `downstream` job; the others go on.
 */
async function enqueueBlocked(run: UpstreamRun, entries: DownstreamEntry[], refused: string[]) {
  const { services } = run;
  const blocked = new Set(refused);
  for (const e of entries)
    if (!(await run.deps.access(toRepo(e.upstream.repo))).allowed) blocked.add(e.package);
  for (const pkg of blocked) {
    await services.queue.enqueue({ ...jobOf(run), task: { type: "downstream", package: pkg } });
  }
  return blocked;
}

/**
 * Each distinct upstream package's newest revision, read once; a downstream behind it (or whose upstream
 * has no revision left: its job ends the downstream's upgrades) gets its follow-up job.
 */
async function enqueueBehind(run: UpstreamRun, entries: DownstreamEntry[], blocked: Set<string>) {
  const latest = new Map<string, number | "none" | undefined>();
  let behind = 0;
  let gone = 0;
  for (const e of entries) {
    if (blocked.has(e.package)) continue;
    const key = `${e.upstream.repo}\u0000${e.upstream.package}`;
    if (!latest.has(key)) latest.set(key, await newestRevision(run.port, e, run.lifecycle.log));
    const newest = latest.get(key);
    if (newest === undefined || e.lock.revision === undefined) continue;
    if (newest === "none") gone++;
    else if (newest <= e.lock.revision) continue;
    else behind++;
    await run.services.queue.enqueue(followUp(run.job.installationId, e));
  }
  return { behind, gone };
}

/** `index`: re-reads the repository's downstreams, then queues what moves them forward. */
async function reindex(run: UpstreamRun, sha: string): Promise<string> {
  const { job, port, services } = run;
  const { repo, installationId } = job;
  const { entries, tree, refused } = await refreshIndex({ installationId, repo, sha, port, services });
  const blocked = await enqueueBlocked(run, entries, refused);
  const { behind, gone } = await enqueueBehind(run, entries, blocked);
  if (await hasVariantWork({ port, repo, tree, config: run.lifecycle.config })) {
    await services.queue.enqueue({ ...jobOf(run), task: { type: "variants" } });
  }
  const notRead = blocked.size > 0 ? `, ${blocked.size} whose upstream is not read` : "";
  const none = gone > 0 ? `, ${gone} whose upstream has no revision left` : "";
  return `${entries.length} downstream package(s), ${behind} behind${notRead}${none}`;
}

/** `draft`: a push to a draft of an upgrade or of a variant queues the job that owns it. */
async function followDraft(run: UpstreamRun, task: Task<"draft">): Promise<string> {
  const draft = parseDraftBranch(task.branch, { draftPrefix: run.lifecycle.config.draftBranchPrefix });
  if (!draft) return "not a draft";
  if (draft.workspace === UPGRADE_WORKSPACE) {
    // The downstream's own job does the work: one key per downstream, so two jobs never race on
    // its pull request (a held upgrade commented twice).
    const next = { type: "downstream", package: draft.packagePath } as const;
    await run.services.queue.enqueue({ ...jobOf(run), task: next });
    return `${draft.packagePath}: downstream job`;
  }
  await run.services.queue.enqueue({ ...jobOf(run), task: { type: "variants" } });
  return "variants";
}

/** The job's identity, for the jobs it queues on the same repository. */
function jobOf(run: UpstreamRun): Omit<UpstreamJob, "task"> {
  return { kind: "upstream", installationId: run.job.installationId, repo: run.job.repo };
}

/** Runs one upstream job; returns a line for the log. */
export async function runUpstreamJob(
  job: UpstreamJob,
  options: { lifecycle: LifecycleDeps; snapshot: RepoSnapshot; services: UpstreamServices },
): Promise<string> {
  const { lifecycle, snapshot, services } = options;
  const port: UpstreamPort = lifecycle.port;
  const { repo, installationId } = job;
  const access = memoizedAccess({ port, policy: services.consent, downstream: repo });
  const deps: UpstreamDeps = { ...lifecycle, port, host: services.host, webBase: services.webBase, access };
  const sha = snapshot.defaultBranchSha;
  const run: UpstreamRun = { job, lifecycle, services, port, deps };
  const task = job.task;
  if (task.type === "published" || task.type === "deleted") return fanOut(run, task);
  if (task.type === "blast-radius") {
    return reportBlastRadius(
      { repo, number: task.number, installationId },
      { ...deps, index: services.index, consent: services.consent },
    );
  }
  if (!sha) return "empty repository";
  switch (task.type) {
    case "downstream": {
      const at = { repo, pkg: task.package, defaultBranch: snapshot.defaultBranch, defaultSha: sha };
      const outcome = await upgradeDownstream(at, deps);
      return `${task.package}: ${outcome.kind}`;
    }
    case "index":
      return reindex(run, sha);
    case "variants":
      return reconcileVariants({ repo, defaultBranch: snapshot.defaultBranch, defaultSha: sha }, deps);
    case "draft":
      return followDraft(run, task);
  }
}
