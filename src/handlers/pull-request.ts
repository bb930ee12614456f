/**
 * `pull_request` → a hint: merged → a publish job; anything else that can change a proposal (opened,
 * reopened, ready for review, a new head, a new base, closed) → a pull-request job, which reads the pull
 * request's current state. Thin: no GitHub call here.
 */
import type { Context } from "probot";
import { enqueue, type HandlerDeps, hasVerdict, source } from "./hints.js";
import { upstreamPullJobs } from "./upstream-hints.js";

const ACTIONS = new Set(["opened", "reopened", "synchronize", "ready_for_review", "edited", "closed"]);

/** Builds the `pull_request` handler. */
export function createPullRequestHandler(deps: HandlerDeps) {
  return async (context: Context<"pull_request">): Promise<void> => {
    const { payload } = context;
    const from = source(payload, context.id);
    if (!from || !ACTIONS.has(payload.action)) return;
    const pr = payload.pull_request;
    const sameRepository = pr.head.repo?.full_name === payload.repository.full_name;
    await enqueue(deps, ...upstreamPullJobs({ from, action: payload.action, number: pr.number }));
    if (payload.action === "closed" && pr.merged) {
      await enqueue(deps, { kind: "publish", ...from, number: pr.number, sameRepository });
      return;
    }
    // A new head that already holds a verdict (the app's own render commit) needs nothing.
    if (payload.action === "synchronize" && (await hasVerdict(deps, from.repo, pr.head.sha))) return;
    await enqueue(deps, {
      kind: "pull-request",
      ...from,
      number: pr.number,
      sameRepository,
      action: payload.action,
    });
  };
}
