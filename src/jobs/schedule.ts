/**
 * When reconciliation runs: once at start, then every `intervalMs` (0 = only at start), for every
 * installation of the app. Each installation becomes one `reconcile` job, so several processes sharing
 * a queue do not repeat a pass (the job key deduplicates).
 */
import type { GitHubPort } from "../github/port.js";
import type { Log } from "../lifecycle/deps.js";
import type { WorkQueue } from "../lifecycle/work-queue.js";

/** Starts the schedule; returns a function that stops it. */
export function scheduleReconciliation(options: {
  /** The port authenticated as the app (lists installations). */
  appPort: () => Promise<GitHubPort>;
  queue: WorkQueue;
  log: Log;
  intervalMs: number;
}): () => void {
  const { queue, log } = options;
  const pass = async () => {
    try {
      const installations = await (await options.appPort()).listInstallations();
      for (const installationId of installations) await queue.enqueue({ kind: "reconcile", installationId });
    } catch (error) {
      log.warn(
        `reconciliation: cannot list the app's installations: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const first = setTimeout(() => void pass(), 0);
  first.unref?.();
  const timer = options.intervalMs > 0 ? setInterval(() => void pass(), options.intervalMs) : undefined;
  timer?.unref?.();
  return () => {
    clearTimeout(first);
    if (timer) clearInterval(timer);
  };
}
