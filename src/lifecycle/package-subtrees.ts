/**
 * Reading only the packages a job judges, so the cost of a push does not grow with the repository:
 * the Kptfiles on the way down to each touched directory are looked up by path (one GraphQL request
 * for all of them: {@link GitHubPort.readPathObjects}), and each top-most package found is read as its
 * own subtree (`GET git/trees/<the directory's tree sha>?recursive=1`), never the repository's root.
 * Same packages as {@link judgedPackages} on the whole tree: the top-most directory holding a
 * `Kptfile` blob above (or at) each changed path's directory and the draft branch's package, within
 * the configured directories.
 */
import path from "node:path/posix";
import type { GitHubPort, RepoRef, RepoTree } from "../github/port.js";
import { directoryOf } from "./revision-list.js";
import { ancestorsTopDown, touchedDirs } from "./touched-packages.js";

/** What {@link readJudgedPackages} read: the judged package roots and their entries only. */
export interface JudgedTrees {
  /** Repository-relative package roots, sorted (`""` = the root package). */
  packagePaths: string[];
  /** The packages' entries (repository-relative paths); `treeSha` is empty: no root tree was read. */
  tree: RepoTree;
}

/** The top-most directory holding a Kptfile blob among `dir` and its ancestors. */
function topMost(dir: string, found: ReadonlyMap<string, { type: string }>): string | undefined {
  return ancestorsTopDown(dir).find((d) => found.get(path.join(d, "Kptfile"))?.type === "blob");
}

/**
 * The packages commit `sha` changes (see the module comment), read subtree by subtree. Throws
 * GitHubError when GitHub fails.
 */
export async function readJudgedPackages(options: {
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  directories: readonly string[];
}): Promise<JudgedTrees> {
  const { port, repo, sha } = options;
  const dirs = touchedDirs(options.changedPaths, options.branchPackage);
  const ancestors = [...new Set(dirs.flatMap(ancestorsTopDown))];
  const found = await port.readPathObjects({
    repo,
    sha,
    paths: ancestors.flatMap((d) => (d ? [path.join(d, "Kptfile"), d] : ["Kptfile"])),
  });
  const packagePaths = [
    ...new Set(dirs.map((d) => topMost(d, found)).filter((p): p is string => p !== undefined)),
  ]
    .filter((p) => directoryOf(p, options.directories) !== undefined)
    .sort();
  const subtrees = await Promise.all(
    packagePaths.map((p) => {
      const tree = p ? found.get(p) : undefined;
      return p && tree?.type === "tree"
        ? port.readTree({ repo, sha: tree.sha, prefix: `${p}/` })
        : port.readTree({ repo, sha });
    }),
  );
  return { packagePaths, tree: { treeSha: "", entries: subtrees.flatMap((t) => t.entries) } };
}
