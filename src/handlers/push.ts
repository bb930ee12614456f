/**
 * `push` → a hint: a draft job for the branch (its job reads the branch's head and the configuration,
 * and does nothing for a branch that is not a draft), or a default-branch job. The payload's sha is
 * never rendered as such; a push whose head already holds a verdict (the app's own render commit) is
 * dropped without a request. Branch deletions and tags are ignored.
 */
import type { Context } from "probot";
import { enqueue, type HandlerDeps, hasVerdict, source } from "./hints.js";
import { upstreamPushJobs } from "./upstream-hints.js";

/** The changed paths of a push (added, modified, removed over its commits), sorted. */
function changedPaths(
  commits: readonly { added?: string[]; modified?: string[]; removed?: string[] }[] | undefined,
) {
  const changed = new Set<string>();
  for (const c of commits ?? [])
    for (const p of [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])]) changed.add(p);
  return [...changed].sort();
}

/** The paths a push removed (over its commits), sorted. */
function removedPaths(commits: readonly { removed?: string[] }[] | undefined) {
  return [...new Set((commits ?? []).flatMap((c) => c.removed ?? []))].sort();
}

/** Builds the `push` handler. */
export function createPushHandler(deps: HandlerDeps) {
  return async (context: Context<"push">): Promise<void> => {
    const { payload } = context;
    const from = source(payload, context.id);
    if (from) {
      await enqueue(
        deps,
        ...upstreamPushJobs({
          from,
          ref: payload.ref,
          deleted: payload.deleted,
          defaultBranch: payload.repository.default_branch,
          changedPaths: changedPaths(payload.commits),
          removedPaths: removedPaths(payload.commits),
        }),
      );
    }
    const branch = payload.ref.startsWith("refs/heads/")
      ? payload.ref.slice("refs/heads/".length)
      : undefined;
    if (!from || !branch || payload.deleted || /^0+$/.test(payload.after)) return;
    if (await hasVerdict(deps, from.repo, payload.after)) return;
    if (branch === payload.repository.default_branch) {
      const paths = changedPaths(payload.commits);
      if (paths.length === 0) return;
      await enqueue(deps, {
        kind: "default-branch",
        ...from,
        hint: { sha: payload.after, changedPaths: paths },
      });
      return;
    }
    await enqueue(deps, { kind: "draft", ...from, branch });
  };
}
