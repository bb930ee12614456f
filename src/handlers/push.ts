/**
 * `push` webhook → {@link renderDraft}. Thin: turns the payload into a {@link DraftPush} and makes one
 * use-case call; branch deletions, tags and non-draft branches are ignored.
 */
import type { Context } from "probot";
import { DEFAULT_REPO_CONFIG } from "../config/schema.js";
import type { PushOnFailure } from "../engine/types.js";
import { lifecyclePortFromContext } from "../github/octokit-lifecycle.js";
import { type DraftPush, type RenderDraftDeps, renderDraft } from "../lifecycle/render-draft.js";
import { normalizePrefix } from "../lifecycle/revisions.js";

/** The subset of GitHub's push payload we read (shape of `@octokit/webhooks` `PushEvent`). */
export interface PushPayloadLike {
  ref: string;
  after: string;
  deleted?: boolean;
  repository: {
    name: string;
    default_branch?: string;
    owner: { login?: string; name?: string | null } | null;
  };
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
    ...(payload.repository.default_branch ? { defaultBranch: payload.repository.default_branch } : {}),
  };
}

/** Dependencies shared by every push. */
export interface PushHandlerDeps extends Pick<RenderDraftDeps, "engine" | "queue"> {
  /** The operator's default policy (`PORCHLIGHT_PUSH_ON_FAILURE`), default `Unrendered`. */
  pushOnFailure?: PushOnFailure;
}

/** Builds the `push` handler. */
export function createPushHandler(deps: PushHandlerDeps) {
  return async (context: Context<"push">): Promise<void> => {
    const config = { ...DEFAULT_REPO_CONFIG, pushOnFailure: deps.pushOnFailure ?? "Unrendered" };
    const push = toDraftPush(context.payload, config.draftBranchPrefix);
    if (!push) return;
    const outcome = await renderDraft(push, {
      engine: deps.engine,
      ...(deps.queue ? { queue: deps.queue } : {}),
      config,
      port: lifecyclePortFromContext(context),
      log: context.log,
    });
    context.log.info(`porchlight/render ${push.branch}@${push.sha.slice(0, 7)}: ${outcome.kind}`);
  };
}
