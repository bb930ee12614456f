/** Git content (trees, blobs, diffs, the compare-and-swap commit) and refs (branches, tags). */
import type { RepoRef } from "./repository.js";

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
 * Result of {@link GitContentOperations.commitFiles}: `superseded` = the branch no longer pointed at the
 * expected head (a push, force-push, rewind or deletion happened meanwhile): nothing was written.
 */
export type CommitOutcome = { kind: "committed"; sha: string } | { kind: "superseded"; message: string };

/** Result of creating a tag: GitHub refuses to create an existing ref, and we never force one. */
export type TagOutcome = { kind: "created" } | { kind: "exists" };

/** The port's Git content: trees, path objects, blobs, changed paths, and the one commit write. */
export interface GitContentOperations {
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
}

/** The port's refs: branch heads, branches and tags (Git Data API `git/refs`, `git/matching-refs`). */
export interface RefOperations {
  /** The sha `refs/heads/<branch>` points at (`GET git/ref/heads/<branch>`); `undefined` when absent. */
  readBranchHead(options: { repo: RepoRef; branch: string }): Promise<string | undefined>;
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
}
