/**
 * `merge_group` `checks_requested` → {@link checkMergeGroup}: render the packages the queued group
 * changes, commit nothing, report `porchlight/render` on `merge_group.head_sha`. Thin.
 */
import type { Context } from "probot";
import { lifecyclePortFromContext } from "../github/octokit-lifecycle.js";
import { reportConfigError } from "../lifecycle/gate-check.js";
import { checkMergeGroup } from "../lifecycle/merge-queue.js";
import { type LifecycleHandlerDeps, repoConfig } from "./pull-request.js";

/** Builds the `merge_group` handler. */
export function createMergeGroupHandler(deps: LifecycleHandlerDeps) {
  return async (context: Context<"merge_group">): Promise<void> => {
    const { payload } = context;
    if (payload.action !== "checks_requested" || !payload.repository) return;
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const port = lifecyclePortFromContext(context);
    const loaded = await repoConfig(context, deps);
    if (!loaded.ok) {
      await reportConfigError({ port, repo, sha: payload.merge_group.head_sha, message: loaded.message });
      return;
    }
    const outcome = await checkMergeGroup(
      { repo, headSha: payload.merge_group.head_sha, baseSha: payload.merge_group.base_sha },
      { port, engine: deps.engine, log: context.log, config: loaded.config },
    );
    context.log.info(`merge_group ${payload.merge_group.head_ref}: ${outcome.kind}`);
  };
}
