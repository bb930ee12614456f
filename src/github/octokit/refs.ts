/** Refs over the Git Data API: branch heads, branches and tags (`git/refs`, `git/matching-refs`). */
import type { RefOperations, RepoRef, TagOutcome } from "../port.js";
import type { Octokit } from "./client.js";
import { call, callOrAbsent, toGitHubError } from "./errors.js";

/** `POST git/refs` (`ref` is `refs/heads/…` or `refs/tags/…`); `exists` when GitHub says it is there. */
async function createRef(octokit: Octokit, repo: RepoRef, ref: string, sha: string): Promise<TagOutcome> {
  try {
    await octokit.rest.git.createRef({ ...repo, ref, sha });
    return { kind: "created" };
  } catch (error) {
    const e = toGitHubError("git.createRef", error);
    if (e.status === 422 && /already exists/i.test(e.message)) return { kind: "exists" };
    throw e;
  }
}

/** `DELETE git/refs/{ref}` (`ref` is `heads/…` or `tags/…`); `false` when it was already gone. */
async function deleteRef(octokit: Octokit, repo: RepoRef, ref: string): Promise<boolean> {
  try {
    await octokit.rest.git.deleteRef({ ...repo, ref });
    return true;
  } catch (error) {
    const e = toGitHubError("git.deleteRef", error);
    if (e.status === 422 || e.status === 404) return false;
    throw e;
  }
}

/** `GET git/matching-refs/{namespace}/{prefix}`, paginated: names without `refs/{namespace}/`. */
async function listRefs(
  octokit: Octokit,
  repo: RepoRef,
  namespace: "heads" | "tags",
  prefix: string,
): Promise<{ name: string; sha: string }[]> {
  const refs = await call("git.listMatchingRefs", () =>
    octokit.paginate(octokit.rest.git.listMatchingRefs, { ...repo, ref: `${namespace}/${prefix}` }),
  );
  const full = `refs/${namespace}/`;
  return refs.map((r) => ({
    name: r.ref.startsWith(full) ? r.ref.slice(full.length) : r.ref,
    sha: r.object.sha,
  }));
}

/** The ref methods of the port. */
export function refOperations(octokit: Octokit): RefOperations {
  return {
    async readBranchHead({ repo, branch }) {
      return callOrAbsent(
        "git.getRef",
        async () => (await octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` })).data.object.sha,
      );
    },

    listBranches: ({ repo, prefix }) => listRefs(octokit, repo, "heads", prefix),

    createBranch: ({ repo, branch, sha }) => createRef(octokit, repo, `refs/heads/${branch}`, sha),

    deleteBranch: ({ repo, branch }) => deleteRef(octokit, repo, `heads/${branch}`),

    listTags: ({ repo, prefix }) => listRefs(octokit, repo, "tags", prefix),

    async listTagCommits({ repo }) {
      const tags = await call("repos.listTags", () =>
        octokit.paginate(octokit.rest.repos.listTags, { ...repo, per_page: 100 }),
      );
      return tags.map((t) => ({ name: t.name, sha: t.commit.sha }));
    },

    createTag: ({ repo, name, sha }) => createRef(octokit, repo, `refs/tags/${name}`, sha),

    deleteTag: ({ repo, name }) => deleteRef(octokit, repo, `tags/${name}`),
  };
}
