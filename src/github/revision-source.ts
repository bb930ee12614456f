/**
 * Reads what `porchlight rpkg get` lists from GitHub, through the port: the repository's default
 * branch and config file, its draft branches, pull requests, tags and the file paths on the default
 * branch. The pure derivation is `deriveRevisions` in `src/lifecycle/revision-list.ts`; the
 * CLI joins the two.
 *
 * Requests (paginated where GitHub paginates): `GET git/matching-refs/heads/<prefix>`, `GET tags`,
 * `GET pulls?state=all&base=<default>`, `GET git/ref/heads/<default>`, `GET git/trees/<sha>?recursive=1`.
 */
import { parse as parseYaml } from "yaml";
import type { GitHubPort, RepoRef } from "./port.js";

/**
 * A YAML file of the repository at `ref`, parsed: `null` when it does not exist. Throws an `Error`
 * starting with the path when the YAML does not parse; GitHubError on other failures.
 */
export async function readYamlFile(
  port: GitHubPort,
  options: { repo: RepoRef; path: string; ref: string },
): Promise<unknown> {
  const text = await port.readFile(options);
  if (text === undefined) return null;
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw new Error(
      `${options.path}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  }
}

/** The refs and pull requests revisions are derived from. */
export interface RevisionRefs {
  branches: { name: string; sha: string }[];
  tags: { name: string; sha: string }[];
  pullRequests: {
    number: number;
    headRef: string;
    headSha: string;
    baseRef: string;
    state: "open" | "closed";
    draft: boolean;
    merged: boolean;
  }[];
  /** Blob paths of the default branch's tree. */
  defaultBranchPaths: string[];
  /** Head commit of the default branch. */
  defaultBranchSha: string;
  /** Published revisions proposed for deletion: tag names with a `deletion-proposed/<tag>` branch. */
  deletionProposed: string[];
}

/** Branch prefix marking a Published revision proposed for deletion: `deletion-proposed/<pkg>/v<N>`. */
export const DELETION_PROPOSED_PREFIX = "deletion-proposed/";

/** Reads branches under `draftPrefix`, all tags, pull requests into the default branch and its tree. */
export async function readRevisionRefs(
  port: GitHubPort,
  options: { repo: RepoRef; defaultBranch: string; draftPrefix: string },
): Promise<RevisionRefs> {
  const { repo, defaultBranch, draftPrefix } = options;
  const branches = await port.listBranches({ repo, prefix: draftPrefix });
  const tags = await port.listTagCommits({ repo });
  const pulls = await port.listPullRequests({ repo, state: "all", base: defaultBranch });
  const head = await port.readBranchHead({ repo, branch: defaultBranch });
  if (!head) throw new Error(`the default branch ${defaultBranch} does not exist`);
  const tree = await port.readTree({ repo, sha: head });
  const proposals = await port.listBranches({ repo, prefix: DELETION_PROPOSED_PREFIX });
  return {
    deletionProposed: proposals.map((b) => b.name.slice(DELETION_PROPOSED_PREFIX.length)),
    branches,
    tags,
    pullRequests: pulls
      .filter((p) => p.headRef.startsWith(draftPrefix))
      .map((p): RevisionRefs["pullRequests"][number] => ({
        number: p.number,
        headRef: p.headRef,
        headSha: p.headSha,
        baseRef: p.baseRef,
        state: p.state,
        draft: p.draft,
        merged: p.merged,
      })),
    defaultBranchPaths: tree.entries.flatMap((e) => (e.type === "blob" ? [e.path] : [])),
    defaultBranchSha: head,
  };
}
