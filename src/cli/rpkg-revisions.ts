/** The package revisions of one repository, as `porchlight rpkg get` lists them (shared by the rpkg verbs). */
import { CONFIG_PATH, parseRepoConfig } from "../config/load.js";
import type { RepoConfig } from "../config/schema.js";
import type { GitHubPort, RepoRef } from "../github/port.js";
import { readRevisionRefs, readYamlFile } from "../github/revision-source.js";
import { deriveRevisions, type PackageRevisionInfo, topLevelPackages } from "../lifecycle/revision-list.js";
import { normalizePrefix } from "../lifecycle/revision-naming.js";

/** What {@link listRepoRevisions} read and derived. */
export interface RepoRevisions {
  rows: PackageRevisionInfo[];
  refs: Awaited<ReturnType<typeof readRevisionRefs>>;
  defaultBranch: string;
  draftPrefix: string;
  config: RepoConfig;
}

/**
 * The package revisions of one repository, as `rpkg get` lists them (its `.github/porchlight.yml` on the
 * default branch decides prefix and directories). Throws the config's message or GitHub's errors.
 */
export async function listRepoRevisions(port: GitHubPort, repo: RepoRef): Promise<RepoRevisions> {
  const repository = await port.readRepository({ repo });
  const loaded = parseRepoConfig(
    await readYamlFile(port, { repo, path: CONFIG_PATH, ref: repository.defaultBranch }),
  );
  if (!loaded.ok) throw new Error(loaded.message);
  const draftPrefix = normalizePrefix(loaded.config.draftBranchPrefix);
  const refs = await readRevisionRefs(port, { repo, defaultBranch: repository.defaultBranch, draftPrefix });
  const rows = deriveRevisions({
    repository: repository.name,
    defaultBranch: repository.defaultBranch,
    branches: refs.branches,
    tags: refs.tags,
    pullRequests: refs.pullRequests,
    mainPackages: topLevelPackages(refs.defaultBranchPaths).map((path) => ({
      path,
      sha: refs.defaultBranchSha,
    })),
    draftPrefix,
    directories: loaded.config.directories,
    deletionProposed: refs.deletionProposed,
  });
  return { rows, refs, defaultBranch: repository.defaultBranch, draftPrefix, config: loaded.config };
}
