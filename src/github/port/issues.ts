/** Comments on issues and pull requests, and plain issues (the package dashboard). */
import type { RepoRef } from "./repository.js";

/** A comment on an issue or pull request. */
export interface IssueComment {
  id: number;
  body: string;
  /** Login of the author (`porchlight[bot]` for ours). */
  author: string;
}

/** A plain issue (not a pull request). */
export interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  /** Login of the author (`porchlight[bot]` for ours). */
  author: string;
}

/**
 * A change to an issue or pull request (`PATCH issues/{n}`, `PATCH pulls/{n}`: GitHub's pull request is
 * an issue): the fields given are set, the others kept.
 */
export interface IssueEdit {
  repo: RepoRef;
  number: number;
  title?: string;
  body?: string;
  state?: "open" | "closed";
}

/** The port's comments (`/repos/{owner}/{repo}/issues/{n}/comments`; a pull request is an issue here). */
export interface CommentOperations {
  /** Comments of an issue or pull request (`GET issues/{n}/comments`, paginated, oldest first). */
  listComments(options: { repo: RepoRef; issueNumber: number }): Promise<IssueComment[]>;
  /** Adds a comment (`POST issues/{n}/comments`); returns its id. */
  createComment(options: { repo: RepoRef; issueNumber: number; body: string }): Promise<number>;
  /** Replaces a comment's body (`PATCH issues/comments/{id}`). */
  updateComment(options: { repo: RepoRef; commentId: number; body: string }): Promise<void>;
}

/** The port's plain issues (`/repos/{owner}/{repo}/issues`). */
export interface IssueOperations {
  /** Plain issues (no pull requests) carrying `label`, open and closed, newest first (`GET issues`, paginated). */
  listIssues(options: { repo: RepoRef; label: string }): Promise<Issue[]>;
  /** Opens an issue (`POST issues`); returns its number. */
  createIssue(options: { repo: RepoRef; title: string; body: string; labels: string[] }): Promise<number>;
  /** Changes an issue's title, body or state (`PATCH issues/{n}`). */
  updateIssue(options: IssueEdit): Promise<void>;
}
