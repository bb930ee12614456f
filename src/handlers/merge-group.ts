/** `merge_group` `checks_requested` → a merge-group job (the group's head is judged, nothing committed). Thin. */
import type { Context } from "probot";
import { enqueue, type HandlerDeps, source } from "./hints.js";

/** Builds the `merge_group` handler. */
export function createMergeGroupHandler(deps: HandlerDeps) {
  return async (context: Context<"merge_group">): Promise<void> => {
    const { payload } = context;
    const from = source(payload, context.id);
    if (!from || payload.action !== "checks_requested") return;
    await enqueue(deps, {
      kind: "merge-group",
      ...from,
      headSha: payload.merge_group.head_sha,
      baseSha: payload.merge_group.base_sha,
    });
  };
}
