/**
 * The follow-ups of a verdict on the pull requests of a revision (Proposed): a pull request whose package
 * fails to render is converted to a GitHub draft and commented; the all-clear goes only to a pull request
 * that was complained about. The draft render and the propose use-case both apply them.
 */
import { CONFIG_PATH } from "../config/load.js";
import type { PullRequestRef, RepoRef } from "../github/port.js";
import { PROPOSE_COMMENT_MARKER, proposeFailureComment, proposeFixedComment } from "../report/comments.js";
import { describeProblem } from "../report/gate-report.js";
import { upsertComment } from "./comments.js";
import type { LifecycleDeps } from "./deps.js";
import type { GateVerdict } from "./merge-gate.js";

/**
 * The follow-ups of `verdict` on one pull request: convert to a GitHub draft and comment when a package
 * fails to render; the all-clear only on a pull request we complained about. `state` is read when not
 * given and needed (conversion).
 */
export async function followUpPullRequest(options: {
  repo: RepoRef;
  pull: PullRequestRef & { draft?: boolean; nodeId?: string };
  verdict: GateVerdict;
  deps: LifecycleDeps;
}): Promise<{ convertedToDraft: boolean }> {
  const { repo, deps, verdict } = options;
  const failures = verdict.problems.filter((p) => p.kind === "render-failed" || p.kind === "error-results");
  if (failures.length === 0) {
    await upsertComment({
      port: deps.port,
      repo,
      issueNumber: options.pull.number,
      marker: PROPOSE_COMMENT_MARKER,
      body: proposeFixedComment({ ...options.pull, draft: options.pull.draft ?? false }),
      onlyIfExists: true,
    });
    return { convertedToDraft: false };
  }
  let { draft, nodeId } = options.pull;
  if (draft === undefined || nodeId === undefined) {
    const snapshot = await deps.port.readSnapshot({
      repo,
      configPath: CONFIG_PATH,
      pullRequest: options.pull.number,
    });
    draft = snapshot.pullRequest?.draft ?? false;
    nodeId = snapshot.pullRequest?.nodeId ?? "";
  }
  const convert = !draft && deps.config.convertFailingToDraft && nodeId !== "";
  if (convert) await deps.port.convertPullRequestToDraft({ nodeId: nodeId as string });
  await upsertComment({
    port: deps.port,
    repo,
    issueNumber: options.pull.number,
    marker: PROPOSE_COMMENT_MARKER,
    body: proposeFailureComment({ ...options.pull, draft }, failures.map(describeProblem), convert || draft),
  });
  return { convertedToDraft: convert };
}

/** {@link followUpPullRequest} for each of `pulls` (their state is read only when needed). */
export async function followUpPullRequests(options: {
  repo: RepoRef;
  pulls: PullRequestRef[];
  verdict: GateVerdict;
  deps: LifecycleDeps;
}): Promise<void> {
  for (const pull of options.pulls) await followUpPullRequest({ ...options, pull });
}
