/** Pull requests: their files, lists, and turning one back into a GitHub draft (GraphQL). */
import type { PullRequestOperations, PullRequestSummary } from "../port.js";
import { GitHubError } from "../port.js";
import { graphql, type Octokit } from "./client.js";
import { call } from "./errors.js";
import { changedPaths } from "./git.js";

const CONVERT_TO_DRAFT = `mutation porchlightConvertToDraft($id: ID!) {
  convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

const MARK_READY = `mutation porchlightMarkReady($id: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

type ListedPull = Awaited<ReturnType<Octokit["rest"]["pulls"]["list"]>>["data"][number];

function toSummary(p: ListedPull): PullRequestSummary {
  return {
    number: p.number,
    nodeId: p.node_id,
    state: p.state === "open" ? "open" : "closed",
    merged: Boolean(p.merged_at),
    mergeCommitSha: p.merged_at ? (p.merge_commit_sha ?? undefined) : undefined,
    headRef: p.head.ref,
    headSha: p.head.sha,
    baseRef: p.base.ref,
    draft: p.draft === true,
    sameRepository: p.head.repo?.full_name !== undefined && p.head.repo.full_name === p.base.repo?.full_name,
  };
}

/** The methods that only read. */
type ReadMethods = "listPullRequestFiles" | "listPullRequests" | "listBranchPullRequests";

/** Runs a draft-state mutation on pull request `nodeId`; GraphQL errors throw GitHubError `rejected`. */
async function draftMutation(octokit: Octokit, operation: string, query: string, nodeId: string) {
  const answer = await graphql(octokit, operation, query, { id: nodeId });
  if (answer.errors.length > 0)
    throw new GitHubError({
      kind: "rejected",
      operation,
      message: answer.errors.map((e) => e.message).join("; "),
    });
}

/** The pull-request reads of the port: files, lists, a branch's pull requests. */
function pullReads(octokit: Octokit): Pick<PullRequestOperations, ReadMethods> {
  return {
    async listPullRequestFiles({ repo, number }) {
      const files = await call("pulls.listFiles", () =>
        octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: number, per_page: 100 }),
      );
      return changedPaths(files);
    },

    async listPullRequests({ repo, state, base, limit }): Promise<PullRequestSummary[]> {
      const params = {
        ...repo,
        state,
        ...(base ? { base } : {}),
        // A limited list is the most recently updated ones; a full list keeps GitHub's order.
        ...(limit !== undefined ? { sort: "updated" as const, direction: "desc" as const } : {}),
        per_page: Math.min(limit ?? 100, 100),
      };
      const pulls =
        limit === undefined
          ? await call("pulls.list", () => octokit.paginate(octokit.rest.pulls.list, params))
          : (await call("pulls.list", () => octokit.rest.pulls.list(params))).data.slice(0, limit);
      return pulls.map(toSummary);
    },

    async listBranchPullRequests({ repo, branch }): Promise<PullRequestSummary[]> {
      const pulls = await call("pulls.list", () =>
        octokit.paginate(octokit.rest.pulls.list, {
          ...repo,
          state: "all",
          head: `${repo.owner}:${branch}`,
          per_page: 100,
        }),
      );
      return pulls.map(toSummary).filter((p) => p.sameRepository && p.headRef === branch);
    },
  };
}

/** The pull-request writes of the port: open, update, merge, and the draft state. */
function pullWrites(octokit: Octokit): Omit<PullRequestOperations, ReadMethods> {
  return {
    async createPullRequest({ repo, head, base, title, body }) {
      const { data } = await call("pulls.create", () =>
        octokit.rest.pulls.create({ ...repo, head, base, title, body }),
      );
      return { number: data.number };
    },

    async updatePullRequest({ repo, number, title, body, state }) {
      await call("pulls.update", () =>
        octokit.rest.pulls.update({
          ...repo,
          pull_number: number,
          ...(title !== undefined ? { title } : {}),
          ...(body !== undefined ? { body } : {}),
          ...(state !== undefined ? { state } : {}),
        }),
      );
    },

    async mergePullRequest({ repo, number, sha, method }) {
      try {
        const { data } = await call("pulls.merge", () =>
          octokit.rest.pulls.merge({ ...repo, pull_number: number, sha, merge_method: method ?? "merge" }),
        );
        return { kind: "merged", sha: data.sha };
      } catch (error) {
        // 405 not mergeable (checks, conflicts), 409 head moved, 422 closed or invalid.
        if (error instanceof GitHubError && [405, 409, 422].includes(error.status ?? 0))
          return { kind: "refused", message: error.message };
        throw error;
      }
    },

    markPullRequestReady: ({ nodeId }) =>
      draftMutation(octokit, "graphql.markPullRequestReadyForReview", MARK_READY, nodeId),

    convertPullRequestToDraft: ({ nodeId }) =>
      draftMutation(octokit, "graphql.convertPullRequestToDraft", CONVERT_TO_DRAFT, nodeId),
  };
}

/** The pull-request methods of the port. */
export function pullOperations(octokit: Octokit): PullRequestOperations {
  return { ...pullReads(octokit), ...pullWrites(octokit) };
}
