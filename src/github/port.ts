/**
 * The GitHub port: every GitHub operation the lifecycle use-cases need, one method per REST call,
 * in GitHub's own words (Git Data API, Checks API). Use-cases depend on this interface only; the
 * Octokit implementation lives in `./octokit-port.ts` and is the only code that talks to Octokit.
 *
 * Errors: implementations throw {@link GitHubError} — `kind: "unavailable"` when GitHub failed
 * (5xx, network, rate limit: retrying later may help), `kind: "rejected"` when GitHub refused the
 * request (other 4xx: most likely a bug on our side). Expected outcomes that are not failures (a
 * non-fast-forward ref update) are typed results instead of errors.
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
  /** Sha of the root tree object (usable as `base_tree`). */
  treeSha: string;
  entries: TreeEntry[];
}

/**
 * One entry of a new tree (GitHub `POST /repos/{owner}/{repo}/git/trees`, relative to a base tree):
 * a file with inline UTF-8 content, a file pointing at an existing blob, or a deletion.
 */
export type TreeChange =
  | { path: string; mode: "100644" | "100755"; content: string }
  | { path: string; mode: "100644" | "100755" | "120000"; blobSha: string }
  | { path: string; delete: true };

/** Result of a non-force branch update: `superseded` = the branch moved on (422 "not a fast forward"). */
export type RefUpdateOutcome = { kind: "updated"; sha: string } | { kind: "superseded"; message: string };

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
  /** Our own correlation id, e.g. the rendered-from sha. */
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

/** Thrown by port implementations. `status` is the HTTP status when GitHub answered. */
export class GitHubError extends Error {
  readonly kind: "unavailable" | "rejected";
  readonly status: number | undefined;
  readonly operation: string;
  constructor(options: {
    kind: "unavailable" | "rejected";
    status?: number;
    operation: string;
    message: string;
  }) {
    super(`${options.operation}: ${options.message}`);
    this.name = "GitHubError";
    this.kind = options.kind;
    this.status = options.status;
    this.operation = options.operation;
  }
}

/**
 * Everything the lifecycle asks of GitHub. Extend with one method per new operation (tags, pull
 * requests, comments) rather than widening existing ones.
 */
export interface GitHubPort {
  /** One recursive tree read at a commit sha (Git Data API). Throws when GitHub truncates the tree. */
  readTree(options: { repo: RepoRef; sha: string }): Promise<RepoTree>;
  /** Raw bytes of one blob (`GET git/blobs/{sha}`, base64-decoded). */
  readBlob(options: { repo: RepoRef; sha: string }): Promise<Uint8Array>;
  /** Creates a blob from bytes (`POST git/blobs`, base64); for content that is not valid UTF-8. */
  createBlob(options: { repo: RepoRef; content: Uint8Array }): Promise<string>;
  /** Creates a tree from `baseTreeSha` plus changes (`POST git/trees`); returns the new tree sha. */
  createTree(options: { repo: RepoRef; baseTreeSha: string; changes: TreeChange[] }): Promise<string>;
  /** Creates a commit object (`POST git/commits`); returns its sha. */
  createCommit(options: {
    repo: RepoRef;
    message: string;
    treeSha: string;
    parents: string[];
  }): Promise<string>;
  /** Moves `refs/heads/<branch>` to `sha` WITHOUT force (`PATCH git/refs/heads/<branch>`, `force: false`). */
  updateBranch(options: { repo: RepoRef; branch: string; sha: string }): Promise<RefUpdateOutcome>;
  /**
   * The sha `refs/heads/<branch>` points at now (`GET git/ref/heads/<branch>`); `undefined` when the
   * branch does not exist (404). Optional: without it, queued pushes are rendered without the check.
   */
  readBranchHead?(options: { repo: RepoRef; branch: string }): Promise<string | undefined>;
  /** Creates a check run (`POST check-runs`); returns its id. */
  createCheckRun(
    options: { repo: RepoRef; name: string; headSha: string } & CheckRunFields,
  ): Promise<{ id: number }>;
  /** Updates a check run (`PATCH check-runs/{id}`); annotations are appended by GitHub. */
  updateCheckRun(options: { repo: RepoRef; checkRunId: number } & CheckRunFields): Promise<void>;
}
