/**
 * Re-run webhooks → {@link rerunCheck}: `check_run` `rerequested` and `requested_action` (the
 * "Re-render" button) for our `porchlight/render` check, and `check_suite` `rerequested`. Thin:
 * payload → input, one use-case call. A bad `.github/porchlight.yml` becomes a failed check.
 */
import type { Context } from "probot";
import { RERENDER_ACTION } from "../github/lifecycle-port.js";
import { lifecyclePortFromContext } from "../github/octokit-lifecycle.js";
import { reportConfigError } from "../lifecycle/gate-check.js";
import { RENDER_CHECK_NAME } from "../lifecycle/render-check.js";
import { type RerunInput, rerunCheck } from "../lifecycle/rerun.js";
import { type LifecycleHandlerDeps, repoConfig } from "./pull-request.js";

/** A pull request as `check_run.pull_requests` / `check_suite.pull_requests` carry it. */
interface MinimalPull {
  number: number;
  head: { ref: string; sha: string };
  base: { ref: string };
}

function pulls(list: readonly MinimalPull[] | null | undefined): RerunInput["pullRequests"] {
  return (list ?? []).map((p) => ({
    number: p.number,
    headRef: p.head.ref,
    headSha: p.head.sha,
    baseRef: p.base.ref,
  }));
}

async function rerun(
  context: Context<"check_run"> | Context<"check_suite">,
  deps: LifecycleHandlerDeps,
  input: Omit<RerunInput, "repo" | "defaultBranch">,
): Promise<void> {
  const repository = context.payload.repository;
  const repo = { owner: repository.owner.login, repo: repository.name };
  const port = lifecyclePortFromContext(context);
  const loaded = await repoConfig(context, deps);
  if (!loaded.ok) {
    await reportConfigError({ port, repo, sha: input.sha, message: loaded.message });
    return;
  }
  const outcome = await rerunCheck(
    { ...input, repo, defaultBranch: repository.default_branch },
    { port, engine: deps.engine, log: context.log, config: loaded.config },
  );
  context.log.info(`re-run ${input.sha.slice(0, 7)}: ${outcome.kind}`);
}

/** Builds the `check_run` handler (`rerequested`, `requested_action` "rerender"). */
export function createCheckRunHandler(deps: LifecycleHandlerDeps) {
  return async (context: Context<"check_run">): Promise<void> => {
    const { payload } = context;
    if (payload.check_run.name !== RENDER_CHECK_NAME) return;
    if (payload.action === "requested_action") {
      if (payload.requested_action?.identifier !== RERENDER_ACTION.identifier) return;
    } else if (payload.action !== "rerequested") return;
    await rerun(context, deps, {
      sha: payload.check_run.head_sha,
      headBranch: payload.check_run.check_suite?.head_branch ?? null,
      pullRequests: pulls(payload.check_run.pull_requests),
    });
  };
}

/** Builds the `check_suite` handler (`rerequested`). */
export function createCheckSuiteHandler(deps: LifecycleHandlerDeps) {
  return async (context: Context<"check_suite">): Promise<void> => {
    const { payload } = context;
    if (payload.action !== "rerequested") return;
    await rerun(context, deps, {
      sha: payload.check_suite.head_sha,
      headBranch: payload.check_suite.head_branch,
      pullRequests: pulls(payload.check_suite.pull_requests),
    });
  };
}
