/**
 * The upstream → downstream services of the app: the downstream index (in memory; in Redis when
 * `REDIS_URL` is set, shared by every process) and the GitHub host upstream URLs are compared with
 * (Probot's `GHE_HOST` / `GHE_PROTOCOL`, else github.com).
 */
import type { Log, UpstreamServices } from "../lifecycle/deps.js";
import { MemoryDownstreamIndex } from "../lifecycle/downstream-index.js";
import type { WorkQueue } from "../lifecycle/work-queue.js";
import { RedisDownstreamIndex } from "./redis-downstream-index.js";

/** Builds the services from the environment. */
export async function createUpstreamServices(options: {
  env: NodeJS.ProcessEnv;
  queue: WorkQueue;
  log: Log;
}): Promise<UpstreamServices> {
  const { env } = options;
  const host = env.GHE_HOST?.trim() || "github.com";
  const protocol = env.GHE_HOST ? env.GHE_PROTOCOL?.trim() || "https" : "https";
  const index = env.REDIS_URL
    ? await RedisDownstreamIndex.connect(env.REDIS_URL)
    : new MemoryDownstreamIndex();
  // Upstream URLs are read against the host with its scheme when that is not https (a local GitHub).
  const readAgainst = protocol === "https" ? host : `${protocol}://${host}`;
  return {
    index,
    host: readAgainst,
    webBase: `${protocol}://${host}`,
    queue: options.queue,
    log: options.log,
  };
}
