/**
 * Objects by path at one commit: GraphQL `object(expression: "<sha>:<path>")` aliases (a `git rev-parse`
 * revision expression, as GitHub documents the field), hundreds per request. What lets a job find a
 * package's Kptfile and subtree by path instead of listing the whole repository.
 */
import { GitHubError, type PathObject, type RepoRef } from "../port.js";
import { type Octokit, repositoryFields } from "./client.js";

/** Paths per GraphQL request. */
const PATHS_PER_REQUEST = 300;

const SHA = /^[0-9a-f]{40}$/;

interface PathNode {
  __typename?: string;
  oid?: string;
}

const KINDS: Record<string, PathObject["type"]> = { Blob: "blob", Tree: "tree", Commit: "commit" };

async function readBatch(
  octokit: Octokit,
  repo: RepoRef,
  sha: string,
  paths: readonly string[],
): Promise<Map<string, PathObject>> {
  const fields = paths.map(
    (p, i) => `p${i}: object(expression: ${JSON.stringify(`${sha}:${p}`)}) { __typename oid }`,
  );
  const nodes = await repositoryFields<PathNode>(
    octokit,
    repo,
    "graphql.paths",
    "query porchlightPaths",
    fields,
  );
  const out = new Map<string, PathObject>();
  paths.forEach((p, i) => {
    const node = nodes[`p${i}`];
    const type = node?.__typename ? KINDS[node.__typename] : undefined;
    if (node?.oid && type) out.set(p, { type, sha: node.oid });
  });
  return out;
}

/** The port's `readPathObjects`; see the module comment. Throws GitHubError. */
export async function readPathObjects(
  octokit: Octokit,
  repo: RepoRef,
  sha: string,
  paths: readonly string[],
): Promise<Map<string, PathObject>> {
  if (!SHA.test(sha))
    throw new GitHubError({
      kind: "rejected",
      operation: "graphql.paths",
      message: `not a commit sha: ${sha}`,
    });
  const unique = [...new Set(paths)].filter((p) => p !== "");
  const out = new Map<string, PathObject>();
  for (let i = 0; i < unique.length; i += PATHS_PER_REQUEST) {
    const read = await readBatch(octokit, repo, sha, unique.slice(i, i + PATHS_PER_REQUEST));
    for (const [p, object] of read) out.set(p, object);
  }
  return out;
}
