/**
 * `push` webhook → {@link renderDraft} (a draft branch) or {@link checkDefaultBranchPush} (the default
 * branch: a check only, the app never commits there). Thin: reads `.github/porchlight.yml` from the
 * default branch like every other handler (its `draftBranchPrefix`, `pushOnFailure`, `directories`...,
 * the operator's `PORCHLIGHT_PUSH_ON_FAILURE` as the default the file overrides), turns the payload into
 * the use-case's input and makes one use-case call. Branch deletions, tags and other branches are ignored.
 * A bad config file gives one failed `porchlight/render` check naming the field, on pushes to a draft
 * branch (the file's prefix when readable, else `drafts/`) or to the default branch.
 */
import type { Context } from "probot";
import { lifecyclePortFromContext } from "../github/octokit-lifecycle.js";
import { reportConfigError } from "../lifecycle/gate-check.js";
import { checkDefaultBranchPush } from "../lifecycle/merge-queue.js";
import { type DraftPush, renderDraft } from "../lifecycle/render-draft.js";
import { normalizePrefix } from "../lifecycle/revisions.js";
import { type LifecycleHandlerDeps, repoConfig } from "./pull-request.js";

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

/** A branch update we may act on: the branch and the push reduced to the use-case's input. */
function branchPush(payload: PushPayloadLike): DraftPush | undefined {
  const branchPrefix = "refs/heads/";
  if (payload.deleted || !payload.ref.startsWith(branchPrefix) || /^0+$/.test(payload.after))
    return undefined;
  const owner = payload.repository.owner?.login ?? payload.repository.owner?.name;
  if (!owner) return undefined;
  const changed = new Set<string>();
  for (const commit of payload.commits ?? []) {
    for (const p of [...(commit.added ?? []), ...(commit.modified ?? []), ...(commit.removed ?? [])])
      changed.add(p);
  }
  return {
    repo: { owner, repo: payload.repository.name },
    branch: payload.ref.slice(branchPrefix.length),
    sha: payload.after,
    changedPaths: [...changed].sort(),
    ...(payload.head_commit?.message !== undefined ? { headCommitMessage: payload.head_commit.message } : {}),
    ...(payload.repository.default_branch ? { defaultBranch: payload.repository.default_branch } : {}),
  };
}

/** Dependencies shared by every push: the engine, the queue and the operator's default policy. */
export type PushHandlerDeps = LifecycleHandlerDeps;

/** Builds the `push` handler (draft branches and the default branch). */
export function createPushHandler(deps: PushHandlerDeps) {
  return async (context: Context<"push">): Promise<void> => {
    const push = branchPush(context.payload);
    if (!push) return;
    const onDefaultBranch = push.branch === push.defaultBranch;
    if (onDefaultBranch && push.changedPaths.length === 0) return;
    const port = lifecyclePortFromContext(context);
    const loaded = await repoConfig(context, deps);
    if (!loaded.ok) {
      if (onDefaultBranch || push.branch.startsWith(normalizePrefix(loaded.draftBranchPrefix))) {
        context.log.warn(`${push.branch}@${push.sha.slice(0, 7)}: ${loaded.message}`);
        await reportConfigError({ port, repo: push.repo, sha: push.sha, message: loaded.message });
      }
      return;
    }
    const config = loaded.config;
    if (onDefaultBranch) {
      const outcome = await checkDefaultBranchPush(push, {
        port,
        engine: deps.engine,
        log: context.log,
        config,
      });
      context.log.info(`push ${push.branch}@${push.sha.slice(0, 7)}: ${outcome.kind}`);
      return;
    }
    if (!push.branch.startsWith(normalizePrefix(config.draftBranchPrefix))) return;
    const outcome = await renderDraft(push, {
      engine: deps.engine,
      ...(deps.queue ? { queue: deps.queue } : {}),
      config,
      port,
      log: context.log,
    });
    context.log.info(`porchlight/render ${push.branch}@${push.sha.slice(0, 7)}: ${outcome.kind}`);
  };
}
