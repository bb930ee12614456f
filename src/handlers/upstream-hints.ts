/**
 * The upstream → downstream hints of webhooks (thin, no GitHub call): a revision tag pushed
 * (`<package>/v<N>`, by porchlight's publish or a person) → its downstreams may need an upgrade; a
 * push to the default branch that changes YAML or a Kptfile → the repository's downstream index and
 * PackageVariants may need a look, and a package whose Kptfile it removes (or a deleted revision
 * tag) → its downstreams may need their upgrades ended; a push to a draft branch → an app draft
 * (upgrade or variant) may need its report again; a pull request → its blast radius.
 */
import type { RepoRef } from "../github/port.js";
import type { UpstreamJob } from "../lifecycle/upstream-job.js";

const REVISION_TAG = /^refs\/tags\/(.+)\/v\d+$/;

/** The upstream jobs a `push` asks for. */
export function upstreamPushJobs(options: {
  from: { repo: RepoRef; installationId: number };
  ref: string;
  deleted: boolean;
  defaultBranch: string | undefined;
  changedPaths: readonly string[];
  /** The paths the push removed (a subset of `changedPaths`). */
  removedPaths?: readonly string[];
}): UpstreamJob[] {
  const { from, ref } = options;
  const tag = REVISION_TAG.exec(ref);
  if (tag) {
    const type = options.deleted ? "deleted" : "published";
    return [{ kind: "upstream", ...from, task: { type, package: tag[1] } }];
  }
  if (options.deleted) return [];
  if (!ref.startsWith("refs/heads/")) return [];
  const branch = ref.slice("refs/heads/".length);
  if (branch === options.defaultBranch) {
    const relevant = options.changedPaths.some(
      (p) => p === "Kptfile" || p.endsWith("/Kptfile") || p.endsWith(".yaml") || p.endsWith(".yml"),
    );
    const removed = (options.removedPaths ?? [])
      .filter((p) => p === "Kptfile" || p.endsWith("/Kptfile"))
      .map((p) => p.slice(0, -"Kptfile".length).replace(/\/$/, ""));
    return [
      ...(relevant ? [{ kind: "upstream" as const, ...from, task: { type: "index" as const } }] : []),
      ...removed.map((pkg) => ({
        kind: "upstream" as const,
        ...from,
        task: { type: "deleted" as const, package: pkg },
      })),
    ];
  }
  const workspace = branch.slice(branch.lastIndexOf("/") + 1);
  if (workspace === "upstream-upgrade" || workspace.startsWith("variant-")) {
    return [{ kind: "upstream", ...from, task: { type: "draft", branch } }];
  }
  return [];
}

/** The upstream job a `pull_request` asks for (its blast radius, while it is open). */
export function upstreamPullJobs(options: {
  from: { repo: RepoRef; installationId: number };
  action: string;
  number: number;
}): UpstreamJob[] {
  if (!["opened", "reopened", "synchronize", "ready_for_review"].includes(options.action)) return [];
  return [{ kind: "upstream", ...options.from, task: { type: "blast-radius", number: options.number } }];
}
