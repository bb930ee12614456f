/**
 * What every handler shares: the queue it hands hints to, the repository and installation of a
 * payload, and the verdict memo that makes an already-satisfied hint free (the app's own render commit
 * coming back as a push costs no request).
 */
import type { RepoRef } from "../github/port.js";
import { claimKey, verdictKey } from "../lifecycle/deps.js";
import type { Job, WorkQueue } from "../lifecycle/work-queue.js";

/** Dependencies of every handler. */
export interface HandlerDeps {
  queue: WorkQueue;
}

/**
 * The repository and installation a webhook is about (`undefined` without an installation), and its
 * delivery id (carried into the job for logs).
 */
export function source(
  payload: {
    repository?: { name: string; owner: { login?: string; name?: string | null } | null } | null;
    installation?: { id: number } | null;
  },
  delivery?: string,
): { repo: RepoRef; installationId: number; delivery?: string } | undefined {
  const repository = payload.repository;
  const owner = repository?.owner?.login ?? repository?.owner?.name;
  if (!repository || !owner || !payload.installation?.id) return undefined;
  return {
    repo: { owner, repo: repository.name },
    installationId: payload.installation.id,
    ...(delivery ? { delivery } : {}),
  };
}

/**
 * True when `sha` of `repo` already holds a verdict this process (or the shared memo) knows of, or is
 * the app's own render commit whose job is reporting it.
 */
export async function hasVerdict(deps: HandlerDeps, repo: RepoRef, sha: string): Promise<boolean> {
  return (await deps.queue.remembers(verdictKey(repo, sha))) || deps.queue.remembers(claimKey(repo, sha));
}

/** Enqueues every job; resolves once they are stored. */
export async function enqueue(deps: HandlerDeps, ...jobs: Job[]): Promise<void> {
  for (const job of jobs) await deps.queue.enqueue(job);
}
