/**
 * `push` to the repository's default branch → {@link checkDefaultBranchPush}: packages it touches get a
 * `porchlight/render` check only; the app never commits to the default branch. Draft branches are the
 * render push handler's (./push.ts); tags, deletions and other branches are ignored here.
 */
import type { Context } from "probot";
import { lifecyclePortFromContext } from "../github/octokit-lifecycle.js";
import { reportConfigError } from "../lifecycle/gate-check.js";
import { checkDefaultBranchPush } from "../lifecycle/merge-queue.js";
import { type LifecycleHandlerDeps, repoConfig } from "./pull-request.js";

/** Builds the second `push` handler (default branch only). */
export function createDefaultBranchPushHandler(deps: LifecycleHandlerDeps) {
  return async (context: Context<"push">): Promise<void> => {
    const { payload } = context;
    const defaultBranch = payload.repository.default_branch;
    if (payload.ref !== `refs/heads/${defaultBranch}` || payload.deleted || /^0+$/.test(payload.after))
      return;
    const changed = new Set<string>();
    for (const c of payload.commits ?? [])
      for (const p of [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])]) changed.add(p);
    if (changed.size === 0) return;
    const owner = payload.repository.owner?.login ?? payload.repository.owner?.name;
    if (!owner) return;
    const repo = { owner, repo: payload.repository.name };
    const port = lifecyclePortFromContext(context);
    const loaded = await repoConfig(context);
    if (!loaded.ok) {
      await reportConfigError({ port, repo, sha: payload.after, message: loaded.message });
      return;
    }
    const outcome = await checkDefaultBranchPush(
      { repo, sha: payload.after, changedPaths: [...changed].sort() },
      { port, engine: deps.engine, log: context.log, config: loaded.config },
    );
    context.log.info(`push ${defaultBranch}@${payload.after.slice(0, 7)}: ${outcome.kind}`);
  };
}
