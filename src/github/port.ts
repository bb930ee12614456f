/**
 * The GitHub port: every GitHub operation porchlight needs — the app's use-cases, reconciliation and
 * the command-line tools — in one interface whose methods are all required, named in GitHub's words
 * (Git Data API, Checks API, pull requests, GraphQL). Use-cases depend on this interface only; the
 * Octokit adapter in `./octokit/` is the only code that talks to Octokit.
 *
 * Reads are batched where GitHub allows it (one GraphQL request for the state a job starts from, blobs
 * by the hundred); the one commit-writing method is compare-and-swap on the branch head.
 *
 * Errors: implementations throw {@link GitHubError} — `kind: "unavailable"` when GitHub failed (5xx,
 * network, primary or secondary rate limit: retrying later may help), `kind: "rejected"` when GitHub
 * refused the request (other 4xx). Expected outcomes that are not failures (a branch that moved, a tag
 * that exists) are typed results instead of errors.
 */

/** A repository, as `owner/repo`. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** One entry of a recursive Git tree (GitHub `GET /repos/{owner}/{repo}/git/trees/{sha}?recursive=1`). */
export interface TreeEntry {
  /** Repository-relative POSIX path, e.g. `pkgs/app/Kptfile`. */
  path: string;
  /** Git file mode: `100644`, `100755`, `120000` (symlink), `040000` (tree), `160000` (submodule). */
  mode: string;
  type: "blob" | "tree" | "commit";
  /** Object sha (40 hex). */
  sha: string;
  /** Blob size in bytes (blobs only). */
  size?: number;
}

/** A whole recursive tree read at one commit. */
export interface RepoTree {
  /** Sha of the root tree object. */
  treeSha: string;
  entries: TreeEntry[];
}

/** The object at one path of a commit (what `git rev-parse <sha>:<path>` names). */
export interface PathObject {
  type: "blob" | "tree" | "commit";
  /** Object sha (40 hex). */
  sha: string;
}

/** A blob to read: its sha and, when known from the tree, its size in bytes (large ones skip GraphQL). */
export interface BlobRef {
  sha: string;
  size?: number | undefined;
}

/** A file a commit writes: repository-relative path, raw bytes and the mode to keep. */
export interface FileAddition {
  path: string;
  content: Uint8Array;
  /** `100644` (regular) or `100755` (executable): the mode the file has, or `100644` for a new file. */
  mode: "100644" | "100755";
}

/** The changes of one commit: files written and paths deleted (repository-relative, no overlap). */
export interface FileChanges {
  additions: FileAddition[];
  deletions: string[];
}

/**
 * Result of {@link GitHubPort.commitFiles}: `superseded` = the branch no longer pointed at the expected
 * head (a push, force-push, rewind or deletion happened meanwhile): nothing was written.
 */
export type CommitOutcome = { kind: "committed"; sha: string } | { kind: "superseded"; message: string };

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

/** GitHub check-run annotation (Checks API `output.annotations[]`); lines are 1-based. */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  /** Only when `start_line === end_line` (GitHub ignores columns otherwise). */
  start_column?: number;
  end_column?: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
  raw_details?: string;
}

/** Check-run output (`output` of the Checks API). `summary` at most 65535 characters. */
export interface CheckOutput {
  title: string;
  summary: string;
  text?: string;
  /** At most 50 per request (GitHub's limit); the Checks API appends them across updates. */
  annotations?: CheckAnnotation[];
}

export type CheckConclusion = "success" | "failure" | "neutral" | "cancelled" | "skipped" | "action_required";

/** Fields of a check run create (`POST check-runs`) or update (`PATCH check-runs/{id}`). */
export interface CheckRunFields {
  status?: "queued" | "in_progress" | "completed";
  /** Required when `status` is `completed`. */
  conclusion?: CheckConclusion;
  output?: CheckOutput;
  /** Our own correlation id (Checks API `external_id`): what was rendered, and who holds the run. */
  externalId?: string;
  /** Buttons on the check run (Checks API `actions`, at most 3); a click sends `check_run` `requested_action`. */
  actions?: CheckRunAction[];
}

/** A check-run button: `label` ≤ 20, `description` ≤ 40, `identifier` ≤ 20 characters. */
export interface CheckRunAction {
  label: string;
  description: string;
  identifier: string;
}

/** A check run as `GET commits/{sha}/check-runs` lists it. */
export interface CheckRunSummary {
  id: number;
  name: string;
  headSha: string;
  status: "queued" | "in_progress" | "completed" | "waiting" | "requested" | "pending";
  conclusion: string | undefined;
  externalId: string | undefined;
  /** ISO 8601, when GitHub has it. */
  startedAt: string | undefined;
  /** The GitHub App that created the run. */
  appId: number | undefined;
}

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

/** Result of creating a tag: GitHub refuses to create an existing ref, and we never force one. */
export type TagOutcome = { kind: "created" } | { kind: "exists" };

