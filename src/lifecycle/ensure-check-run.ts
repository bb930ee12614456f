/**
 * The idempotent check-run writer (Renovate's `setBranchStatus`): a completed check run named `name` on
 * `sha` whose `external_id` is `externalId`, created once. A redelivered webhook, a retried job or two
 * processes racing find the run by its id and post nothing; a changed outcome carries another id (the
 * callers put what they report, or its hash, in it) and gets its own run.
 */
import type { CheckConclusion, CheckOutput, GitHubPort, RepoRef } from "../github/port.js";

/** Which run it is: a run with this `name` and `externalId` on `sha` means the outcome was reported. */
interface CheckRunIdentity {
  repo: RepoRef;
  /** Check-run name (`porchlight/upgrade`, ...). */
  name: string;
  /** The commit it reports on. */
  sha: string;
  /** Identity of the outcome. */
  externalId: string;
}

/** What a completed run says. */
export interface CheckOutcome {
  conclusion: CheckConclusion;
  output: CheckOutput;
}

/**
 * What {@link ensureCheckRun} writes: the outcome itself, or `outcome()` that works it out only when the
 * run is not there yet (a costly report, e.g. a dry run); `undefined` from it posts nothing.
 */
export type EnsuredCheckRun =
  | (CheckRunIdentity & CheckOutcome)
  | (CheckRunIdentity & { outcome: () => Promise<CheckOutcome | undefined> });

/**
 * Creates the completed run unless one named `name` with `externalId` is already on `sha`.
 * Returns `created`, `exists`, or `skipped` (`outcome()` gave nothing to post). Throws GitHub's errors
 * (the job's retry then tries again) and what `outcome()` throws.
 */
export async function ensureCheckRun(
  port: Pick<GitHubPort, "listCheckRuns" | "createCheckRun">,
  run: EnsuredCheckRun,
): Promise<"created" | "exists" | "skipped"> {
  const { repo, name, sha, externalId } = run;
  const runs = await port.listCheckRuns({ repo, sha, name });
  if (runs.some((r) => r.externalId === externalId)) return "exists";
  const outcome = "outcome" in run ? await run.outcome() : run;
  if (!outcome) return "skipped";
  await port.createCheckRun({
    repo,
    name,
    headSha: sha,
    status: "completed",
    conclusion: outcome.conclusion,
    output: outcome.output,
    externalId,
  });
  return "created";
}
