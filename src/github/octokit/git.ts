/**
 * Git content over the REST API: recursive trees, path objects, blobs, diffs and the commit write.
 * Blob reads are in ./blobs.ts, commits in ./commit.ts, refs in ./refs.ts.
 */
import type { GitContentOperations } from "../port.js";
import { readBlobs } from "./blobs.js";
import { type Octokit, parseJson, RAW_BODY } from "./client.js";
import { commitFiles } from "./commit.js";
import { call } from "./errors.js";
import { readPathObjects } from "./paths.js";
import { readTree } from "./tree.js";

/** The paths of a diff's files, sorted and deduplicated; a rename gives both its paths. */
export function changedPaths(
  files: readonly { filename: string; previous_filename?: string | undefined }[],
): string[] {
  const paths = new Set<string>();
  for (const f of files) {
    paths.add(f.filename);
    if (f.previous_filename) paths.add(f.previous_filename);
  }
  return [...paths].sort();
}

/** The Git content methods of the port; `reads` makes the GraphQL reads (path objects, blob batches). */
export function gitOperations(octokit: Octokit, reads: Octokit = octokit): GitContentOperations {
  return {
    readTree: ({ repo, sha, prefix }) => readTree(octokit, repo, sha, prefix),

    readPathObjects: ({ repo, sha, paths }) => readPathObjects(reads, repo, sha, paths),

    readBlobs: ({ repo, blobs }) => readBlobs({ graphql: reads, rest: octokit }, repo, blobs),

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
  };
}
