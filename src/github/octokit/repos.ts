/** Repository reads: the snapshot a job starts from (./snapshot.ts), repository metadata, one file. */
import type { RepositoryOperations } from "../port.js";
import type { Octokit } from "./client.js";
import { call, callOrAbsent } from "./errors.js";
import { readSnapshot } from "./snapshot.js";

/** The repository methods of the port; `reads` makes the snapshot's GraphQL request. */
export function repoOperations(octokit: Octokit, reads: Octokit = octokit): RepositoryOperations {
  return {
    readSnapshot: (options) => readSnapshot(reads, options),

    async readRepository({ repo }) {
      const { data } = await call("repos.get", () =>
        octokit.rest.repos.get({ owner: repo.owner, repo: repo.repo }),
      );
      const visibility =
        data.visibility === "public" || data.visibility === "internal" || data.visibility === "private"
          ? data.visibility
          : data.private
            ? "private"
            : "public";
      return { name: data.name, defaultBranch: data.default_branch, visibility };
    },

    async readFile({ repo, path, ref }) {
      const data = await callOrAbsent("repos.getContent", async () => {
        const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref });
        return data;
      });
      if (!data || Array.isArray(data) || data.type !== "file" || !("content" in data)) return undefined;
      return Buffer.from(data.content, "base64").toString("utf8");
    },
  };
}
