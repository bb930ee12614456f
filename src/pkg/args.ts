/**
 * kpt's reading of a package reference `REPO_URI[.git]/PKG_PATH[@VERSION]` (`parse.GitParseArgs`):
 * the repository ends at `.git`; GitHub web URLs (`https://github.com/org/repo/path`) need no
 * `.git`. porchlight also accepts a directory inside a local git checkout (`/src/blueprints/base@v2`).
 * A repository named by a relative path is refused: the Kptfile records the repository as given, and
 * git would read a relative one from whatever directory a later `pkg update` runs in (kpt reads it
 * from its cache directory, so it never works there).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";

/** A parsed package reference. */
export interface PackageRef {
  repo: string;
  /** Directory in the repository, `/`-rooted (kpt's `directory`). */
  directory: string;
  /** The ref, or undefined for the default branch. */
  ref: string | undefined;
}

/** A reference kpt cannot read, with kpt's message. */
export class PackageRefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PackageRefError";
  }
}

const GIT_SUFFIX = /\.git($|\/)/;

function clean(dir: string): string {
  const c = path.posix.normalize(dir.startsWith("/") ? dir : `/${dir}`);
  return c.length > 1 ? c.replace(/\/+$/, "") : c;
}

/**
 * Whether git reads `repo` as a path relative to the directory it runs in: not a URL (`scheme://`),
 * not scp-like (`[user@]host:path`, a colon before any slash), not absolute, not empty.
 */
export function isRelativeRepoPath(repo: string): boolean {
  if (repo === "" || repo.includes("://")) return false;
  const colon = repo.indexOf(":");
  if (colon > 0 && !repo.slice(0, colon).includes("/")) return false;
  return !path.isAbsolute(repo);
}

/** The refusal of a relative repository path `given` in `arg`, suggesting `absolute` instead. */
function relativeRepoError(given: string, suggestion: string): PackageRefError {
  return new PackageRefError(
    `repository ${JSON.stringify(given)} is a relative path: the Kptfile records the repository as given, ` +
      `and a relative path only resolves from the directory the command runs in; ` +
      `give a URL or an absolute path, e.g. ${suggestion}`,
  );
}

/** kpt's `parse.URL`: splits at the first `.git` followed by `/` or the end. */
function fromGitUrl(url: string): PackageRef {
  const m = GIT_SUFFIX.exec(url)!;
  const repo = url.slice(0, m.index);
  const rest = url.slice(m.index + m[0].length);
  if (rest === "") return { repo, directory: "/", ref: undefined };
  const at = rest.indexOf("@");
  if (at >= 0) {
    return {
      repo,
      directory: clean(rest.slice(0, at)),
      ref: rest.slice(at + 1).replace(/\/+$/, "") || undefined,
    };
  }
  return { repo, directory: clean(rest), ref: undefined };
}

/** kpt's `pkgURLFromGHURL` for `https://github.com/<org>/<repo>[/tree/<ref>]/<path>`. */
function fromGitHubUrl(url: string): string {
  const v = url.replace(/\/+$/, "");
  const [scheme, rest] = v.split("://", 2);
  if (!rest?.startsWith("github.com")) throw new PackageRefError(`invalid GitHub url: ${v}`);
  const parts = rest.split("/");
  if (parts.length < 3) throw new PackageRefError(`invalid GitHub pkg url: ${v}`);
  const repo = `${scheme}://${parts.slice(0, 3).join("/")}`;
  if (parts.length === 3) return `${repo}.git`;
  if (parts[3] === "tree" && parts.length > 4) {
    const dir = parts.slice(5).join("/");
    return dir ? `${repo}.git/${dir}@${parts[4]}` : `${repo}.git@${parts[4]}`;
  }
  return `${repo}.git/${parts.slice(3).join("/")}`;
}

/**
 * Parses a package reference. `gitTopLevel` finds the checkout holding a local directory (for
 * references to local paths without `.git`); relative local paths are read from `cwd` (default:
 * the process's) only to suggest their absolute form. Throws {@link PackageRefError} with kpt's
 * wording, or naming the relative repository path it refuses.
 */
export function parsePackageRef(
  arg: string,
  gitTopLevel?: (dir: string) => string | undefined,
  cwd: string = process.cwd(),
): PackageRef {
  if (GIT_SUFFIX.test(arg)) {
    const parsed = fromGitUrl(arg);
    if (isRelativeRepoPath(parsed.repo))
      throw relativeRepoError(parsed.repo, path.resolve(cwd, parsed.repo) + arg.slice(parsed.repo.length));
    return parsed;
  }
  const at = arg.lastIndexOf("@");
  const uri = at >= 0 ? arg.slice(0, at) : arg;
  const ref = at >= 0 ? arg.slice(at + 1) : undefined;
  const local = path.resolve(cwd, uri);
  if (!uri.includes("://") && gitTopLevel && existsSync(local) && statSync(local).isDirectory()) {
    const top = gitTopLevel(local);
    if (top && !path.isAbsolute(uri)) throw relativeRepoError(uri, local + arg.slice(uri.length));
    if (top) {
      const rel = path.relative(top, local).split(path.sep).join("/");
      return { repo: top, directory: clean(rel), ref: ref || undefined };
    }
  }
  if (arg.includes("github.com")) return fromGitUrl(fromGitHubUrl(arg));
  if ((uri.match(/:\/\//g) ?? []).length !== 1) {
    throw new PackageRefError("ambiguous repo/dir@version specify '.git' in argument");
  }
  if (uri.endsWith(".git") || uri.endsWith(".git/")) {
    return { repo: uri.replace(/\/$/, "").replace(/\.git$/, ""), directory: "/", ref: ref || undefined };
  }
  throw new PackageRefError("ambiguous repo/dir@version specify '.git' in argument");
}

/**
 * kpt's `getDest`: an existing directory receives a new directory named after the package; a new
 * path needs an existing parent. Throws {@link PackageRefError}.
 */
export function destinationFor(dest: string, ref: PackageRef): string {
  const v = path.resolve(dest);
  if (!existsSync(v)) {
    if (!existsSync(path.dirname(v)))
      throw new PackageRefError(`parent directory ${JSON.stringify(path.dirname(v))} does not exist`);
    return v;
  }
  if (!statSync(v).isDirectory()) throw new PackageRefError("LOCAL_PKG_DEST must be a directory");
  const repo = ref.repo.replace(/\/+$/, "").replace(/\.git$/, "");
  const base = path.posix.basename(
    path.posix.join(path.posix.normalize(repo), path.posix.normalize(ref.directory)),
  );
  const out = path.join(v, base);
  if (existsSync(out))
    throw new PackageRefError(`destination directory ${JSON.stringify(out)} already exists`);
  return out;
}
