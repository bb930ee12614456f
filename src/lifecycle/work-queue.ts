/**
 * The work queue: level-triggered jobs, deduplicated per key. Every webhook (and every reconciliation
 * pass) is only a HINT — "this branch / pull request / commit may need work" — turned into a job; the
 * job reads the current state from GitHub when it STARTS (a branch job renders the branch's head at
 * that moment, never the sha a payload carried), so the order in which deliveries arrive, redeliveries
 * and bursts never matter.
 *
 * Contract every implementation keeps (the embedded one in ./embedded-queue.ts, the BullMQ one on Redis):
 * 1. Per key (see {@link jobKey}) at most ONE job runs and at most ONE waits. Enqueueing a key that
 *    already waits replaces the waiting job's data with the newest (BullMQ: `deduplication` with
 *    `keepLastIfActive`); enqueueing a key that only runs adds one waiting job.
 * 2. A job whose handler throws a retryable error (`isRetryable`, by default GitHub being unavailable)
 *    runs again after a backoff (`retryDelayMs`, at least what GitHub asked for), up to `maxAttempts`;
 *    a new enqueue of its key meanwhile makes it run as soon as possible. Other errors drop the job
 *    (the handler reports them, e.g. on a check run).
 * 3. One installation must not starve the others: when jobs of several installations are ready, they
 *    are started in turn (round-robin by installation), not in arrival order.
 * 4. `close()` stops starting jobs and resolves when the running ones have finished; waiting jobs are
 *    not kept by the embedded queue (reconciliation finds their work again — see README).
 * 5. `remember(key)` / `remembers(key)`: a shared memo with expiry, e.g. "this sha holds a verdict", so a
 *    hint that is already satisfied (the app's own render commit coming back as a push) costs no request.
 */
import { GitHubError, isGitHubOutage, type RepoRef } from "../github/port.js";
import { type UpstreamJob, upstreamJobKey } from "./upstream-job.js";

/** What every job carries: the installation whose token does the work, and the repository. */
interface JobBase {
  installationId: number;
  repo: RepoRef;
  /** The webhook delivery (`X-GitHub-Delivery`) that last hinted this job, for logs; absent for reconciliation. */
  delivery?: string;
}

/** "This draft branch may need a verdict": render its CURRENT head, commit the output (CAS), check it. */
export interface DraftJob extends JobBase {
  kind: "draft";
  /** Branch name without `refs/heads/`. */
  branch: string;
}

/** "This pull request changed": propose (judge, convert to draft, comment) or reject, per its current state. */
export interface PullRequestJob extends JobBase {
  kind: "pull-request";
  number: number;
  /** The head branch lives in this repository (from the payload: a pull request's head repository never changes). */
  sameRepository: boolean;
  /** The webhook action that asked (`opened`, `synchronize`, ...), when one did. */
  action?: string;
}

/** "This pull request was merged": publish its revisions (idempotent: tags are never moved). */
export interface PublishJob extends JobBase {
  kind: "publish";
  number: number;
  sameRepository: boolean;
}

/** "The default branch moved": judge its CURRENT head (the app never commits there). */
export interface DefaultBranchJob extends JobBase {
  kind: "default-branch";
  /** The payload's head and changed paths: used only when the head is still that sha. */
  hint?: { sha: string; changedPaths: string[] };
}

/** "A merge queue group needs a verdict": judge `headSha` (a fixed, temporary commit) against `baseSha`. */
export interface MergeGroupJob extends JobBase {
  kind: "merge-group";
  headSha: string;
  baseSha: string;
}

/** "A user asked for a re-run of the check on `sha`": render again, obeying the loop guard. */
export interface RerunJob extends JobBase {
  kind: "rerun";
  sha: string;
  /** The branch the check suite ran for (`null` for a fork or a deleted branch). */
  headBranch: string | null;
  /** Open pull requests the check run belongs to. */
  pullRequests: { number: number; headRef: string; headSha: string; baseRef: string }[];
}

