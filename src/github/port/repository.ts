/** The repository itself and the state a job starts from (one GraphQL snapshot), and file reads. */

/** A repository, as `owner/repo`. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** The head commit of a branch. */
export interface BranchHead {
  name: string;
  sha: string;
  /** Full commit message (subject, body, trailers). */
  message: string;
}

/** A pull request's state, as a job reads it when it starts. */
export interface PullRequestState {
  number: number;
  /** GraphQL node id (for `convertPullRequestToDraft`). */
  nodeId: string;
  state: "open" | "closed";
  merged: boolean;
  /** The merge commit, once merged. */
  mergeCommitSha: string | undefined;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** GitHub draft pull request. */
  draft: boolean;
}

/**
 * Everything a job needs to start, read in ONE request (GraphQL): the default branch, a configuration
 * file from it (or from the owner's `.github` repository, Probot's organization-wide fallback), and
 * optionally one branch head and one pull request.
 */
export interface RepoSnapshot {
  defaultBranch: string;
  /** Head of the default branch; `undefined` for an empty repository. */
  defaultBranchSha: string | undefined;
  /** The configuration file's text; `undefined` when neither the repository nor the owner has one. */
  config: { text: string; source: "repository" | "organization" } | undefined;
  /** The requested branch's head; `undefined` when the branch does not exist (or none was asked). */
  branch: BranchHead | undefined;
  /** The requested pull request; `undefined` when it does not exist (or none was asked). */
  pullRequest: PullRequestState | undefined;
}

/** The port's repository reads: the state a job starts from, repository metadata, one file. */
export interface RepositoryOperations {
  /**
   * One GraphQL request: the default branch and its head, `configPath` on it (else in the owner's
   * `.github` repository), and when asked the head of `branch` and the state of pull request `pullRequest`.
   */
  readSnapshot(options: {
    repo: RepoRef;
    configPath: string;
    branch?: string | undefined;
    pullRequest?: number | undefined;
  }): Promise<RepoSnapshot>;
  /**
   * The repository's name, default branch and, when GitHub says, its visibility (`GET /repos/{owner}/{repo}`):
   * `public`, `private` or `internal` (GitHub Enterprise: readable by the enterprise's members).
   */
  readRepository(options: {
    repo: RepoRef;
  }): Promise<{ name: string; defaultBranch: string; visibility?: "public" | "private" | "internal" }>;
  /** One text file at `ref` (contents API); `undefined` when it does not exist. */
  readFile(options: { repo: RepoRef; path: string; ref: string }): Promise<string | undefined>;
}
