/**
 * `push` webhook → {@link renderDraft}. Thin: turns the payload into a {@link DraftPush} and makes one
 * use-case call; branch deletions, tags and non-draft branches are ignored.
 */
import type { Context } from "probot";
import { portFromContext } from "../github/octokit-port.js";
import { type DraftPush, type RenderDraftDeps, renderDraft } from "../lifecycle/render-draft.js";
import { normalizePrefix } from "../lifecycle/revisions.js";

/** The subset of GitHub's push payload we read (shape of `@octokit/webhooks` `PushEvent`). */
export interface PushPayloadLike {
  ref: string;
  after: string;
  deleted?: boolean;
  repository: { name: string; owner: { login?: string; name?: string | null } | null };
  commits?: { added?: string[]; modified?: string[]; removed?: string[] }[];
  head_commit?: { message?: string } | null;
}

/** Payload → typed input, or `undefined` when the push is not a branch update we render. */
export function toDraftPush(payload: PushPayloadLike, draftsPrefix?: string): DraftPush | undefined {
  const branchPrefix = "refs/heads/";
  if (payload.deleted || !payload.ref.startsWith(branchPrefix) || /^0+$/.test(payload.after))
    return undefined;
  const branch = payload.ref.slice(branchPrefix.length);
  if (!branch.startsWith(normalizePrefix(draftsPrefix))) return undefined;
  const owner = payload.repository.owner?.login ?? payload.repository.owner?.name;
  if (!owner) return undefined;
  const changed = new Set<string>();
  for (const commit of payload.commits ?? []) {
    for (const p of [...(commit.added ?? []), ...(commit.modified ?? []), ...(commit.removed ?? [])])
      changed.add(p);
  }
  return {
    repo: { owner, repo: payload.repository.name },
    branch,
    sha: payload.after,
    changedPaths: [...changed].sort(),
    ...(payload.head_commit?.message !== undefined ? { headCommitMessage: payload.head_commit.message } : {}),
  };
}

/** Dependencies shared by every push: everything of {@link RenderDraftDeps} except the per-event port and log. */
export type PushHandlerDeps = Omit<RenderDraftDeps, "port" | "log">;

/** Builds the `push` handler. */
export function createPushHandler(deps: PushHandlerDeps) {
  return async (context: Context<"push">): Promise<void> => {
    const push = toDraftPush(context.payload, deps.draftsPrefix);
    if (!push) return;
    const outcome = await renderDraft(push, { ...deps, port: portFromContext(context), log: context.log });
    context.log.info(`porchlight/render ${push.branch}@${push.sha.slice(0, 7)}: ${outcome.kind}`);
  };
}
