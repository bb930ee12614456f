/**
 * Start-up check of the `REDIS_URL` connections: ioredis (as BullMQ wants it) reconnects for ever and
 * queues commands meanwhile, so an unreachable Redis would otherwise show only as ioredis' "Connection
 * is closed." or as work that never runs. At start-up the app waits a bounded time for each connection
 * (ioredis keeps retrying meanwhile) and then fails with a message naming `REDIS_URL` — without its
 * password — and what failed; once started, a lost connection is retried by ioredis and logged.
 */
import type { Redis } from "ioredis";

/** How long start-up waits for Redis before failing (ms): 10 s, ioredis' own connect timeout. */
export const DEFAULT_REDIS_STARTUP_MS = 10_000;

/** `url` with its password (and a user name's secret part) replaced by `***`, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(not a URL)";
  }
}

/**
 * Resolves once `redis` is ready; rejects after `timeoutMs` with
 * `cannot connect to Redis at REDIS_URL=<url without password> (<purpose>) within <s> s: <last error>`.
 * The client is left as it is (the caller closes it).
 */
export function waitForRedis(
  redis: Redis,
  options: { url: string; purpose: string; timeoutMs?: number },
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_STARTUP_MS;
  if (redis.status === "ready") return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let last: Error | undefined;
    const onError = (error: Error) => {
      last = error;
    };
    const done = () => {
      clearTimeout(timer);
      redis.off("ready", onReady);
      redis.off("error", onError);
    };
    const onReady = () => {
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      const cause = last ? last.message : `connection ${redis.status}`;
      reject(
        new Error(
          `porchlight: cannot connect to Redis at REDIS_URL=${redactRedisUrl(options.url)} ` +
            `(${options.purpose}) within ${Math.round(timeoutMs / 100) / 10} s: ${cause}`,
          last ? { cause: last } : undefined,
        ),
      );
    }, timeoutMs);
    redis.on("ready", onReady);
    redis.on("error", onError);
  });
}
