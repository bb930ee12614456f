/**
 * Porch's package revision list, derived from what a GitHub repository holds — the data behind
 * `porchlight rpkg get` (mirrors `porchctl rpkg get`). Pure: the GitHub reads live in
 * `src/github/revision-source.ts`.
 *
 * How each GitHub object maps to a PackageRevision (Porch git repository semantics):
 * - tag `<pkg>/v<N>`                    → Published, revision N; the highest N per package is latest;
 * - draft branch with an open, ready PR → Proposed, revision 0;
 * - draft branch otherwise              → Draft, revision 0 (no PR, a GitHub draft PR, or a closed one:
 *                                         Porch's reject returns a proposal to Draft);
 * - draft branch whose last PR was merged at the branch's current head → already published, not listed;
 * - package on the default branch       → Published, revision -1, workspace = the branch name
 *                                         (Porch's placeholder "main" revision).
 */
import {
  normalizeDirectory,
  packageInDirectory,
  packageName,
  parseDraftBranch,
  parseRevisionTag,
  revisionObjectName,
} from "./revision-naming.js";

/** Porch's lifecycle stages (`spec.lifecycle`). */
export type Lifecycle = "Draft" | "Proposed" | "Published" | "DeletionProposed";

/** A pull request as far as the lifecycle cares. */
export interface PullRequestInfo {
  number: number;
  /** Head branch name (no `refs/heads/`). */
  headRef: string;
  headSha: string;
  baseRef: string;
  state: "open" | "closed";
  /** GitHub draft pull request. */
  draft: boolean;
  merged: boolean;
}

/** Everything the list is derived from. */
export interface RevisionInputs {
  /** Repository name as shown in the REPOSITORY column (GitHub repository name). */
  repository: string;
  defaultBranch: string;
  /** Branches (at least the draft branches), short names. */
  branches: { name: string; sha: string }[];
  pullRequests: PullRequestInfo[];
  /** Tags, short names; `sha` is the tagged commit. */
  tags: { name: string; sha: string }[];
  /** Package paths (directories holding a top-level Kptfile) on the default branch. */
  mainPackages?: { path: string; sha: string }[];
  /** Draft branch prefix (`drafts/`). */
  draftPrefix: string;
  /** Directories that hold packages (`/` = whole repository). */
  directories: string[];
  /** Tags (`pkg/v2`) of Published revisions proposed for deletion: listed as DeletionProposed. */
  deletionProposed?: readonly string[];
}

/** One listed PackageRevision. */
export interface PackageRevisionInfo {
  /** Porch object name `<repository>.<package path with dots>.<workspace>`. */
  name: string;
  /** Full package path inside the git repository. */
  packagePath: string;
  /** Package name relative to its directory (Porch `spec.packageName`). */
  packageName: string;
  /** Directory of the repository the package belongs to, normalized (`""` = root). */
  directory: string;
  workspace: string;
  /** Porch `spec.revision`: N when published, 0 for Draft/Proposed, -1 for the default-branch placeholder. */
  revision: number;
  latest: boolean;
  lifecycle: Lifecycle;
  repository: string;
  /** Git ref holding it: `refs/tags/pkg/v1`, `refs/heads/drafts/pkg/ws`, `refs/heads/main`. */
  ref: string;
  /** Commit sha the ref points at. */
  sha: string;
  /** Open (or last) pull request of a Draft/Proposed revision. */
  pullRequest?: number;
}

/** The directory (longest match) a package path belongs to, or `undefined` when it is in none. */
export function directoryOf(packagePath: string, directories: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const raw of directories) {
    const dir = normalizeDirectory(raw);
    if (packageInDirectory(packagePath, dir) && (best === undefined || dir.length > best.length)) best = dir;
  }
  return best;
}

function draftLifecycle(
  branch: { name: string; sha: string },
  pulls: PullRequestInfo[],
): { lifecycle: Lifecycle; pullRequest?: number } | undefined {
  const mine = pulls.filter((p) => p.headRef === branch.name).sort((a, b) => b.number - a.number);
  const open = mine.find((p) => p.state === "open");
  if (open) return { lifecycle: open.draft ? "Draft" : "Proposed", pullRequest: open.number };
  const last = mine[0];
  if (last?.merged && last.headSha === branch.sha) return undefined;
  return last ? { lifecycle: "Draft", pullRequest: last.number } : { lifecycle: "Draft" };
}

/**
 * Makes every NAME unique within the repository (Porch's object names are): a Draft or Proposed revision
 * whose name a Published one already has (workspace `v2` beside revision 2, workspace `main` beside the
 * default branch's placeholder) is named `<name>.draft` (`.draft2`, ... if that is taken too).
 */
function uniqueNames(rows: PackageRevisionInfo[]): void {
  const published = (r: PackageRevisionInfo) => r.revision !== 0;
  const taken = new Set(rows.filter(published).map((r) => r.name));
  for (const row of rows) {
    if (published(row)) continue;
    if (taken.has(row.name)) {
      let n = 1;
      while (taken.has(`${row.name}.draft${n === 1 ? "" : n}`)) n += 1;
      row.name = `${row.name}.draft${n === 1 ? "" : n}`;
    }
    taken.add(row.name);
  }
}

