/**
 * The one place the work queue is chosen: BullMQ on Redis when the process has `REDIS_URL` (any number
 * of processes share it), otherwise embedded in this process. Both keep the contract of ./work-queue.ts.
 */
import type { OperatorSettings } from "../config/operator-settings.js";
import type { ServerSettings } from "../config/server-settings.js";
import { InstallationGoneError } from "../github/installation-gone.js";
import type { Log } from "../lifecycle/deps.js";
import { DEFAULT_RETRY, type Job, jobKey, type WorkQueue } from "../lifecycle/work-queue.js";
import { BullWorkQueue } from "./bullmq-queue.js";
import { EmbeddedQueue } from "./embedded-queue.js";

/** Builds the queue the app runs on. */
export async function createWorkQueue(options: {
  settings: OperatorSettings;
  server?: ServerSettings | undefined;
  log: Log;
}): Promise<WorkQueue> {
  const { server, log, settings } = options;
  const gone = installationsGone(log);
  const onFailed = (job: Job, error: unknown) => {
    if (error instanceof InstallationGoneError) return gone(error);
    log.error(`${jobKey(job)}: failed: ${error instanceof Error ? error.message : String(error)}`);
  };
  const concurrency = settings.concurrency ?? 4;
  if (server?.redisUrl) {
    const queue = new BullWorkQueue<Job>({
      redisUrl: server.redisUrl,
      keyOf: jobKey,
      retry: DEFAULT_RETRY,
      concurrency,
      lockMs: server.jobLockMs,
      onFailed,
      // Never the URL (it may hold a password): only what went wrong.
      onError: (error) => log.warn(`work queue (Redis): ${error.message}`),
      onWarning: (message) => log.warn(`work queue (Redis): ${message}`),
    });
    // At start-up an unreachable Redis stops the process with a message naming REDIS_URL.
    await queue.ready().catch(async (error: unknown) => {
      await queue.close().catch(() => undefined);
      throw error;
    });
    return queue;
  }
  return new EmbeddedQueue({ concurrency, onFailed });
}

/** How long an installation found gone stays quiet in this process's log (ms): 1 hour. */
export const GONE_LOGGED_MS = 3_600_000;

/**
 * Logs an uninstalled or suspended installation once (per process and {@link GONE_LOGGED_MS}), not once
 * per job: its jobs end without a retry, and its next event (installed again, unsuspended) brings work.
 */
function installationsGone(log: Log): (error: InstallationGoneError) => void {
  const logged = new Map<number, number>();
  return (error) => {
    const at = logged.get(error.installationId);
    if (at !== undefined && Date.now() - at < GONE_LOGGED_MS) return;
    logged.set(error.installationId, Date.now());
    log.warn(
      `installation ${error.installationId} is ${error.reason}: its work stops until it is ${error.reason === "suspended" ? "unsuspended" : "installed again"} (${error.message})`,
    );
  };
}
