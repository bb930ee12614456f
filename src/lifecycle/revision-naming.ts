/**
 * Package revision naming, the one place that knows how Porch lays a package's lifecycle out in git
 * (nephio-project/porch, `pkg/externalrepo/git`):
 *
 * - a Draft lives on branch `drafts/<package-path>/<workspace>`; the package path may hold slashes, the
 *   last segment is the workspace name;
 * - a Published revision is a tag `<package-path>/v<N>` on the commit that holds it;
 * - revision numbers are integers: the next one is the highest published integer revision + 1 (Porch's
 *   `NextRevisionNumber` only understands `v<N>`; tags like `pkg/v2.0.0` are ignored for numbering);
 * - "latest" is the highest published integer revision;
 * - packages live under the repository's `directory` (Porch's `Repository.spec.git.directory`): branch
 *   and tag names carry the full path inside the git repository, the PackageRevision's package name is
 *   the path relative to that directory.
 *
 * Pure: strings in, values out. Nothing here throws except the `format*` functions on invalid input.
 */

/** Default branch prefix of Draft revisions, as Porch names them. */
export const DEFAULT_DRAFT_PREFIX = "drafts/";

/** Options shared by the naming functions. */
export interface NamingOptions {
  /** Branch prefix of Draft revisions; default `drafts/` (a missing trailing `/` is added). */
  draftPrefix?: string;
  /**
   * Directory of the git repository that holds packages (Porch's `Repository.spec.git.directory`):
   * `""` or `/` = the whole repository. Branches and tags of packages outside it are not ours.
   */
  directory?: string;
}

/** A Draft revision named by its branch: `drafts/<packagePath>/<workspace>`. */
export interface DraftRef {
  /** Full package path inside the git repository, e.g. `catalog/team/app` (no leading/trailing `/`). */
  packagePath: string;
  /** Workspace name (Porch `spec.workspaceName`), the last branch segment, e.g. `v1` or `add-labels`. */
  workspace: string;
}

/** A Published revision named by its tag: `<packagePath>/v<revision>`. */
export interface RevisionTag {
  packagePath: string;
  /** Integer revision (Porch `spec.revision`), `v3` → 3. */
  revision: number;
}

const REVISION_TEXT = /^v([0-9]+)$/;
const CANONICAL_REVISION = /^v(0|[1-9][0-9]*)$/;

/** Strips `refs/heads/` / `refs/tags/` when present. */
function shortRef(ref: string, kind: "heads" | "tags"): string {
  const prefix = `refs/${kind}/`;
  return ref.startsWith(prefix) ? ref.slice(prefix.length) : ref;
}

/** The prefix with exactly one trailing slash; `drafts` → `drafts/`. */
export function normalizePrefix(prefix: string | undefined): string {
  const p = (prefix ?? DEFAULT_DRAFT_PREFIX).replace(/^\/+/, "").replace(/\/+$/, "");
  return p === "" ? "" : `${p}/`;
}

/** The directory without leading/trailing slashes; `/` and `.` → `""` (the whole repository). */
export function normalizeDirectory(directory: string | undefined): string {
  const d = (directory ?? "").replace(/^(\.?\/)+/, "").replace(/\/+$/, "");
  return d === "." ? "" : d;
}

/**
 * True when `path` is a usable package path: non-empty segments separated by `/`, none of them `.` or
 * `..`, no leading or trailing slash, no characters git forbids in ref names.
 */
