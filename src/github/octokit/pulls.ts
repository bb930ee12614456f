/** Pull requests: their files, lists, and turning one back into a GitHub draft (GraphQL). */
import type { GitHubPort, PullRequestSummary } from "../port.js";
import { GitHubError } from "../port.js";
import { graphql, type Octokit } from "./client.js";
import { call } from "./errors.js";

const CONVERT_TO_DRAFT = `mutation porchlightConvertToDraft($id: ID!) {
  convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } }
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

const MARK_READY = `mutation porchlightMarkReady($id: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

/** The pull-request methods of the port. */
export function pullOperations(
  octokit: Octokit,
): Pick<
  GitHubPort,
  | "listPullRequestFiles"
  | "listPullRequests"
  | "createPullRequest"
  | "updatePullRequest"
  | "convertPullRequestToDraft"
  | "markPullRequestReady"
  | "mergePullRequest"
  | "listBranchPullRequests"
> {
  return {
    async listPullRequestFiles({ repo, number }) {
      const files = await call("pulls.listFiles", () =>
        octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: number, per_page: 100 }),
      );
      const paths = new Set<string>();
      for (const f of files) {
        paths.add(f.filename);
        if (f.previous_filename) paths.add(f.previous_filename);
      }
      return [...paths].sort();
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

    async markPullRequestReady({ nodeId }) {
      const answer = await graphql(octokit, "graphql.markPullRequestReadyForReview", MARK_READY, {
        id: nodeId,
      });
      if (answer.errors.length > 0)
        throw new GitHubError({
          kind: "rejected",
          operation: "graphql.markPullRequestReadyForReview",
          message: answer.errors.map((e) => e.message).join("; "),
        });
    },

    async convertPullRequestToDraft({ nodeId }) {
      const answer = await graphql(octokit, "graphql.convertPullRequestToDraft", CONVERT_TO_DRAFT, {
        id: nodeId,
      });
      if (answer.errors.length > 0) {
        throw new GitHubError({
          kind: "rejected",
          operation: "graphql.convertPullRequestToDraft",
          message: answer.errors.map((e) => e.message).join("; "),
        });
      }
    },
  };
}
