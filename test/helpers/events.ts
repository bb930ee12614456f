/**
 * Webhook events shaped like GitHub's: a real `push` example from `@octokit/webhooks-examples` with the
 * ref, shas and commits replaced.
 */
import { createRequire } from "node:module";
import type { EmitterWebhookEvent } from "@octokit/webhooks";

const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples") as {
  name: string;
  examples: Record<string, unknown>[];
}[];

type PushPayload = EmitterWebhookEvent<"push">["payload"];

/** The first branch push example with an installation (api.github.com). */
function basePush(): PushPayload {
  const push = examples.find((e) => e.name === "push");
  const example = push?.examples.find(
    (e) => typeof e.ref === "string" && e.ref.startsWith("refs/heads/") && e.installation !== undefined,
  );
  if (!example) throw new Error("@octokit/webhooks-examples: no branch push example with an installation");
  return structuredClone(example) as unknown as PushPayload;
}

export interface CommitSpec {
  id?: string;
  message?: string;
  added?: string[];
  modified?: string[];
  removed?: string[];
}

/** A push event to `branch` moving it from `before` to `after` with `commits` (the last is the head). */
export function pushEvent(options: {
  branch: string;
  before?: string;
  after: string;
  commits: CommitSpec[];
  id?: string;
}): EmitterWebhookEvent<"push"> {
  const payload = basePush();
  const template = payload.commits[0];
  if (!template) throw new Error("push example has no commit");
  payload.ref = `refs/heads/${options.branch}`;
  payload.before = options.before ?? "0".repeat(39).concat("1");
  payload.after = options.after;
  payload.created = false;
  payload.deleted = false;
  payload.commits = options.commits.map((c, i) => ({
    ...template,
    id: c.id ?? (i === options.commits.length - 1 ? options.after : `${String(i).padStart(40, "c")}`),
    message: c.message ?? "Edit package",
    added: c.added ?? [],
    modified: c.modified ?? [],
    removed: c.removed ?? [],
  }));
  const head = payload.commits.at(-1);
  payload.head_commit = head ? { ...head, tree_id: "t".repeat(40) } : null;
  return { id: options.id ?? `delivery-${options.after.slice(0, 8)}`, name: "push", payload };
}
