/**
 * The `porchlight/render` check run's name, its "Re-render" button, what its `external_id` carries (the
 * commit rendered and, while the run is in progress, the lease: `holder`, `until`, `sent`), and posting
 * a completed run in one request.
 */
import type { CheckOutput, GitHubPort, PullRequestRef, RepoRef } from "../github/port.js";

/** The check run's name, as required status checks refer to it. */
export const RENDER_CHECK_NAME = "porchlight/render";

/** The check-run button that re-renders a commit (`check_run` `requested_action`). */
export const RERENDER_ACTION = {
  label: "Re-render",
  description: "Render this commit again",
  identifier: "rerender",
} as const;

/** Who holds the runs this process starts, and for how long a lease lasts without renewal. */
export interface CheckLease {
  /** Process-unique id (random at start). */
  holder: string;
  /** Lease duration in ms (renewed by every follow-up request). */
  leaseMs: number;
  now?: () => number;
}

/** What `external_id` carries. */
export interface ExternalId {
  /** The commit that was rendered (the run's head, or the user's commit a render commit came from). */
  renderedFrom: string;
  holder?: string;
  /** Lease end, epoch ms. */
  until?: number;
  /** Annotations already sent. */
  sent?: number;
}

/** `<sha>[ holder=<id> until=<ms> sent=<n>]`. */
export function formatExternalId(id: ExternalId): string {
  if (id.holder === undefined) return id.renderedFrom;
  return `${id.renderedFrom} holder=${id.holder} until=${id.until ?? 0} sent=${id.sent ?? 0}`;
}

/** Parses {@link formatExternalId}; a plain sha has no lease. */
export function parseExternalId(text: string | undefined): ExternalId | undefined {
  if (!text) return undefined;
  const [renderedFrom = "", ...fields] = text.split(" ");
  const kv = Object.fromEntries(fields.map((f) => f.split("=") as [string, string]));
  return {
    renderedFrom,
    ...(kv.holder ? { holder: kv.holder } : {}),
    ...(kv.until ? { until: Number(kv.until) } : {}),
    ...(kv.sent ? { sent: Number(kv.sent) } : {}),
  };
}

/** Creates a completed `porchlight/render` run (with the "Re-render" button). */
export async function postCheck(options: {
  port: GitHubPort;
  repo: RepoRef;
  headSha: string;
  conclusion: "success" | "failure" | "neutral";
  output: CheckOutput;
  renderedFrom?: string;
}): Promise<{ id: number; pullRequests: PullRequestRef[] }> {
  return options.port.createCheckRun({
    repo: options.repo,
    name: RENDER_CHECK_NAME,
    headSha: options.headSha,
    status: "completed",
    conclusion: options.conclusion,
    output: options.output,
    externalId: formatExternalId({ renderedFrom: options.renderedFrom ?? options.headSha }),
    actions: [RERENDER_ACTION],
  });
}
