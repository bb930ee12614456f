/**
 * Re-run webhooks → a re-run job: `check_run` `rerequested` and `requested_action` (the "Re-render"
 * button) for our `porchlight/render` check, and `check_suite` `rerequested`. Thin.
 */
import type { Context } from "probot";
import { RENDER_CHECK_NAME, RERENDER_ACTION } from "../lifecycle/verdict.js";
import type { RerunJob } from "../lifecycle/work-queue.js";
import { enqueue, type HandlerDeps, source } from "./hints.js";

/** A pull request as `check_run.pull_requests` / `check_suite.pull_requests` carry it. */
interface MinimalPull {
  number: number;
  head: { ref: string; sha: string };
  base: { ref: string };
}

function pulls(list: readonly MinimalPull[] | null | undefined): RerunJob["pullRequests"] {
  return (list ?? []).map((p) => ({
    number: p.number,
    headRef: p.head.ref,
    headSha: p.head.sha,
    baseRef: p.base.ref,
  }));
}

/** Builds the `check_run` handler (`rerequested`, `requested_action` "rerender"). */
export function createCheckRunHandler(deps: HandlerDeps) {
  return async (context: Context<"check_run">): Promise<void> => {
    const { payload } = context;
    const from = source(payload, context.id);
    if (!from || payload.check_run.name !== RENDER_CHECK_NAME) return;
    if (payload.action === "requested_action") {
      if (payload.requested_action?.identifier !== RERENDER_ACTION.identifier) return;
    } else if (payload.action !== "rerequested") return;
    await enqueue(deps, {
      kind: "rerun",
      ...from,
      sha: payload.check_run.head_sha,
      headBranch: payload.check_run.check_suite?.head_branch ?? null,
      pullRequests: pulls(payload.check_run.pull_requests),
    });
  };
}

/** Builds the `check_suite` handler (`rerequested`). */
export function createCheckSuiteHandler(deps: HandlerDeps) {
  return async (context: Context<"check_suite">): Promise<void> => {
    const { payload } = context;
    const from = source(payload, context.id);
    if (!from || payload.action !== "rerequested") return;
    await enqueue(deps, {
      kind: "rerun",
      ...from,
      sha: payload.check_suite.head_sha,
      headBranch: payload.check_suite.head_branch,
      pullRequests: pulls(payload.check_suite.pull_requests),
    });
  };
}