/**
 * Derives the package revisions, sorted by package name, then revision (placeholder, published
 * ascending, then Draft/Proposed by workspace). Branches, tags and packages outside `directories` and
 * tags that are not integer revisions (`pkg/v2.0.0`, `v1`) are skipped.
 */
export function deriveRevisions(inputs: RevisionInputs): PackageRevisionInfo[] {
  const make = revisionMaker(inputs);
  const out = [...publishedRevisions(inputs, make), ...draftRevisions(inputs, make)];
  for (const pkg of inputs.mainPackages ?? []) {
    const info = make(pkg.path, {
      workspace: inputs.defaultBranch,
      revision: -1,
      lifecycle: "Published",
      ref: `refs/heads/${inputs.defaultBranch}`,
      sha: pkg.sha,
    });
    if (info) out.push(info);
  }
  uniqueNames(out);
  const rank = (r: number) => (r === 0 ? Number.MAX_SAFE_INTEGER : r);
  return out.sort(
    (a, b) =>
      a.packageName.localeCompare(b.packageName) ||
      a.packagePath.localeCompare(b.packagePath) ||
      rank(a.revision) - rank(b.revision) ||
      a.workspace.localeCompare(b.workspace),
  );
}

/** The fields of a revision that its ref gives (the rest follow from the package path). */
type RevisionFields = Omit<
  PackageRevisionInfo,
  "name" | "packagePath" | "packageName" | "directory" | "repository" | "latest"
>;
type RevisionMaker = (packagePath: string, fields: RevisionFields) => PackageRevisionInfo | undefined;

/** Builds a revision of a package path; undefined for a package outside `inputs.directories`. */
function revisionMaker(inputs: RevisionInputs): RevisionMaker {
  return (packagePath, fields) => {
    const directory = directoryOf(packagePath, inputs.directories);
    if (directory === undefined) return undefined;
    return {
      name: revisionObjectName({ repository: inputs.repository, packagePath, workspace: fields.workspace }),
      packagePath,
      packageName: packageName(packagePath, directory),
      directory,
      repository: inputs.repository,
      latest: false,
      ...fields,
    };
  };
}

/** The revisions of the integer revision tags (`<pkg>/v<N>`), the newest of each package marked latest. */
function publishedRevisions(inputs: RevisionInputs, make: RevisionMaker): PackageRevisionInfo[] {
  const out: PackageRevisionInfo[] = [];
  const latest = new Map<string, PackageRevisionInfo>();
  for (const tag of inputs.tags) {
    const parsed = parseRevisionTag(tag.name);
    if (!parsed) continue;
    const info = make(parsed.packagePath, {
      workspace: `v${parsed.revision}`,
      revision: parsed.revision,
      lifecycle: inputs.deletionProposed?.includes(tag.name) ? "DeletionProposed" : "Published",
      ref: `refs/tags/${tag.name}`,
      sha: tag.sha,
    });
    if (!info) continue;
    out.push(info);
    const best = latest.get(info.packagePath);
    if (!best || best.revision < info.revision) latest.set(info.packagePath, info);
  }
  for (const info of latest.values()) info.latest = true;
  return out;
}

/** The Draft and Proposed revisions of the draft branches (`drafts/<pkg>/<workspace>`). */
function draftRevisions(inputs: RevisionInputs, make: RevisionMaker): PackageRevisionInfo[] {
  const out: PackageRevisionInfo[] = [];
  for (const branch of inputs.branches) {
    const draft = parseDraftBranch(branch.name, { draftPrefix: inputs.draftPrefix });
    if (!draft) continue;
    const state = draftLifecycle(branch, inputs.pullRequests);
    if (!state) continue;
    const info = make(draft.packagePath, {
      workspace: draft.workspace,
      revision: 0,
      lifecycle: state.lifecycle,
      ref: `refs/heads/${branch.name}`,
      sha: branch.sha,
      ...(state.pullRequest === undefined ? {} : { pullRequest: state.pullRequest }),
    });
    if (info) out.push(info);
  }
  return out;
}

/**
 * Package directories in a tree listing: every directory holding a `Kptfile` that has no ancestor
 * holding one (nested Kptfiles are subpackages, rendered and published with their parent).
 * `paths` are repository-relative blob paths; the root package is `""` and is skipped (no name).
 */
export function topLevelPackages(paths: Iterable<string>): string[] {
  const dirs = new Set<string>();
  for (const path of paths) {
    if (path === "Kptfile") continue;
    if (path.endsWith("/Kptfile")) dirs.add(path.slice(0, -"/Kptfile".length));
  }
  return [...dirs]
    .filter((dir) => {
      const parts = dir.split("/");
      for (let i = 1; i < parts.length; i++) if (dirs.has(parts.slice(0, i).join("/"))) return false;
      return true;
    })
    .sort();
}
