/**
 * `pull_request` webhook → propose / publish / reject. Thin: reads the repository config (default
 * branch only), turns the payload into the use-case's input and makes one use-case call.
 * - opened / reopened / synchronize / ready_for_review → {@link proposeRevision}
 * - closed with `merged: true` → {@link publishRevision}; closed unmerged → {@link rejectRevision}
 */
import type { Context } from "probot";
import { loadRepoConfig } from "../config/load.js";
import type { RepoConfig } from "../config/schema.js";
import type { PushOnFailure } from "../engine/types.js";
import type { LifecyclePort } from "../github/lifecycle-port.js";
import { lifecyclePortFromContext } from "../github/octokit-lifecycle.js";
import { upsertComment } from "../lifecycle/comments.js";
import { reportConfigError } from "../lifecycle/gate-check.js";
import { type PullRequestInput, proposeRevision } from "../lifecycle/propose.js";
import { publishRevision } from "../lifecycle/publish.js";
import { rejectRevision } from "../lifecycle/reject.js";
import type { RenderEngine } from "../lifecycle/render-packages.js";
import type { WorkQueue } from "../lifecycle/work-queue.js";

/** Dependencies shared by every lifecycle event (the per-event port, log and config come from the context). */
export interface LifecycleHandlerDeps {
  engine: RenderEngine;
  /** The push handler's queue, so a head it is rendering is not rendered twice. */
  queue?: WorkQueue;
  /** The operator's default `pushOnFailure` (`PORCHLIGHT_PUSH_ON_FAILURE`); the repository file overrides it. */
  pushOnFailure?: PushOnFailure;
}

/**
 * Reads `.github/porchlight.yml` with Probot's `context.config` — from the default branch only (404 =
 * all defaults) — with the operator's defaults from `deps`. Every handler (push, pull request, re-run,
 * merge group) reads it this way, so they all judge with the same configuration.
 */
export async function repoConfig(
  context: Pick<Context, "config">,
  deps: Pick<LifecycleHandlerDeps, "pushOnFailure"> = {},
) {
  return loadRepoConfig(() => context.config<Record<string, unknown>>("porchlight.yml"), {
    defaults: deps.pushOnFailure ? { pushOnFailure: deps.pushOnFailure } : {},
  });
}

/** The subset of the `pull_request` payload we read. */
export interface PullRequestPayloadLike {
  action: string;
  number: number;
  pull_request: {
    node_id: string;
    draft?: boolean;
    merged?: boolean | null;
    merge_commit_sha?: string | null;
    head: { ref: string; sha: string; repo: { full_name: string } | null };
    base: { ref: string; sha: string; repo: { full_name: string } };
  };
  repository: { name: string; full_name: string; default_branch: string; owner: { login: string } };
}

/** Payload → the propose input. */
export function toPullRequestInput(payload: PullRequestPayloadLike): PullRequestInput {
  const pr = payload.pull_request;
  return {
    repo: { owner: payload.repository.owner.login, repo: payload.repository.name },
    action: payload.action,
    number: payload.number,
    nodeId: pr.node_id,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    draft: pr.draft === true,
    sameRepository: pr.head.repo?.full_name === payload.repository.full_name,
    defaultBranch: payload.repository.default_branch,
  };
}

async function closed(options: {
  payload: PullRequestPayloadLike;
  port: LifecyclePort;
  config: RepoConfig;
  context: Context;
  engine: RenderEngine;
}) {
  const { payload, port, config, context } = options;
  const input = toPullRequestInput(payload);
  const pr = payload.pull_request;
  if (pr.merged && pr.merge_commit_sha) {
    return publishRevision(
      { ...input, mergeCommitSha: pr.merge_commit_sha },
      { port, config, log: context.log, engine: options.engine },
    );
  }
  return rejectRevision(input, { port, config });
}

/** Builds the `pull_request` handler. */
export function createPullRequestHandler(deps: LifecycleHandlerDeps) {
  return async (context: Context<"pull_request">): Promise<void> => {
    const payload = context.payload;
    const port = lifecyclePortFromContext(context);
    const input = toPullRequestInput(payload);
    const loaded = await repoConfig(context, deps);
    if (!loaded.ok) {
      context.log.warn(`${payload.repository.full_name}#${payload.number}: ${loaded.message}`);
      if (payload.action === "closed") {
        // Nothing is published with a configuration we cannot read; say so where the user looks.
        await upsertComment({
          port,
          repo: input.repo,
          issueNumber: input.number,
          marker: "<!-- porchlight:config -->",
          body: `<!-- porchlight:config -->\n### ⚠️ Not processed\n\n\`\`\`\n${loaded.message}\n\`\`\`\n\nNothing was published or changed.`,
        });
      } else {
        await reportConfigError({ port, repo: input.repo, sha: input.headSha, message: loaded.message });
      }
      return;
    }
    const outcome =
      payload.action === "closed"
        ? await closed({ payload, port, config: loaded.config, context, engine: deps.engine })
        : await proposeRevision(input, {
            port,
            engine: deps.engine,
            log: context.log,
            config: loaded.config,
            ...(deps.queue ? { queue: deps.queue } : {}),
          });
    context.log.info(`pull_request ${payload.action} #${payload.number}: ${outcome.kind}`);
  };
}
