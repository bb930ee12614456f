/**
 * Committing files onto an expected head, as one compare-and-swap.
 *
 * The usual way is ONE request: GraphQL `createCommitOnBranch` with `expectedHeadOid` — GitHub writes
 * the commit and moves the branch only if it still points at that sha; otherwise it answers
 * `STALE_DATA` (a deleted branch: `NOT_FOUND`) and writes nothing. A non-force REST ref update is not
 * enough: it only checks fast-forward, so it would undo a user's rewind of the branch to an ancestor.
 *
 * `createCommitOnBranch` writes files as mode 100644. When a file the commit writes is executable
 * (100755), the commit is built with the Git Data API instead (blobs for non-UTF-8 content, a tree that
 * keeps the mode, a commit whose parent is the expected head) and the branch is moved with GraphQL
 * `updateRefs`, whose `beforeOid` is the same compare-and-swap. GitHub reports a failed `beforeOid`
 * with a generic error, so the branch is then re-read: moved → `superseded`, else the error is thrown.
 */
import type { CommitOutcome, FileChanges, RepoRef } from "../port.js";
import { GitHubError } from "../port.js";
import { type GraphqlError, graphql, type Octokit } from "./client.js";
import { call, callOrAbsent } from "./errors.js";

/** Options of {@link commitFiles}. */
export interface CommitFilesOptions {
  repo: RepoRef;
  branch: string;
  expectedHead: string;
  message: string;
  changes: FileChanges;
}

const CREATE_COMMIT = `mutation porchlightCommit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;

const UPDATE_REFS = `mutation porchlightUpdateRefs($input: UpdateRefsInput!) {
  updateRefs(input: $input) { clientMutationId }
}`;

/** `subject\n\nbody` → GitHub's `{headline, body}` (the headline is the first line). */
export function splitMessage(message: string): { headline: string; body: string } {
  const [headline = "", ...rest] = message.split("\n");
  return { headline, body: rest.join("\n").replace(/^\n+/, "").replace(/\n+$/, "") };
}

function staleOrGone(errors: GraphqlError[]): GraphqlError | undefined {
  return errors.find((e) => e.type === "STALE_DATA" || e.type === "NOT_FOUND");
}

async function viaCreateCommitOnBranch(
  octokit: Octokit,
  options: CommitFilesOptions,
): Promise<CommitOutcome> {
  const { repo, changes } = options;
  const input = {
    branch: { repositoryNameWithOwner: `${repo.owner}/${repo.repo}`, branchName: options.branch },
    expectedHeadOid: options.expectedHead,
    message: splitMessage(options.message),
    fileChanges: {
      additions: changes.additions.map((a) => ({
        path: a.path,
        contents: Buffer.from(a.content).toString("base64"),
      })),
      deletions: changes.deletions.map((path) => ({ path })),
    },
  };
  const answer = await graphql<{ createCommitOnBranch: { commit: { oid: string } } | null }>(
    octokit,
    "graphql.createCommitOnBranch",
    CREATE_COMMIT,
    { input },
  );
  const oid = answer.data?.createCommitOnBranch?.commit?.oid;
  if (oid) return { kind: "committed", sha: oid };
  const stale = staleOrGone(answer.errors);
  if (stale) return { kind: "superseded", message: stale.message };
  throw new GitHubError({
    kind: answer.errors.length > 0 ? "rejected" : "unavailable",
    operation: "graphql.createCommitOnBranch",
    message: answer.errors.map((e) => e.message).join("; ") || "no commit in the answer",
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** One `POST git/trees` entry: inline text, an existing blob, or a deletion (`sha: null`). */
type TreeItem =
  | { path: string; mode: "100644" | "100755"; type: "blob"; content: string }
  | { path: string; mode: "100644" | "100755"; type: "blob"; sha: string | null };

/** The tree items of `changes`: UTF-8 text inline, other bytes as blobs (`POST git/blobs`), deletions. */
async function treeItems(octokit: Octokit, repo: RepoRef, changes: FileChanges): Promise<TreeItem[]> {
  const tree: TreeItem[] = [];
  for (const a of changes.additions) {
    let text: string | undefined;
    try {
      text = utf8.decode(a.content);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      tree.push({ path: a.path, mode: a.mode, type: "blob" as const, content: text });
    } else {
      const { data: blob } = await call("git.createBlob", () =>
        octokit.rest.git.createBlob({
          ...repo,
          content: Buffer.from(a.content).toString("base64"),
          encoding: "base64",
        }),
      );
      tree.push({ path: a.path, mode: a.mode, type: "blob" as const, sha: blob.sha });
    }
  }
  for (const path of changes.deletions)
    tree.push({ path, mode: "100644" as const, type: "blob" as const, sha: null });
  return tree;
}

/**
 * Moves `branch` from the expected head to `commitSha` with GraphQL `updateRefs` (`beforeOid`: the
 * compare-and-swap). On an error the branch is re-read: moved → `superseded`, else the error is thrown.
 */
async function moveBranch(
  octokit: Octokit,
  options: CommitFilesOptions,
  commitSha: string,
): Promise<CommitOutcome> {
  const { repo } = options;
  const { data: repository } = await call("repos.get", () =>
    octokit.rest.repos.get({ owner: repo.owner, repo: repo.repo }),
  );
  const answer = await graphql<{ updateRefs: unknown }>(octokit, "graphql.updateRefs", UPDATE_REFS, {
    input: {
      repositoryId: repository.node_id,
      refUpdates: [
        { name: `refs/heads/${options.branch}`, beforeOid: options.expectedHead, afterOid: commitSha },
      ],
    },
  });
  if (answer.errors.length === 0) return { kind: "committed", sha: commitSha };
  const head = await callOrAbsent(
    "git.getRef",
    async () => (await octokit.rest.git.getRef({ ...repo, ref: `heads/${options.branch}` })).data.object.sha,
  );
  if (head !== options.expectedHead)
    return { kind: "superseded", message: `${options.branch} moved to ${head ?? "(deleted)"}` };
  throw new GitHubError({
    kind: "rejected",
    operation: "graphql.updateRefs",
    message: answer.errors.map((e) => e.message).join("; "),
  });
}

/** The Git Data API way: a tree that keeps each file's mode, a commit on the expected head, the ref moved. */
async function viaGitData(octokit: Octokit, options: CommitFilesOptions): Promise<CommitOutcome> {
  const { repo, changes } = options;
  const { data: parent } = await call("git.getCommit", () =>
    octokit.rest.git.getCommit({ ...repo, commit_sha: options.expectedHead }),
  );
  const tree = await treeItems(octokit, repo, changes);
  const { data: newTree } = await call("git.createTree", () =>
    octokit.rest.git.createTree({ ...repo, base_tree: parent.tree.sha, tree }),
  );
  const { data: commit } = await call("git.createCommit", () =>
    octokit.rest.git.createCommit({
      ...repo,
      message: options.message,
      tree: newTree.sha,
      parents: [options.expectedHead],
    }),
  );
  return moveBranch(octokit, options, commit.sha);
}

/** Commits `changes` onto `branch` if and only if it still points at `expectedHead`. */
export async function commitFiles(octokit: Octokit, options: CommitFilesOptions): Promise<CommitOutcome> {
  const keepsMode = options.changes.additions.some((a) => a.mode !== "100644");
  return keepsMode ? viaGitData(octokit, options) : viaCreateCommitOnBranch(octokit, options);
}
