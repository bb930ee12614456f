/**
 * Graceful shutdown on SIGTERM (and SIGINT): stop taking work, let running jobs finish within the
 * grace period, then cut in-flight renders short so their handlers conclude their check runs, close
 * connections and exit. A second signal exits at once.
 *
 * Steps:
 * 1. mark the process stopping (`/healthz` answers 503);
 * 2. `drain()`: the work queue stops starting jobs and waits for the running ones (up to `graceMs`);
 * 3. when the grace period ran out: `abort()` (the render pool is closed: a running render fails with
 *    "the server is shutting down", and its job concludes its check run), then wait up to `abortMs`
 *    more for the jobs to finish;
 * 4. `close()` (Redis connections), then exit 0 (1 when jobs were still running).
 */

/**
 * Time jobs get to conclude their check runs once in-flight renders are stopped (ms): 5 s, so that
 * the default grace ({@link DEFAULT_SHUTDOWN_GRACE_MS}) and this fit in Kubernetes' default 30 s.
 */
export const DEFAULT_SHUTDOWN_ABORT_MS = 5_000;
export { DEFAULT_SHUTDOWN_GRACE_MS } from "../config/server-settings.js";

/** Minimal logger (Probot's pino logger fits). */
interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/** Options of {@link installShutdown}. */
export interface ShutdownOptions {
  /** Time running jobs get to finish (ms; `PORCHLIGHT_SHUTDOWN_GRACE_MS`). */
  graceMs: number;
  /** Time jobs get to conclude their check runs after `abort()` (ms). Default {@link DEFAULT_SHUTDOWN_ABORT_MS}. */
  abortMs?: number;
  log: Log;
  /** Stops taking work; resolves when running jobs have finished. */
  drain: () => Promise<void>;
  /** Cuts in-flight work short so it concludes quickly (e.g. closes the render pool). */
  abort: () => Promise<void>;
  /** Closes connections last. */
  close?: () => Promise<void>;
  /** Default `process.exit`. */
  exit?: (code: number) => void;
  /** Signals handled; default SIGTERM and SIGINT. `[]` installs no handler (tests call `shutdown`). */
  signals?: NodeJS.Signals[];
}

/** The installed shutdown. */
export interface Shutdown {
  /** True once a signal arrived (or `shutdown` was called). */
  stopping(): boolean;
  /** Runs the shutdown steps (once; later calls return the same promise). */
  shutdown(reason: string): Promise<void>;
}

function within<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}

/** Installs the signal handlers; see the module comment for the steps. */
export function installShutdown(options: ShutdownOptions): Shutdown {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;
  const shutdown = (reason: string): Promise<void> => {
    running ??= (async () => {
      options.log.info(`${reason}: stopping; running jobs get ${options.graceMs} ms to finish`);
      const drained = options.drain();
      let finished = await within(drained, options.graceMs);
      if (!finished) {
        options.log.warn("grace period over: stopping in-flight renders so their check runs are concluded");
        await options.abort().catch(() => undefined);
        finished = await within(drained, options.abortMs ?? DEFAULT_SHUTDOWN_ABORT_MS);
      }
      await options.close?.().catch(() => undefined);
      options.log.info(finished ? "stopped" : "stopped with jobs still running (reconciliation redoes them)");
      exit(finished ? 0 : 1);
    })();
    return running;
  };
  for (const signal of options.signals ?? ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => {
      if (running) exit(1);
      else void shutdown(signal);
    });
  }
  return { stopping: () => running !== undefined, shutdown };
}