/** The body of a repository ruleset (`POST /repos/{owner}/{repo}/rulesets`), as GitHub names its fields. */
export interface RulesetBody {
  name: string;
  target: "branch" | "tag" | "push";
  enforcement: "active" | "evaluate" | "disabled";
  conditions: { ref_name: { include: string[]; exclude: string[] } };
  rules: ({ type: string } & Record<string, unknown>)[];
}

/** What {@link GitHubPort.ensureRuleset} did. */
export interface RulesetOutcome {
  action: "created" | "updated";
  id: number;
  /** Link to the ruleset on GitHub when GitHub returned one. */
  url?: string;
}

/** Thrown by port implementations. `status` is the HTTP status when GitHub answered. */
export class GitHubError extends Error {
  readonly kind: "unavailable" | "rejected";
  readonly status: number | undefined;
  readonly operation: string;
  /** `primary` / `secondary` when GitHub rate-limited the request (then `kind` is `unavailable`). */
  readonly rateLimit: "primary" | "secondary" | undefined;
  /** Seconds GitHub asked us to wait (`retry-after`, or until `x-ratelimit-reset`), when it said. */
  readonly retryAfterSeconds: number | undefined;
  constructor(options: {
    kind: "unavailable" | "rejected";
    status?: number | undefined;
    operation: string;
    message: string;
    rateLimit?: "primary" | "secondary" | undefined;
    retryAfterSeconds?: number | undefined;
  }) {
    super(`${options.operation}: ${options.message}`);
    this.name = "GitHubError";
    this.kind = options.kind;
    this.status = options.status;
    this.operation = options.operation;
    this.rateLimit = options.rateLimit;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** True when `error` says GitHub failed (retrying later may help), not that it refused. */
export function isGitHubOutage(error: unknown): boolean {
  return error instanceof GitHubError && error.kind === "unavailable";
}

/**
 * Everything porchlight asks of GitHub. Extend with one method per new operation rather than widening
 * existing ones; every method is required (a test double implements them all).
 */
export interface GitHubPort {
  // ── State a job starts from ──────────────────────────────────────────────────────────────────────
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
  /** The sha `refs/heads/<branch>` points at (`GET git/ref/heads/<branch>`); `undefined` when absent. */
  readBranchHead(options: { repo: RepoRef; branch: string }): Promise<string | undefined>;
  /**
   * The repository's name, default branch and, when GitHub says, its visibility (`GET /repos/{owner}/{repo}`):
   * `public`, `private` or `internal` (GitHub Enterprise: readable by the enterprise's members).
   */
  readRepository(options: {
    repo: RepoRef;
  }): Promise<{ name: string; defaultBranch: string; visibility?: "public" | "private" | "internal" }>;
  /** One text file at `ref` (contents API); `undefined` when it does not exist. */
  readFile(options: { repo: RepoRef; path: string; ref: string }): Promise<string | undefined>;

  // ── Git content ──────────────────────────────────────────────────────────────────────────────────
  /**
   * A commit's or tree's whole tree (Git Data API, recursive); past GitHub's 100,000-entry limit, read
   * subtree by subtree. `prefix` (e.g. `pkgs/app/` when `sha` is that directory's tree) is put before
   * every path, so a subtree's entries carry repository-relative paths.
   */
  readTree(options: { repo: RepoRef; sha: string; prefix?: string }): Promise<RepoTree>;
  /**
   * What is at each repository-relative path of commit `sha` (GraphQL `object(expression:
   * "<sha>:<path>")` aliases, hundreds per request); a path that does not exist is not in the map.
   * How a job finds Kptfiles and package subtrees without reading the whole tree.
   */
  readPathObjects(options: {
    repo: RepoRef;
    sha: string;
    paths: readonly string[];
  }): Promise<Map<string, PathObject>>;
  /**
   * Raw bytes of blobs, keyed by sha: batched (GraphQL `object(oid:)` aliases, hundreds per request),
   * falling back to `GET git/blobs/{sha}` for binary blobs and blobs over GraphQL's 512,000-byte text limit.
   */
  readBlobs(options: { repo: RepoRef; blobs: readonly BlobRef[] }): Promise<Map<string, Uint8Array>>;
  /** Paths changed between two commits (`GET compare/{base}...{head}`; a rename gives both paths). */
  compareFiles(options: { repo: RepoRef; base: string; head: string }): Promise<string[]>;
  /** Paths a single commit changes against its first parent (`GET commits/{sha}`). */
  listCommitFiles(options: { repo: RepoRef; sha: string }): Promise<string[]>;
  /**
   * Commits `changes` onto `branch` with parent `expectedHead`, as ONE compare-and-swap: the branch
   * moves only if it still points at `expectedHead` (GraphQL `createCommitOnBranch` with
   * `expectedHeadOid`). Otherwise nothing is written and the outcome is `superseded`. Files keep their
   * `mode` (see the adapter for how an executable file is committed without losing the swap).
   */
  commitFiles(options: {
    repo: RepoRef;
    branch: string;
    expectedHead: string;
    message: string;
    changes: FileChanges;
  }): Promise<CommitOutcome>;

  // ── Refs ─────────────────────────────────────────────────────────────────────────────────────────
  /** Branches whose name starts with `prefix` (`GET git/matching-refs/heads/<prefix>`), with their head. */
  listBranches(options: { repo: RepoRef; prefix: string }): Promise<{ name: string; sha: string }[]>;
  /** Creates `refs/heads/<branch>` at `sha` (`POST git/refs`); `exists` when it is there already (never moved). */
  createBranch(options: {
    repo: RepoRef;
    branch: string;
    sha: string;
  }): Promise<{ kind: "created" | "exists" }>;
  /** Deletes `refs/heads/<branch>` (`DELETE git/refs/heads/<branch>`); `false` when it was already gone. */
  deleteBranch(options: { repo: RepoRef; branch: string }): Promise<boolean>;
  /** Tags whose name starts with `prefix` (`GET git/matching-refs/tags/<prefix>`), with their object sha. */
  listTags(options: { repo: RepoRef; prefix: string }): Promise<{ name: string; sha: string }[]>;
  /** Every tag with the commit it points at, peeled (`GET tags`, paginated). */
  listTagCommits(options: { repo: RepoRef }): Promise<{ name: string; sha: string }[]>;
  /** Creates the lightweight tag `refs/tags/<name>` at commit `sha` (`POST git/refs`); never moves one. */
  createTag(options: { repo: RepoRef; name: string; sha: string }): Promise<TagOutcome>;
  /**
   * Deletes `refs/tags/<name>` (`DELETE git/refs/tags/<name>`); `false` when it was already gone. Only the
   * authoring CLI deletes a published revision, after keeping its commit reachable from another ref.
   */
  deleteTag?(options: { repo: RepoRef; name: string }): Promise<boolean>;

  // ── Checks ───────────────────────────────────────────────────────────────────────────────────────
  /**
   * Creates a check run (`POST check-runs`); returns its id and the open pull requests GitHub associates
   * with its head sha (the run's `pull_requests`).
   * Sent once (never retried by the client: GitHub may have made a run it did not answer for); a failure
   * is left to the job's retry, which looks at the sha's runs first.
   */
  createCheckRun(
    options: { repo: RepoRef; name: string; headSha: string } & CheckRunFields,
  ): Promise<{ id: number; pullRequests: PullRequestRef[] }>;
  /** Updates a check run (`PATCH check-runs/{id}`); annotations are appended by GitHub. */
  updateCheckRun(options: { repo: RepoRef; checkRunId: number } & CheckRunFields): Promise<void>;
  /** Check runs named `name` on `sha`, every attempt (`GET commits/{sha}/check-runs?filter=all`). */
  listCheckRuns(options: { repo: RepoRef; sha: string; name: string }): Promise<CheckRunSummary[]>;

  // ── Pull requests and comments ───────────────────────────────────────────────────────────────────
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
  updatePullRequest(options: {
    repo: RepoRef;
    number: number;
    title?: string;
    body?: string;
    state?: "open" | "closed";
  }): Promise<void>;
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
  /** Comments of an issue or pull request (`GET issues/{n}/comments`, paginated, oldest first). */
  listComments(options: { repo: RepoRef; issueNumber: number }): Promise<IssueComment[]>;
  /** Adds a comment (`POST issues/{n}/comments`); returns its id. */
  createComment(options: { repo: RepoRef; issueNumber: number; body: string }): Promise<number>;
  /** Replaces a comment's body (`PATCH issues/comments/{id}`). */
  updateComment(options: { repo: RepoRef; commentId: number; body: string }): Promise<void>;
  /** Plain issues (no pull requests) carrying `label`, open and closed, newest first (`GET issues`, paginated). */
  listIssues(options: { repo: RepoRef; label: string }): Promise<Issue[]>;
  /** Opens an issue (`POST issues`); returns its number. */
  createIssue(options: { repo: RepoRef; title: string; body: string; labels: string[] }): Promise<number>;
  /** Changes an issue's title, body or state (`PATCH issues/{n}`). */
  updateIssue(options: {
    repo: RepoRef;
    number: number;
    title?: string;
    body?: string;
    state?: "open" | "closed";
  }): Promise<void>;

  // ── Installation and administration ──────────────────────────────────────────────────────────────
  /** The app's installations (`GET /app/installations`, paginated; only on a port authenticated as the app). */
  listInstallations(): Promise<number[]>;
  /** Repositories the installation can access (`GET /installation/repositories`, paginated). */
  listInstallationRepositories(): Promise<RepoRef[]>;
  /** Repositories a user token can read (`GET /user/repos`, paginated): the CLI with a personal token. */
  listUserRepositories?(): Promise<RepoRef[]>;
  /**
   * Repositories of `owner` the caller can read: the installation's of that owner with an installation
   * token, else the organization's or the user's (`GET /orgs|users/{owner}/repos`).
   */
  listOwnerRepositories(options: { owner: string }): Promise<RepoRef[]>;
  /**
   * Creates the repository ruleset named `body.name`, or updates the one with that name (never stacks
   * duplicates): `GET rulesets`, then `POST rulesets` or `PUT rulesets/{id}`.
   */
  ensureRuleset(options: { repo: RepoRef; body: RulesetBody }): Promise<RulesetOutcome>;
}
