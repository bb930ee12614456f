/**
 * `installation` and `installation_repositories` → reconciliation of the repositories the app gained
 * (their drafts and pull requests get their verdicts without anyone pushing). Removed repositories need
 * nothing: their jobs fail with 404 and are dropped, and reconciliation no longer lists them. Thin.
 */
import type { Context } from "probot";
import { enqueue, type HandlerDeps } from "./hints.js";

/** Builds the `installation` handler (`created`, `unsuspend`, `new_permissions_accepted`). */
export function createInstallationHandler(deps: HandlerDeps) {
  return async (context: Context<"installation">): Promise<void> => {
    const { payload } = context;
    if (!["created", "unsuspend", "new_permissions_accepted"].includes(payload.action)) return;
    await enqueue(deps, { kind: "reconcile", installationId: payload.installation.id });
  };
}

/** Builds the `installation_repositories` handler (`added`). */
export function createInstallationRepositoriesHandler(deps: HandlerDeps) {
  return async (context: Context<"installation_repositories">): Promise<void> => {
    const { payload } = context;
    if (payload.action !== "added") return;
    const installationId = payload.installation.id;
    await enqueue(
      deps,
      ...payload.repositories_added.map((r) => {
        const [owner = "", repo = r.name] = r.full_name.split("/");
        return { kind: "reconcile" as const, installationId, repo: { owner, repo } };
      }),
    );
  };
}
