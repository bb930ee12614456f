/** Pull requests: lists, their files, opening, updating, merging, and GitHub's draft state (GraphQL). */
import type { IssueEdit } from "./issues.js";
import type { PullRequestState, RepoRef } from "./repository.js";

/** A pull request as lists return it. */
export interface PullRequestSummary extends PullRequestState {
  /** The head branch lives in this repository (not a fork): only then may the app commit to it. */
  sameRepository: boolean;
}

/** A pull request GitHub associates with a check run (open, its head at the run's sha). */
export interface PullRequestRef {
  number: number;
  headRef: string;
  headSha: string;
  baseRef: string;
}

/** The port's pull requests (`/repos/{owner}/{repo}/pulls`, and GraphQL for the draft state). */
export interface PullRequestOperations {
  /** Paths a pull request changes (`GET pulls/{n}/files`, paginated; a rename gives both paths). */
  listPullRequestFiles(options: { repo: RepoRef; number: number }): Promise<string[]>;
  /**
   * Pull requests (`GET pulls`, newest updated first): `open`/`closed`/`all`, into `base` when given, at
   * most `limit` (default: all pages).
   */
  listPullRequests(options: {
    repo: RepoRef;
    state: "open" | "closed" | "all";
    base?: string;
    limit?: number;
  }): Promise<PullRequestSummary[]>;
  /** Opens a pull request (`POST pulls`); returns its number. */
  createPullRequest(options: {
    repo: RepoRef;
    head: string;
    base: string;
    title: string;
    body: string;
  }): Promise<{ number: number }>;
  /** Updates a pull request's title, body or state (`PATCH pulls/{n}`). */
  updatePullRequest(options: IssueEdit): Promise<void>;
  /**
   * Every pull request (open and closed, newest first) whose head is `branch` of `repo` itself
   * (`GET pulls?state=all&head=<owner>:<branch>`, paginated).
   */
  listBranchPullRequests(options: { repo: RepoRef; branch: string }): Promise<PullRequestSummary[]>;
  /**
   * Merges a pull request (`PUT pulls/{n}/merge`) if its head is still `sha` (compare-and-swap): a head
   * that moved, a pull request GitHub will not merge (conflicts, required checks, closed) is `refused`
   * with GitHub's message, never thrown.
   */
  mergePullRequest(options: {
    repo: RepoRef;
    number: number;
    sha: string;
    method?: "merge" | "squash";
  }): Promise<{ kind: "merged"; sha: string } | { kind: "refused"; message: string }>;
  /** Turns a pull request back into a GitHub draft (GraphQL `convertPullRequestToDraft`, by node id). */
  convertPullRequestToDraft(options: { nodeId: string }): Promise<void>;
  /** Marks a GitHub draft pull request ready for review (GraphQL `markPullRequestReadyForReview`). */
  markPullRequestReady?(options: { nodeId: string }): Promise<void>;
}