/** "This repository's state may have changed": update its package dashboard issue (when opted in). */
export interface DashboardJob extends JobBase {
  kind: "dashboard";
}

/** "Look at this repository (or every repository of the installation)": the reconciliation pass. */
export interface ReconcileJob {
  kind: "reconcile";
  installationId: number;
  /** One repository; absent = every repository the installation can access. */
  repo?: RepoRef;
}

/** Every kind of work. Jobs are plain JSON (a Redis-backed queue stores them). */
export type Job =
  | DraftJob
  | PullRequestJob
  | PublishJob
  | DefaultBranchJob
  | MergeGroupJob
  | RerunJob
  | DashboardJob
  | ReconcileJob
  | UpstreamJob;

/**
 * The deduplication key of a job: one per branch (`draft`), pull request (`pull-request`, `publish`),
 * default branch, merge-group head, re-run sha, dashboard (repository) and reconciliation scope. Stable strings.
 */
export function jobKey(job: Job): string {
  if (job.kind === "reconcile")
    return job.repo
      ? `reconcile:${job.installationId}:${job.repo.owner}/${job.repo.repo}`
      : `reconcile:${job.installationId}`;
  if (job.kind === "upstream") return upstreamJobKey(job);
  const repo = `${job.repo.owner}/${job.repo.repo}`;
  switch (job.kind) {
    case "draft":
      return `draft:${repo}:${job.branch}`;
    case "pull-request":
      return `pull-request:${repo}#${job.number}`;
    case "publish":
      return `publish:${repo}#${job.number}`;
    case "default-branch":
      return `default-branch:${repo}`;
    case "merge-group":
      return `merge-group:${repo}@${job.headSha}`;
    case "rerun":
      return `rerun:${repo}@${job.sha}`;
    case "dashboard":
      return `dashboard:${repo}`;
  }
}

/** What a handler learns about the run it is in. */
export interface JobRun {
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
}

/** Does the work of one job; throws to fail it (retryable errors run it again later). */
export type JobHandler = (job: Job, run: JobRun) => Promise<void>;

/** The queue; see the module comment for the contract. */
export interface WorkQueue {
  /** Adds a hint (resolves once it is stored, not when the work is done). */
  enqueue(job: Job): Promise<void>;
  /** Starts running jobs with `handler` (once). */
  start(handler: JobHandler): Promise<void>;
  /** Resolves when no job is waiting, delayed for a retry, or running (tests, benchmarks). */
  idle(): Promise<void>;
  /** Stops starting jobs; resolves when the running ones have finished (SIGTERM). */
  close(): Promise<void>;
  /** Remembers `key` for `ttlMs`. */
  remember(key: string, ttlMs: number): Promise<void>;
  /** True when `key` is remembered and has not expired. */
  remembers(key: string): Promise<boolean>;
  /** Jobs waiting (incl. delayed retries) and running now (metrics). */
  depth(): Promise<{ waiting: number; running: number }>;
  /**
   * Calls `listener` each time the queue's store is reachable again after a lost connection (a shared
   * store only: its jobs may be gone, e.g. Redis restarted empty). Absent for the embedded queue.
   */
  onReconnect?(listener: () => void): void;
}

/** Retry policy shared by the implementations. */
export interface RetryPolicy {
  /** Runs of one job at most (first run included). Default 6. */
  maxAttempts: number;
  /** True when the error is worth a retry. Default: GitHub was unavailable (5xx, network, rate limit). */
  isRetryable: (error: unknown) => boolean;
  /** Delay before run `attempt + 1` (ms). Default 5 s doubling to 5 min, at least GitHub's `retry-after`. */
  retryDelayMs: (attempt: number, error: unknown) => number;
}

/** The default {@link RetryPolicy}: ~2.5 minutes of retries over 6 runs. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 6,
  isRetryable: isGitHubOutage,
  retryDelayMs: (attempt, error) => {
    const backoff = Math.min(5_000 * 2 ** (attempt - 1), 300_000);
    const asked =
      error instanceof GitHubError && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : 0;
    return Math.max(backoff, asked);
  },
};
