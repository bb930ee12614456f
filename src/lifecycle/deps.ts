/**
 * What every use-case receives: the GitHub port of the installation, the render engine, the repository
 * configuration read when the job started, the check-run lease of this process, the operator's limits,
 * the work queue (to enqueue follow-up work and share the verdict memo) and a log.
 */
import type { RepoConfig } from "../config/schema.js";
import type { ConsentPolicy } from "../config/upstream-consent.js";
import type { GitHubPort, RepoRef } from "../github/port.js";
import type { DownstreamIndex } from "./downstream-index.js";
import type { RenderEngine, SizeLimits } from "./render-at-sha.js";
import type { CheckLease } from "./verdict.js";
import type { WorkQueue } from "./work-queue.js";

/** Minimal logger (Probot's pino logger fits). */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Dependencies of the use-cases. */
export interface LifecycleDeps {
  port: GitHubPort;
  engine: RenderEngine;
  log: Log;
  /** The repository configuration (`.github/porchlight.yml` from the default branch, operator defaults applied). */
  config: RepoConfig;
  /** The check-run lease of this process. */
  lease: CheckLease;
  /** This GitHub App's id, when known: only its check runs count as verdicts. */
  appId?: number | undefined;
  limits: SizeLimits;
  queue: WorkQueue;
  /** The installation the work runs as (for follow-up jobs). */
  installationId: number;
}

/** How long "this sha holds a verdict" is remembered (ms): a day. */
export const VERDICT_MEMO_MS = 24 * 60 * 60 * 1000;

/** The memo key of "`sha` of `repo` holds a verdict". */
export function verdictKey(repo: RepoRef, sha: string): string {
  return `verdict:${repo.owner}/${repo.repo}@${sha}`;
}

/** How long "the app's own commit `sha` is being reported" is remembered (ms): ten minutes. */
export const CLAIM_MEMO_MS = 10 * 60 * 1000;

/**
 * The memo key of "`sha` is the app's render commit and its job reports it": its own push (and
 * `synchronize`) arriving before the check is posted need no job. Jobs never read this key — a job that
 * dies before reporting leaves the sha to reconciliation.
 */
export function claimKey(repo: RepoRef, sha: string): string {
  return `claimed:${repo.owner}/${repo.repo}@${sha}`;
}

/** What the upstream jobs need from the app (beyond a job's lifecycle dependencies). */
export interface UpstreamServices {
  index: DownstreamIndex;
  /**
   * The GitHub host upstream URLs are read against (`github.com`, or the GHE host; with its scheme when
   * that is not https: `http://127.0.0.1:8080`). See readUpstreamUrl.
   */
  host: string;
  /** Its web base URL (`https://github.com`, `http://127.0.0.1:8080`). */
  webBase: string;
  /** The operator's consent for cross-repository upstream reads (`PORCHLIGHT_UPSTREAM_CONSENT`, ...). */
  consent: ConsentPolicy;
  queue: WorkQueue;
  log: Log;
}
