/**
 * Git content and refs over the REST API: recursive trees, diffs, branches and tags. Blob reads are in
 * ./blobs.ts, commits in ./commit.ts.
 */
import type { GitHubPort, TagOutcome } from "../port.js";
import { readBlobs } from "./blobs.js";
import { type Octokit, parseJson, RAW_BODY } from "./client.js";
import { commitFiles } from "./commit.js";
import { call, callOrAbsent, toGitHubError } from "./errors.js";
import { readPathObjects } from "./paths.js";
import { readTree } from "./tree.js";

function changedPaths(files: { filename: string; previous_filename?: string | undefined }[]): string[] {
  const paths = new Set<string>();
  for (const f of files) {
    paths.add(f.filename);
    if (f.previous_filename) paths.add(f.previous_filename);
  }
  return [...paths].sort();
}

/** The git methods of the port. */
export function gitOperations(
  octokit: Octokit,
  reads: Octokit = octokit,
): Pick<
  GitHubPort,
  | "readTree"
  | "readPathObjects"
  | "readBlobs"
  | "readBranchHead"
  | "compareFiles"
  | "listCommitFiles"
  | "commitFiles"
  | "listBranches"
  | "createBranch"
  | "deleteBranch"
  | "listTags"
  | "listTagCommits"
  | "createTag"
  | "deleteTag"
> {
  return {
    readTree: ({ repo, sha, prefix }) => readTree(octokit, repo, sha, prefix),

    readPathObjects: ({ repo, sha, paths }) => readPathObjects(reads, repo, sha, paths),

    readBlobs: ({ repo, blobs }) => readBlobs({ graphql: reads, rest: octokit }, repo, blobs),

    async readBranchHead({ repo, branch }) {
      return callOrAbsent(
        "git.getRef",
        async () => (await octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` })).data.object.sha,
      );
    },

    async compareFiles({ repo, base, head }) {
      // The answer carries every file's patch: parsed natively (see RAW_BODY).
      const data = await call("repos.compareCommitsWithBasehead", async () =>
        parseJson(
          (
            await octokit.rest.repos.compareCommitsWithBasehead({
              ...repo,
              basehead: `${base}...${head}`,
              per_page: 100,
              request: RAW_BODY,
            })
          ).data,
        ),
      );
      return changedPaths(data.files ?? []);
    },

    async listCommitFiles({ repo, sha }) {
      const data = await call("repos.getCommit", async () =>
        parseJson(
          (await octokit.rest.repos.getCommit({ ...repo, ref: sha, per_page: 100, request: RAW_BODY })).data,
        ),
      );
      return changedPaths(data.files ?? []);
    },

    commitFiles: (options) => commitFiles(octokit, options),

    async listBranches({ repo, prefix }) {
      const refs = await call("git.listMatchingRefs", () =>
        octokit.paginate(octokit.rest.git.listMatchingRefs, { ...repo, ref: `heads/${prefix}` }),
      );
      return refs.map((r) => ({ name: r.ref.replace(/^refs\/heads\//, ""), sha: r.object.sha }));
    },

    async createBranch({ repo, branch, sha }) {
      try {
        await octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha });
        return { kind: "created" };
      } catch (error) {
        const e = toGitHubError("git.createRef", error);
        if (e.status === 422 && /already exists/i.test(e.message)) return { kind: "exists" };
        throw e;
      }
    },

    async deleteBranch({ repo, branch }) {
      try {
        await octokit.rest.git.deleteRef({ ...repo, ref: `heads/${branch}` });
        return true;
      } catch (error) {
        const e = toGitHubError("git.deleteRef", error);
        if (e.status === 422 || e.status === 404) return false;
        throw e;
      }
    },

    async deleteTag({ repo, name }) {
      try {
        await octokit.rest.git.deleteRef({ ...repo, ref: `tags/${name}` });
        return true;
      } catch (error) {
        const e = toGitHubError("git.deleteRef", error);
        if (e.status === 422 || e.status === 404) return false;
        throw e;
      }
    },

    async listTags({ repo, prefix }) {
      const refs = await call("git.listMatchingRefs", () =>
        octokit.paginate(octokit.rest.git.listMatchingRefs, { ...repo, ref: `tags/${prefix}` }),
      );
      return refs.map((r) => ({ name: r.ref.replace(/^refs\/tags\//, ""), sha: r.object.sha }));
    },

    async listTagCommits({ repo }) {
      const tags = await call("repos.listTags", () =>
        octokit.paginate(octokit.rest.repos.listTags, { ...repo, per_page: 100 }),
      );
      return tags.map((t) => ({ name: t.name, sha: t.commit.sha }));
    },

    async createTag({ repo, name, sha }): Promise<TagOutcome> {
      try {
        await octokit.rest.git.createRef({ ...repo, ref: `refs/tags/${name}`, sha });
        return { kind: "created" };
      } catch (error) {
        const e = toGitHubError("git.createRef", error);
        if (e.status === 422 && /already exists/i.test(e.message)) return { kind: "exists" };
        throw e;
      }
    },
  };
}
