/**
 * Reads what `porchlight rpkg get` lists from GitHub: the repository's default branch and config file,
 * its draft branches, pull requests, tags and the file paths on the default branch. The pure
 * derivation is `deriveRevisions` in `src/lifecycle/revision-list.ts`; the CLI joins the two.
 *
 * Requests (paginated where GitHub paginates): `GET /repos/{o}/{r}`,
 * `GET contents/.github/porchlight.yml?ref=<default>`, `GET git/matching-refs/heads/<prefix>`,
 * `GET tags`, `GET pulls?state=all&base=<default>`, `GET git/trees/<default>?recursive=1`,
 * `GET branches/<default>`.
 */
import { parse as parseYaml } from "yaml";
import { httpStatus, type RestClient } from "./rest-client.js";

type Repo = { owner: string; repo: string };

/** The repository's name and default branch (`GET /repos/{owner}/{repo}`). */
export async function readRepository(
  octokit: RestClient,
  repo: Repo,
): Promise<{ name: string; defaultBranch: string }> {
  const { data } = await octokit.rest.repos.get(repo);
  return { name: data.name, defaultBranch: data.default_branch };
}

/**
 * A YAML file of the repository at `ref`, parsed: `null` when it does not exist. Throws an `Error`
 * starting with the path when the YAML does not parse; Octokit's error on other HTTP failures.
 */
export async function readYamlFile(
  octokit: RestClient,
  options: Repo & { path: string; ref: string },
): Promise<unknown> {
  const { path, ref, ...repo } = options;
  let text: string;
  try {
    const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return null;
    text = Buffer.from(data.content, "base64").toString("utf8");
  } catch (error) {
    if (httpStatus(error) === 404) return null;
    throw error;
  }
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw new Error(`${path}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
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
}

/** Reads branches under `draftPrefix`, all tags, pull requests into the default branch and its tree. */
export async function readRevisionRefs(
  octokit: RestClient,
  options: Repo & { defaultBranch: string; draftPrefix: string },
): Promise<RevisionRefs> {
  const { defaultBranch, draftPrefix, ...repo } = options;
  const refs = await octokit.paginate(octokit.rest.git.listMatchingRefs, {
    ...repo,
    ref: `heads/${draftPrefix}`,
  });
  const tagList = await octokit.paginate(octokit.rest.repos.listTags, { ...repo, per_page: 100 });
  const pulls = await octokit.paginate(octokit.rest.pulls.list, {
    ...repo,
    state: "all",
    base: defaultBranch,
    per_page: 100,
  });
  const { data: branch } = await octokit.rest.repos.getBranch({ ...repo, branch: defaultBranch });
  const { data: tree } = await octokit.rest.git.getTree({
    ...repo,
    tree_sha: branch.commit.sha,
    recursive: "1",
  });
  return {
    branches: refs.map((r) => ({ name: r.ref.replace(/^refs\/heads\//, ""), sha: r.object.sha })),
    tags: tagList.map((t) => ({ name: t.name, sha: t.commit.sha })),
    pullRequests: pulls
      .filter((p) => p.head.ref.startsWith(draftPrefix))
      .map((p): RevisionRefs["pullRequests"][number] => ({
        number: p.number,
        headRef: p.head.ref,
        headSha: p.head.sha,
        baseRef: p.base.ref,
        state: p.state === "open" ? "open" : "closed",
        draft: p.draft === true,
        merged: Boolean(p.merged_at),
      })),
    defaultBranchPaths: tree.tree.flatMap((e) => (e.type === "blob" && e.path ? [e.path] : [])),
    defaultBranchSha: branch.commit.sha,
  };
}
