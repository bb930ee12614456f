/**
 * The verdict on a commit: what its `porchlight/render` runs say (concluded, held under another
 * process's lease, or stale and to be adopted), and the look-again when a lease ends. The run's writer
 * is `check-run-tracker.ts` (the lease and adoption are described there); its name and `external_id`
 * are `render-check-run.ts`. Both are re-exported here, the one place the use-cases import them from.
 */
import type { GitHubPort, RepoRef } from "../github/port.js";
import { type CheckLease, parseExternalId, RENDER_CHECK_NAME } from "./render-check-run.js";
import type { WorkQueue } from "./work-queue.js";

export { CheckRunTracker } from "./check-run-tracker.js";
export {
  type CheckLease,
  formatExternalId,
  parseExternalId,
  postCheck,
  RENDER_CHECK_NAME,
  RERENDER_ACTION,
} from "./render-check-run.js";

/** What a commit's `porchlight/render` runs say. */
export type Verdict =
  | { kind: "none" }
  | { kind: "concluded"; runId: number; conclusion: string }
  /** In progress under another process's live lease (ending at `until`, epoch ms): that process concludes it. */
  | { kind: "held"; runId: number; until: number }
  /** In progress, lease expired or ours: adopt and finish it. */
  | { kind: "stale"; runId: number; sent: number; renderedFrom: string };

/**
 * The verdict on `sha` from this app's runs (`appId` when known): any concluded run wins; else an
 * in-progress run is `held` while another holder's lease lives, `stale` otherwise. A run without lease
 * information counts as leased from its start.
 */
export async function findVerdict(options: {
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  appId?: number | undefined;
  lease: CheckLease;
}): Promise<Verdict> {
  const { lease } = options;
  const now = (lease.now ?? Date.now)();
  const runs = (
    await options.port.listCheckRuns({ repo: options.repo, sha: options.sha, name: RENDER_CHECK_NAME })
  )
    .filter((r) => options.appId === undefined || r.appId === undefined || r.appId === options.appId)
    .sort((a, b) => b.id - a.id);
  const concluded = runs.find((r) => r.status === "completed");
  if (concluded)
    return { kind: "concluded", runId: concluded.id, conclusion: concluded.conclusion ?? "neutral" };
  const open = runs[0];
  if (!open) return { kind: "none" };
  const id = parseExternalId(open.externalId);
  const started = open.startedAt ? Date.parse(open.startedAt) : now;
  const until = id?.until ?? started + lease.leaseMs;
  if (id?.holder !== lease.holder && until > now) return { kind: "held", runId: open.id, until };
  return {
    kind: "stale",
    runId: open.id,
    sent: id?.sent ?? 0,
    renderedFrom: id?.renderedFrom || options.sha,
  };
}

/** Runs whose lease end a look-again is scheduled for, in this process (`<owner>/<repo>@<run id>`). */
const rechecks = new Set<string>();

/**
 * After `held.until` (+1 s), enqueues a reconciliation pass over `repo`: if the holder died meanwhile
 * its run is stale by then and the pass hands it to a job that adopts it; if the holder renewed the
 * lease the pass finds it held again and looks again at the new end. One look per run at a time in
 * this process; the timer does not keep the process alive (the next start's pass covers a restart).
 */
export function recheckWhenLeaseEnds(options: {
  queue: Pick<WorkQueue, "enqueue">;
  installationId: number;
  repo: RepoRef;
  held: { runId: number; until: number };
  now?: () => number;
}): void {
  const { queue, installationId, repo, held } = options;
  const key = `${repo.owner}/${repo.repo}@${held.runId}`;
  if (rechecks.has(key)) return;
  rechecks.add(key);
  const waitMs = Math.max(0, held.until - (options.now ?? Date.now)()) + 1000;
  const timer = setTimeout(() => {
    rechecks.delete(key);
    void queue.enqueue({ kind: "reconcile", installationId, repo }).catch(() => undefined);
  }, waitMs);
  timer.unref?.();
}
