/**
 * When reconciliation runs: once at start, then every `intervalMs` (0 = only at start), and at once
 * when the queue's store comes back after a lost connection (Redis restarted, maybe empty), for every
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
  const { queue } = options;
  const pass = () => reconcileAll(options);
  // The queue's store was lost or unreachable (Redis back, possibly empty): its jobs may be gone.
  queue.onReconnect?.(() => void pass());
  const first = setTimeout(() => void pass(), 0);
  first.unref?.();
  const timer = options.intervalMs > 0 ? setInterval(() => void pass(), options.intervalMs) : undefined;
  timer?.unref?.();
  return () => {
    clearTimeout(first);
    if (timer) clearInterval(timer);
  };
}

/** One pass: a `reconcile` job per installation of the app (a failure to list them is logged). */
export async function reconcileAll(options: {
  appPort: () => Promise<GitHubPort>;
  queue: WorkQueue;
  log: Log;
}): Promise<void> {
  try {
    const installations = await (await options.appPort()).listInstallations();
    for (const installationId of installations)
      await options.queue.enqueue({ kind: "reconcile", installationId });
  } catch (error) {
    options.log.warn(
      `reconciliation: cannot list the app's installations: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
