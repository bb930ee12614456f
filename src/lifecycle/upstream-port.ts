/**
 * Reading packages through the GitHub port: a package's files at a commit, and the `UpstreamFetcher`
 * that `pkg update` / `pkg get` read published upstream revisions through.
 */
import type { GitHubPort, RepoRef, RepoTree } from "../github/port.js";
import type { FileTree } from "../pkg/files.js";
import type { FetchedPackage, UpstreamFetcher, UpstreamSpec } from "../pkg/update.js";
import type { UpstreamAccess } from "./upstream-consent.js";
import { packageOfDirectory, parseUpstreamUrl } from "./upstream-source.js";

/**
 * An upstream that is not read for this downstream: its URL is refused, or its repository cannot be
 * read or has not consented (the message says which, for the downstream's check).
 */
export class UpstreamBlockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UpstreamBlockedError";
  }
}

/** The port the upstream use-cases read and write drafts through: the one GitHub port. */
export type UpstreamPort = GitHubPort;

/** A package's files at a commit, and the git modes of executable files. */
export interface PackageFiles {
  files: FileTree;
  executables: Set<string>;
}

/**
 * The files below `dir` of `repo` at commit `sha` (symlinks and submodules skipped, as kpt skips
 * them), relative to `dir`.
 */
export async function readPackageFiles(options: {
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  dir: string;
  /** The tree at `sha`, when already read. */
  tree?: RepoTree;
}): Promise<PackageFiles> {
  const { port, repo, sha } = options;
  const dir = options.dir.replace(/^\/+|\/+$/g, "");
  const tree = options.tree ?? (await port.readTree({ repo, sha }));
  const entries = tree.entries.filter(
    (e) => e.type === "blob" && e.mode !== "120000" && (dir === "" || e.path.startsWith(`${dir}/`)),
  );
  const blobs = await port.readBlobs({ repo, blobs: entries.map((e) => ({ sha: e.sha, size: e.size })) });
  const files: FileTree = new Map();
  const executables = new Set<string>();
  for (const e of entries) {
    const rel = dir === "" ? e.path : e.path.slice(dir.length + 1);
    files.set(rel, Buffer.from(blobs.get(e.sha) ?? new Uint8Array()));
    if (e.mode === "100755") executables.add(rel);
  }
  return { files, executables };
}

/** The commit a tag points at, peeled (annotated tags included); undefined when there is no such tag. */
async function tagCommit(port: GitHubPort, repo: RepoRef, name: string): Promise<string | undefined> {
  const tags = await port.listTags({ repo, prefix: name });
  const tag = tags.find((t) => t.name === name);
  if (!tag) return undefined;
  try {
    await port.readTree({ repo, sha: tag.sha });
    return tag.sha;
  } catch {
    // An annotated tag object: peel it.
    return (await port.listTagCommits({ repo })).find((t) => t.name === name)?.sha;
  }
}

/**
 * `pkg update`'s upstream reads over the GitHub port: `spec.repo` is an upstream URL on `host`; a
 * ref resolves as kpt resolves it (the package's own tag `<directory>/<ref>` first, then `<ref>` as
 * a tag or branch, then a commit sha). Throws for upstreams not on the host, and
 * {@link UpstreamBlockedError} when `access` (the app's consent; absent for the CLI, which reads with
 * its user's own token) refuses the repository.
 */
export class GitHubUpstreamFetcher implements UpstreamFetcher {
  constructor(
    private readonly options: {
      port: GitHubPort;
      host: string;
      access?: (upstream: RepoRef) => Promise<UpstreamAccess>;
    },
  ) {}

  async fetch(spec: UpstreamSpec): Promise<FetchedPackage> {
    const { port, host } = this.options;
    const upstream = parseUpstreamUrl(spec.repo, host);
    if (!upstream) throw new Error(`upstream ${JSON.stringify(spec.repo)} is not a repository on ${host}`);
    const repo: RepoRef = { owner: upstream.owner, repo: upstream.name };
    const access = await this.options.access?.(repo);
    if (access && !access.allowed) throw new UpstreamBlockedError(access.reason);
    if (spec.directory.split("/").some((segment) => segment === ".." || segment === "."))
      throw new Error(`upstream directory ${JSON.stringify(spec.directory)} has dot segments`);
    const dir = packageOfDirectory(spec.directory);
    const candidates = dir === "" ? [spec.ref] : [`${dir}/${spec.ref}`, spec.ref];
    let ref = spec.ref;
    let commit: string | undefined;
    for (const candidate of candidates) {
      commit = await tagCommit(port, repo, candidate);
      if (commit) {
        ref = candidate;
        break;
      }
    }
    if (!commit) commit = await port.readBranchHead({ repo, branch: spec.ref });
    if (!commit && /^[0-9a-f]{40}$/.test(spec.ref)) commit = spec.ref;
    if (!commit) throw new Error(`unknown ref ${JSON.stringify(spec.ref)} in ${repo.owner}/${repo.repo}`);
    const { files } = await readPackageFiles({ port, repo, sha: commit, dir });
    // As kpt's git fetcher: a directory the upstream does not have is not a package to get.
    if (dir !== "" && files.size === 0)
      throw new Error(
        `path ${JSON.stringify(spec.directory)} does not exist in ${repo.owner}/${repo.repo} at ${ref}`,
      );
    return { files, ref, commit };
  }
}
