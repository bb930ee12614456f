/**
 * Reading a commit's whole tree (`GET git/trees/{sha}?recursive=1`) — and past GitHub's limit for one
 * recursive answer (100,000 entries or 7 MB, then `truncated: true`), as GitHub documents: the
 * truncated level is listed without `recursive` and each subtree read on its own, recursively, the same
 * way again where a subtree is itself too large. So a repository of any size is read whole, in about
 * one request per top-level directory once it is past the limit.
 */
import { GitHubError, type RepoRef, type RepoTree, type TreeEntry } from "../port.js";
import { type Octokit, parseJson, RAW_BODY } from "./client.js";
import { call } from "./errors.js";

interface RawTree {
  sha: string;
  truncated?: boolean;
  tree: { path?: string; mode?: string; type?: string; sha?: string; size?: number }[];
}

/** Subtree reads one truncated listing may fan out to at once. */
const PARALLEL = 8;

async function getTree(octokit: Octokit, repo: RepoRef, sha: string, recursive: boolean): Promise<RawTree> {
  return call("git.getTree", async () =>
    parseJson(
      (
        await octokit.rest.git.getTree({
          ...repo,
          tree_sha: sha,
          ...(recursive ? { recursive: "1" } : {}),
          request: RAW_BODY,
        })
      ).data,
    ),
  );
}

function entriesOf(data: RawTree, prefix: string): TreeEntry[] {
  const out: TreeEntry[] = [];
  for (const item of data.tree) {
    if (!item.path || !item.sha || !item.mode) continue;
    const type = item.type === "tree" || item.type === "commit" ? item.type : "blob";
    out.push({
      path: prefix + item.path,
      mode: item.mode,
      type,
      sha: item.sha,
      ...(item.size !== undefined ? { size: item.size } : {}),
    });
  }
  return out;
}

/** Every entry below tree (or commit) `sha`, paths prefixed with `prefix`. */
async function readWhole(
  octokit: Octokit,
  repo: RepoRef,
  sha: string,
  prefix: string,
): Promise<RawTree & { entries: TreeEntry[] }> {
  const data = await getTree(octokit, repo, sha, true);
  if (!data.truncated) return { ...data, entries: entriesOf(data, prefix) };
  const level = await getTree(octokit, repo, sha, false);
  if (level.truncated) {
    throw new GitHubError({
      kind: "rejected",
      operation: "git.getTree",
      message: `tree ${sha} has more entries in one directory than GitHub lists`,
    });
  }
  const entries = entriesOf(level, prefix);
  const subtrees = entries.filter((e) => e.type === "tree");
  for (let i = 0; i < subtrees.length; i += PARALLEL) {
    const batch = subtrees.slice(i, i + PARALLEL);
    const read = await Promise.all(batch.map((t) => readWhole(octokit, repo, t.sha, `${t.path}/`)));
    for (const r of read) entries.push(...r.entries);
  }
  return { ...level, entries };
}

/** The port's `readTree`: one recursive read, or the walk above when GitHub truncates it. */
export async function readTree(octokit: Octokit, repo: RepoRef, sha: string, prefix = ""): Promise<RepoTree> {
  const whole = await readWhole(octokit, repo, sha, prefix);
  return { treeSha: whole.sha, entries: whole.entries };
}