export function isValidPackagePath(path: string): boolean {
  if (path === "") return false;
  return path.split("/").every(
    (segment) =>
      segment !== "" &&
      segment !== "." &&
      segment !== ".." &&
      !segment.endsWith(".lock") &&
      // biome-ignore lint/suspicious/noControlCharactersInRegex: git forbids control characters in refs
      !/[\x00-\x20~^:?*[\\\x7f]/.test(segment) &&
      !segment.includes("@{") &&
      !segment.startsWith("."),
  );
}

/** True when the package path lies inside the repository directory (Porch's `packageInDirectory`). */
export function packageInDirectory(packagePath: string, directory: string | undefined): boolean {
  const dir = normalizeDirectory(directory);
  if (dir === "") return true;
  return packagePath === dir || packagePath.startsWith(`${dir}/`);
}

/**
 * The PackageRevision's package name: the package path relative to the repository directory
 * (`catalog/team/app` in directory `catalog` → `team/app`). A package at the directory itself is named
 * after the directory's last segment (a package needs a non-empty name).
 */
export function packageName(packagePath: string, directory: string | undefined): string {
  const dir = normalizeDirectory(directory);
  if (dir === "") return packagePath;
  if (packagePath === dir) return dir.slice(dir.lastIndexOf("/") + 1);
  return packagePath.startsWith(`${dir}/`) ? packagePath.slice(dir.length + 1) : packagePath;
}

/**
 * Parses a Draft branch (`drafts/team/app/v2`, `refs/heads/...` accepted) into package path and
 * workspace. Returns `undefined` when the branch is not a Draft branch: wrong prefix, no workspace
 * segment, an invalid path, or a package outside the repository directory.
 */
export function parseDraftBranch(branch: string, options: NamingOptions = {}): DraftRef | undefined {
  const prefix = normalizePrefix(options.draftPrefix);
  const name = shortRef(branch, "heads");
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  const slash = rest.lastIndexOf("/");
  if (slash <= 0) return undefined;
  const packagePath = rest.slice(0, slash);
  const workspace = rest.slice(slash + 1);
  if (!isValidPackagePath(packagePath) || !isValidPackagePath(workspace)) return undefined;
  if (!packageInDirectory(packagePath, options.directory)) return undefined;
  return { packagePath, workspace };
}

/**
 * Why a branch that looks like a Draft branch is not one (a typo'd prefix `draft/x/ws`, `Drafts/x/ws`,
 * or the prefix without a workspace `drafts/x`), or `undefined` when it is a Draft branch or does not
 * look like one at all. Porch would not list such a branch as a revision either; the reason says what
 * the branch would have to be called. Pure.
 */
export function draftLookalike(branch: string, options: NamingOptions = {}): string | undefined {
  if (parseDraftBranch(branch, options)) return undefined;
  const prefix = normalizePrefix(options.draftPrefix);
  if (prefix === "") return undefined;
  const name = shortRef(branch, "heads");
  const [first = "", ...rest] = name.split("/");
  const want = prefix.slice(0, -1);
  const stem = (s: string) => s.toLowerCase().replace(/s$/, "");
  const example = `${prefix}<package>/<workspace>`;
  if (first === want) {
    const body = rest.join("/");
    if (rest.length < 2)
      return `\`${name}\` has no workspace: a Draft branch is \`${example}\` (the last segment is the workspace), e.g. \`${prefix}${body || "app"}/v1\``;
    const pkg = rest.slice(0, -1).join("/");
    if (!isValidPackagePath(pkg) || !isValidPackagePath(rest.at(-1) ?? ""))
      return `\`${name}\` does not name a valid package path and workspace (\`${example}\`)`;
    return `package \`${pkg}\` is outside the directory this repository's packages live in (\`${normalizeDirectory(options.directory)}\`, .github/porchlight.yml \`directories\`)`;
  }
  if (rest.length > 0 && stem(first) === stem(want))
    return `\`${first}/\` is not the Draft branch prefix \`${prefix}\` (.github/porchlight.yml \`draftBranchPrefix\`): push to \`${prefix}${rest.join("/")}\` to make it a Draft`;
  return undefined;
}

/**
 * Formats a Draft branch name (without `refs/heads/`). Throws an `Error` naming the bad part when the
 * package path or workspace is invalid or the workspace holds a slash.
 */
export function formatDraftBranch(ref: DraftRef, options: NamingOptions = {}): string {
  if (!isValidPackagePath(ref.packagePath)) throw new Error(`invalid package path "${ref.packagePath}"`);
  if (ref.workspace.includes("/") || !isValidPackagePath(ref.workspace)) {
    throw new Error(`invalid workspace name "${ref.workspace}"`);
  }
  return `${normalizePrefix(options.draftPrefix)}${ref.packagePath}/${ref.workspace}`;
}

/**
 * Parses revision text `v<N>` into N (Porch's `Revision2Int` restricted to the `v<N>` form). Leading
 * zeros are tolerated (`v01` → 1) as Porch's `^v[0-9]+$` does; `v2.0.0`, `2`, `main` → `undefined`.
 */
export function parseRevision(text: string): number | undefined {
  const match = REVISION_TEXT.exec(text);
  if (!match) return undefined;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** `3` → `v3`. Throws on a negative or non-integer revision. */
export function formatRevision(revision: number): string {
  if (!Number.isSafeInteger(revision) || revision < 0) throw new Error(`invalid revision ${revision}`);
  return `v${revision}`;
}

/**
 * The revision a workspace name stands for, when the workspace already is one: `v3` → 3. Only the
 * canonical form of a publishable revision counts (`v1`, `v12`; not `v0`, `v01`, `v2.0.0`), because
 * Porch numbers published revisions from 1 and 0 means "not published".
 */
export function workspaceRevision(workspace: string): number | undefined {
  if (!CANONICAL_REVISION.test(workspace)) return undefined;
  const n = parseRevision(workspace);
  return n !== undefined && n >= 1 ? n : undefined;
}

/**
 * Parses a tag (`team/app/v3`, `refs/tags/...` accepted) into package path and integer revision.
 * `undefined` for tags with no slash (release tags such as `v1.2.0`), non-integer revisions
 * (`app/v2.0.0`), invalid paths, or packages outside the repository directory.
 */
export function parseRevisionTag(
  tag: string,
  options: Pick<NamingOptions, "directory"> = {},
): RevisionTag | undefined {
  const name = shortRef(tag, "tags");
  const slash = name.lastIndexOf("/");
  if (slash <= 0) return undefined;
  const packagePath = name.slice(0, slash);
  const revision = parseRevision(name.slice(slash + 1));
  if (revision === undefined || !isValidPackagePath(packagePath)) return undefined;
  if (!packageInDirectory(packagePath, options.directory)) return undefined;
  return { packagePath, revision };
}

/** `{packagePath: "team/app", revision: 2}` → `team/app/v2` (no `refs/tags/`). Throws on bad input. */
export function formatRevisionTag(tag: RevisionTag): string {
  if (!isValidPackagePath(tag.packagePath)) throw new Error(`invalid package path "${tag.packagePath}"`);
  return `${tag.packagePath}/${formatRevision(tag.revision)}`;
}

/**
 * Every published integer revision of one package found among `tags` (tag names, `refs/tags/` allowed),
 * ascending and without duplicates (`v1` and `v01` are the same revision).
 */
export function publishedRevisions(tags: Iterable<string>, packagePath: string): number[] {
  const found = new Set<number>();
  for (const tag of tags) {
    const parsed = parseRevisionTag(tag);
    if (parsed && parsed.packagePath === packagePath) found.add(parsed.revision);
  }
  return [...found].sort((a, b) => a - b);
}

/** The latest published revision of a package (highest integer revision), or `undefined` if none. */
export function latestRevision(tags: Iterable<string>, packagePath: string): number | undefined {
  const all = publishedRevisions(tags, packagePath);
  return all.length === 0 ? undefined : all[all.length - 1];
}

/** Input of {@link nextRevision}. */
export interface NextRevisionInput {
  packagePath: string;
  /** Workspace of the Draft being published; when it is a revision (`v3`) that number is used. */
  workspace?: string;
  /** All tag names of the repository (or at least those of this package). */
  tags: Iterable<string>;
}

/**
 * The revision a Draft gets when it is published: the workspace's own number when the workspace is a
 * revision (`v3` → 3), otherwise the highest published integer revision of the package + 1 (1 for the
 * first). Callers must still check that the tag does not exist: a published revision is immutable.
 */
export function nextRevision(input: NextRevisionInput): number {
  const own = input.workspace === undefined ? undefined : workspaceRevision(input.workspace);
  if (own !== undefined) return own;
  return (latestRevision(input.tags, input.packagePath) ?? 0) + 1;
}

/**
 * The PackageRevision object name Porch composes: `<repository>.<package path, "/" → ".">.<workspace>`
 * (e.g. `deployments.team.app.v1`). The package path is the one relative to the repository directory
 * joined with the directory, as Porch's `ComposePkgRevObjName` does.
 */
export function revisionObjectName(input: {
  repository: string;
  packagePath: string;
  workspace: string;
}): string {
  const dotted = input.packagePath.split("/").filter(Boolean).join(".");
  return `${input.repository}.${dotted}.${input.workspace}`;
}

/** The workspace of upgrade drafts (never a revision `v<N>`). */
export const UPGRADE_WORKSPACE = "upstream-upgrade";

/** Whether `branch` is an upgrade draft (`drafts/<package>/upstream-upgrade` under the configured prefix). */
export function isUpgradeDraft(branch: string, config: { draftBranchPrefix: string }): boolean {
  return parseDraftBranch(branch, { draftPrefix: config.draftBranchPrefix })?.workspace === UPGRADE_WORKSPACE;
}

/** Branch prefix keeping a deleted revision's commit reachable (`rpkg del`). */
export const DELETED_REVISION_PREFIX = "deleted/";

/**
 * The branches that may keep deleted revision `tag`'s commit `sha`, in the order `rpkg del` tries them:
 * `deleted/<tag>`, then `deleted/<tag>-<sha12>` when a deleted revision of the same number (published
 * again after a deletion) is kept at the first.
 */
export function deletedRevisionBranches(tag: string, sha: string): [string, string] {
  return [`${DELETED_REVISION_PREFIX}${tag}`, `${DELETED_REVISION_PREFIX}${tag}-${sha.slice(0, 12)}`];
}

/** Whether branch `name` keeps a deleted revision of `packagePath` (`deleted/<pkg>/v<N>[-<sha12>]`). */
export function isDeletedRevisionBranch(name: string, packagePath: string): boolean {
  if (!name.startsWith(DELETED_REVISION_PREFIX)) return false;
  const tag = name.slice(DELETED_REVISION_PREFIX.length).replace(/-[0-9a-f]{12}$/, "");
  return parseRevisionTag(tag)?.packagePath === packagePath;
}
