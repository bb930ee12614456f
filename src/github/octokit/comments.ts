/** Issue and pull request comments. */
import type { GitHubPort, IssueComment } from "../port.js";
import type { Octokit } from "./client.js";
import { call } from "./errors.js";

/** The comment methods of the port. */
export function commentOperations(
  octokit: Octokit,
): Pick<GitHubPort, "listComments" | "createComment" | "updateComment"> {
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
