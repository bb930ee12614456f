/**
 * Lifecycle webhook events built from the real examples in `@octokit/webhooks-examples` (api.github.com
 * payloads), with the repository, refs, shas and pull request fields set from a {@link FakeRepo}.
 */
import { createRequire } from "node:module";
import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Probot } from "probot";
import { pushEvent } from "../../helpers/events.js";
import type { FakePull, FakeRepo } from "./fake-repo.js";

const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples") as {
  name: string;
  examples: Record<string, unknown>[];
}[];

function example(name: string, action: string): Record<string, unknown> {
  const found = examples.find((e) => e.name === name)?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`@octokit/webhooks-examples: no ${name}.${action} example`);
  return structuredClone(found);
}

let delivery = 0;

function withRepository(payload: Record<string, unknown>, fake: FakeRepo): Record<string, unknown> {
  const repository = payload.repository as Record<string, unknown>;
  const owner = repository.owner as Record<string, unknown>;
  Object.assign(owner, { login: fake.owner, name: fake.owner });
  Object.assign(repository, {
    name: fake.repo,
    full_name: fake.fullName,
    default_branch: fake.defaultBranch,
  });
  payload.installation = { id: 1, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };
  return payload;
}

function side(fake: FakeRepo, ref: string, sha: string, repository: unknown) {
  return { label: `${fake.owner}:${ref}`, ref, sha, repo: repository };
}

/** A `pull_request` event for `pull` in its current state (`action`: opened, synchronize, closed, ...). */
export function pullRequestEvent(
  fake: FakeRepo,
  pull: FakePull,
  action: string,
): EmitterWebhookEvent<"pull_request"> {
  const payload = withRepository(
    example("pull_request", action === "synchronize" ? "synchronize" : "opened"),
    fake,
  );
  payload.action = action;
  payload.number = pull.number;
  const pr = payload.pull_request as Record<string, unknown>;
  const headSha = pull.mergeCommitSha
    ? (fake.commits.get(pull.mergeCommitSha)?.parents[1] ?? "")
    : fake.heads.get(pull.head)!;
  Object.assign(pr, {
    number: pull.number,
    node_id: pull.nodeId,
    draft: pull.draft,
    state: pull.state,
    merged: pull.merged,
    merged_at: pull.merged ? "2026-01-01T00:00:00Z" : null,
    merge_commit_sha: pull.mergeCommitSha,
    head: side(fake, pull.head, headSha, payload.repository),
    base: side(fake, pull.base, pull.baseSha, payload.repository),
  });
  return { id: `d-${++delivery}`, name: "pull_request", payload } as EmitterWebhookEvent<"pull_request">;
}

/** A `push` event for a push made with {@link FakeRepo.push}. */
export function pushEventFor(
  fake: FakeRepo,
  branch: string,
  pushed: { before: string; after: string; paths: string[] },
  message = "Edit package",
): EmitterWebhookEvent<"push"> {
  const event = pushEvent({
    branch,
    before: pushed.before,
    after: pushed.after,
    commits: [{ message, modified: pushed.paths }],
    id: `d-${++delivery}`,
  });
  withRepository(event.payload as unknown as Record<string, unknown>, fake);
  return event;
}

/** A user `git push` to a draft branch, delivered to the app; returns the head after the app handled it. */
export async function deliverDraftPush(options: {
  probot: Probot;
  fake: FakeRepo;
  branch: string;
  changes: Record<string, string | null>;
}): Promise<string> {
  const pushed = options.fake.push({ branch: options.branch, changes: options.changes });
  await options.probot.receive(pushEventFor(options.fake, options.branch, pushed));
  return options.fake.heads.get(options.branch)!;
}

/** A `check_run` event (`rerequested`, or `requested_action` with `identifier`) for our check on `sha`. */
export function checkRunEvent(
  fake: FakeRepo,
  options: {
    action: "rerequested" | "requested_action";
    sha: string;
    branch: string;
    pulls?: FakePull[];
    identifier?: string;
  },
): EmitterWebhookEvent<"check_run"> {
  const payload = withRepository(example("check_run", options.action), fake);
  const run = payload.check_run as Record<string, unknown>;
  Object.assign(run, {
    name: "porchlight/render",
    head_sha: options.sha,
    check_suite: { ...(run.check_suite as object), head_branch: options.branch, head_sha: options.sha },
    pull_requests: (options.pulls ?? []).map((p) => ({
      url: "u",
      id: p.number,
      number: p.number,
      head: { ref: p.head, sha: options.sha, repo: { id: 1, url: "u", name: fake.repo } },
      base: { ref: p.base, sha: p.baseSha, repo: { id: 1, url: "u", name: fake.repo } },
    })),
  });
  if (options.action === "requested_action")
    payload.requested_action = { identifier: options.identifier ?? "rerender" };
  return { id: `d-${++delivery}`, name: "check_run", payload } as EmitterWebhookEvent<"check_run">;
}

/** A `check_suite` `rerequested` event on `sha`. */
export function checkSuiteEvent(
  fake: FakeRepo,
  options: { sha: string; branch: string },
): EmitterWebhookEvent<"check_suite"> {
  const payload = withRepository(example("check_suite", "rerequested"), fake);
  Object.assign(payload.check_suite as object, {
    head_sha: options.sha,
    head_branch: options.branch,
    pull_requests: [],
  });
  return { id: `d-${++delivery}`, name: "check_suite", payload } as EmitterWebhookEvent<"check_suite">;
}

/** A `merge_group` `checks_requested` event for a queued group `baseSha..headSha`. */
export function mergeGroupEvent(
  fake: FakeRepo,
  options: { headSha: string; baseSha: string },
): EmitterWebhookEvent<"merge_group"> {
  const payload = withRepository(example("merge_group", "checks_requested"), fake);
  Object.assign(payload.merge_group as object, {
    head_sha: options.headSha,
    base_sha: options.baseSha,
    head_ref: `refs/heads/gh-readonly-queue/${fake.defaultBranch}/pr-1-${options.baseSha}`,
    base_ref: `refs/heads/${fake.defaultBranch}`,
  });
  return { id: `d-${++delivery}`, name: "merge_group", payload } as EmitterWebhookEvent<"merge_group">;
}
