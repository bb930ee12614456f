/** Issue and pull request comments, and plain issues (the package dashboard). */
import type { CommentOperations, Issue, IssueComment, IssueOperations } from "../port.js";
import type { Octokit } from "./client.js";
import { call } from "./errors.js";

/** The plain-issue methods of the port. */
export function issueOperations(octokit: Octokit): IssueOperations {
  return {
    async listIssues({ repo, label }): Promise<Issue[]> {
      const issues = await call("issues.listForRepo", () =>
        octokit.paginate(octokit.rest.issues.listForRepo, {
          ...repo,
          labels: label,
          state: "all",
          sort: "created",
          direction: "desc",
          per_page: 100,
        }),
      );
      return issues
        .filter((i) => !i.pull_request)
        .map((i) => ({
          number: i.number,
          title: i.title,
          body: i.body ?? "",
          state: i.state === "closed" ? "closed" : "open",
          author: i.user?.login ?? "",
        }));
    },

    async createIssue({ repo, title, body, labels }) {
      const { data } = await call("issues.create", () =>
        octokit.rest.issues.create({ ...repo, title, body, labels }),
      );
      return data.number;
    },

    async updateIssue({ repo, number, ...fields }) {
      await call("issues.update", () =>
        octokit.rest.issues.update({ ...repo, issue_number: number, ...fields }),
      );
    },
  };
}

/** The comment methods of the port. */
export function commentOperations(octokit: Octokit): CommentOperations {
  return {
    async listComments({ repo, issueNumber }): Promise<IssueComment[]> {
      const comments = await call("issues.listComments", () =>
        octokit.paginate(octokit.rest.issues.listComments, {
          ...repo,
          issue_number: issueNumber,
          per_page: 100,
        }),
      );
      return comments.map((c) => ({ id: c.id, body: c.body ?? "", author: c.user?.login ?? "" }));
    },

    async createComment({ repo, issueNumber, body }) {
      const { data } = await call("issues.createComment", () =>
        octokit.rest.issues.createComment({ ...repo, issue_number: issueNumber, body }),
      );
      return data.id;
    },

    async updateComment({ repo, commentId, body }) {
      await call("issues.updateComment", () =>
        octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body }),
      );
    },
  };
}
