/**
 * The upstream → downstream work the queue runs (one job kind, `upstream`, with a task):
 * - `published`: a revision `<package>/v<N>` was tagged in the job's repository (porchlight's publish
 *   or a person's tag push) — the downstreams the index knows for that package get a `downstream` job;
 * - `deleted`: the package left the default branch, or a revision tag of it was deleted — its
 *   downstreams get a `downstream` job too (which ends their upgrades if the package is gone);
 * - `downstream`: bring one downstream package's upgrade pull request up to date (./upstream/upgrade-downstream.ts);
 * - `index`: re-read one repository's Kptfiles into the index, and give each downstream that is behind
 *   its upstream's newest revision a `downstream` job — this is also how upstreams outside the
 *   installation (public repositories: no webhooks) are checked, on every reconciliation pass;
 * - `variants`: reconcile the repository's PackageVariants (./variants/reconcile-variants.ts);
 * - `draft`: a push to an app draft (an upgrade or a variant's): its report follows its new head;
 * - `blast-radius`: report on a proposed upstream change what a publish would do to its downstreams.
 *
 * Jobs are level-triggered: each reads what GitHub holds when it starts.
 */
import type { RepoRef } from "../github/port.js";

/** The task of an {@link UpstreamJob}. */
export type UpstreamTask =
  | { type: "published"; package: string }
  | { type: "deleted"; package: string }
  | { type: "downstream"; package: string }
  | { type: "index" }
  | { type: "variants" }
  | { type: "draft"; branch: string }
  | { type: "blast-radius"; number: number };

/** A job of the upstream → downstream work. */
export interface UpstreamJob {
  kind: "upstream";
  installationId: number;
  repo: RepoRef;
  task: UpstreamTask;
}

/** The deduplication key of an upstream job. */
export function upstreamJobKey(job: UpstreamJob): string {
  const repo = `${job.repo.owner}/${job.repo.repo}`;
  const t = job.task;
  switch (t.type) {
    case "published":
    case "deleted":
    case "downstream":
      return `upstream:${t.type}:${repo}:${t.package}`;
    case "blast-radius":
      return `upstream:${t.type}:${repo}#${t.number}`;
    case "draft":
      return `upstream:${t.type}:${repo}:${t.branch}`;
    default:
      return `upstream:${t.type}:${repo}`;
  }
}

/** The job that moves the downstreams of `pkg` (just published in `from`'s repository) to the new revision. */
export function publishedJob(from: { installationId: number; repo: RepoRef }, pkg: string): UpstreamJob {
  return {
    kind: "upstream",
    installationId: from.installationId,
    repo: from.repo,
    task: { type: "published", package: pkg },
  };
}

/** The job that looks at the app draft `branch` of `from`'s repository again (its report, auto-merge). */
export function upgradeDraftJob(
  from: { installationId: number; repo: RepoRef },
  branch: string,
): UpstreamJob {
  return {
    kind: "upstream",
    installationId: from.installationId,
    repo: from.repo,
    task: { type: "draft", branch },
  };
}
