/**
 * The upstream → downstream services of the app: the downstream index (in memory; in Redis when
 * `REDIS_URL` is set, shared by every process) and the GitHub host upstream URLs are compared with.
 */
import type { GitHubHost } from "../config/environment.js";
import { type ConsentPolicy, DEFAULT_CONSENT_POLICY } from "../config/upstream-consent.js";
import type { Log, UpstreamServices } from "../lifecycle/deps.js";
import { MemoryDownstreamIndex } from "../lifecycle/downstream-index.js";
import type { WorkQueue } from "../lifecycle/work-queue.js";
import { RedisDownstreamIndex } from "./redis-downstream-index.js";

/** Builds the services from the process's settings (`config/environment.ts`). */
export async function createUpstreamServices(options: {
  redisUrl?: string | undefined;
  github: GitHubHost;
  /** The operator's consent for cross-repository upstream reads; default none (public upstreams open). */
  consent?: ConsentPolicy | undefined;
  queue: WorkQueue;
  log: Log;
}): Promise<UpstreamServices> {
  const index = options.redisUrl
    ? await RedisDownstreamIndex.connect(options.redisUrl)
    : new MemoryDownstreamIndex();
  return {
    index,
    host: options.github.host,
    webBase: options.github.webBase,
    consent: options.consent ?? DEFAULT_CONSENT_POLICY,
    queue: options.queue,
    log: options.log,
  };
}
