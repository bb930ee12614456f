/**
 * The GitHub operations the Porch lifecycle needs beyond rendering (issue 4): what a pull request
 * changes, turning a pull request back into a GitHub draft, one updatable comment, tags (published
 * revisions) and draft-branch deletion. An extension of {@link GitHubPort}, so every lifecycle
 * use-case takes one port; the Octokit implementation is `./octokit-lifecycle.ts`.
 */
import type { CheckRunAction, GitHubPort, RepoRef } from "./port.js";

/** A comment on an issue or pull request. */
export interface IssueComment {
  id: number;
  body: string;
  /** Login of the author (`porchlight[bot]` for ours). */
  author: string;
}

/** Result of creating a tag: GitHub refuses to create an existing ref, and we never force one. */
export type TagOutcome = { kind: "created" } | { kind: "exists" };

/** The check-run button that re-renders a commit (`check_run` `requested_action`). */
export const RERENDER_ACTION: CheckRunAction = {
  label: "Re-render",
  description: "Render this commit again",
  identifier: "rerender",
};

/** {@link GitHubPort} plus the lifecycle operations. */
export interface LifecyclePort extends GitHubPort {
  /** Paths a pull request changes (`GET pulls/{n}/files`, paginated; a rename gives both paths). */
  listPullRequestFiles(options: { repo: RepoRef; number: number }): Promise<string[]>;
  /** Paths changed between two commits (`GET compare/{base}...{head}`; a rename gives both paths). */
  compareFiles(options: { repo: RepoRef; base: string; head: string }): Promise<string[]>;
  /** Turns a pull request back into a GitHub draft (GraphQL `convertPullRequestToDraft`, by node id). */
  convertPullRequestToDraft(options: { nodeId: string }): Promise<void>;
  /** Comments of an issue or pull request (`GET issues/{n}/comments`, paginated, oldest first). */
  listComments(options: { repo: RepoRef; issueNumber: number }): Promise<IssueComment[]>;
  /** Adds a comment (`POST issues/{n}/comments`); returns its id. */
  createComment(options: { repo: RepoRef; issueNumber: number; body: string }): Promise<number>;
  /** Replaces a comment's body (`PATCH issues/comments/{id}`). */
  updateComment(options: { repo: RepoRef; commentId: number; body: string }): Promise<void>;
  /** Tags whose name starts with `prefix` (`GET git/matching-refs/tags/<prefix>`), with their object sha. */
  listTags(options: { repo: RepoRef; prefix: string }): Promise<{ name: string; sha: string }[]>;
  /** Creates the lightweight tag `refs/tags/<name>` at commit `sha` (`POST git/refs`); never moves one. */
  createTag(options: { repo: RepoRef; name: string; sha: string }): Promise<TagOutcome>;
  /** Deletes `refs/heads/<branch>` (`DELETE git/refs/heads/<branch>`); `false` when it was already gone. */
  deleteBranch(options: { repo: RepoRef; branch: string }): Promise<boolean>;
}
