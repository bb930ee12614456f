/**
 * The idempotent check-run writer (Renovate's `setBranchStatus`): a completed check run named `name` on
 * `sha` whose `external_id` is `externalId`, created once. A redelivered webhook, a retried job or two
 * processes racing find the run by its id and post nothing; a changed outcome carries another id (the
 * callers put what they report, or its hash, in it) and gets its own run.
 */
import type { CheckConclusion, CheckOutput, GitHubPort, RepoRef } from "../github/port.js";

/** What {@link ensureCheckRun} writes. */
export interface EnsuredCheckRun {
  repo: RepoRef;
  /** Check-run name (`porchlight/upgrade`, ...). */
  name: string;
  /** The commit it reports on. */
  sha: string;
  /** Identity of the outcome: a run with this `external_id` on `sha` means it was reported. */
  externalId: string;
  conclusion: CheckConclusion;
  output: CheckOutput;
}

/**
 * Creates the completed run unless one named `name` with `externalId` is already on `sha`.
 * Returns `created` or `exists`. Throws GitHub's errors (the job's retry then tries again).
 */
export async function ensureCheckRun(
  port: Pick<GitHubPort, "listCheckRuns" | "createCheckRun">,
  run: EnsuredCheckRun,
): Promise<"created" | "exists"> {
  const { repo, name, sha, externalId } = run;
  const runs = await port.listCheckRuns({ repo, sha, name });
  if (runs.some((r) => r.externalId === externalId)) return "exists";
  await port.createCheckRun({
    repo,
    name,
    headSha: sha,
    status: "completed",
    conclusion: run.conclusion,
    output: run.output,
    externalId,
  });
  return "created";
}
