/**
 * Where a downstream package's Kptfile says it comes from, in GitHub's terms: the upstream
 * repository (`upstream.git.repo` as `kpt pkg get` writes it — `https://github.com/org/blueprints`,
 * with or without `.git` — read as `owner/name` on the app's GitHub host, every other form refused) and the
 * published revision (`upstreamLock.git.ref` `base/v3`, or `v3`, is revision 3 of package `base`).
 */
import { repoNameProblem } from "../github/repo-name.js";

/** The Kptfile annotation naming the PackageVariant that owns a downstream package. */
export const OWNER_ANNOTATION = "porchlight.dev/package-variant";

/** An upstream repository on the app's GitHub host. */
export interface UpstreamRepo {
  owner: string;
  name: string;
}

/** `owner/name` in lower case: GitHub's names are case-insensitive. */
export function repoKey(repo: UpstreamRepo | string): string {
  return (typeof repo === "string" ? repo : `${repo.owner}/${repo.name}`).toLowerCase();
}

/** An upstream URL read: the repository it names, or why it is refused. */
export type UpstreamUrlReading = { repo: UpstreamRepo } | { refused: string };

/**
 * Reads an upstream URL against the app's GitHub web base (`https://github.com`, a GitHub Enterprise
 * host, `http://127.0.0.1:8080` for a local GitHub). Parsed, not trusted: only
 * `<scheme>://<host>/<owner>/<repo>` with an optional `.git` and trailing `/` is accepted, the scheme and
 * host (port included) those of `webBase`, owner and repository GitHub names. Refused, with the reason:
 * other schemes (`ssh://`, `git@host:`, `file://`), other hosts or ports, userinfo (`user@`), dot
 * segments, percent-encoding, a query or fragment, and any path that is not exactly owner and repository.
 */
export function readUpstreamUrl(url: string, webBase: string): UpstreamUrlReading {
  const base = /^([a-z][a-z0-9+.-]*):\/\/(.+)$/i.exec(webBase.trim()) ?? ["", "https", webBase.trim()];
  const [, scheme = "https", host = ""] = base;
  const expected = `${scheme}://${host}/<owner>/<repo>`;
  const refuse = (why: string): UpstreamUrlReading => ({
    refused: `upstream ${JSON.stringify(url.slice(0, 200))} is refused: ${why} (porchlight reads upstreams only as ${expected}[.git])`,
  });
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(\/[^?#]*)?([?#].*)?$/i.exec(url.trim());
  if (!m) return refuse("it is not a URL");
  const [, gotScheme = "", authority = "", rawPath = "", extra] = m;
  if (gotScheme.toLowerCase() !== scheme.toLowerCase())
    return refuse(`the scheme ${gotScheme}:// is not ${scheme}://`);
  if (authority.includes("@")) return refuse("it carries userinfo (user@)");
  if (authority.toLowerCase() !== host.toLowerCase())
    return refuse(
      /:\d*$/.test(authority) ? `the port of ${authority} is not the app's` : `${authority} is not ${host}`,
    );
  if (extra) return refuse("it has a query or fragment");
  if (rawPath.includes("%")) return refuse("it is percent-encoded");
  const segments = rawPath.replace(/^\//, "").replace(/\/$/, "").split("/");
  if (segments.some((x) => x === "." || x === "..")) return refuse("it has dot segments");
  if (segments.length !== 2) return refuse("its path is not exactly /<owner>/<repo>");
  const owner = segments[0] ?? "";
  const name = (segments[1] ?? "").replace(/\.git$/, "");
  const problem = repoNameProblem(owner, name);
  return problem ? refuse(problem) : { repo: { owner, name } };
}

/** The repository an upstream URL names (see {@link readUpstreamUrl}), else undefined. */
export function parseUpstreamUrl(url: string, webBase: string): UpstreamRepo | undefined {
  const reading = readUpstreamUrl(url, webBase);
  return "repo" in reading ? reading.repo : undefined;
}

/**
 * Why a Kptfile `upstream.git.directory` is refused (dot segments: `/../x` would name a path outside
 * the upstream package tree, and tag lookups would run on it), else undefined.
 */
export function upstreamDirectoryProblem(directory: string | undefined): string | undefined {
  if (!(directory ?? "").split("/").some((segment) => segment === "." || segment === "..")) return undefined;
  return `upstream directory ${JSON.stringify(directory)} is refused: it has dot segments (porchlight reads only a package directory of the upstream repository, written as it is there, e.g. /base)`;
}

/** The package path of a Kptfile `directory` (`/base/` → `base`, `/` → ``). */
export function packageOfDirectory(directory: string | undefined): string {
  return (directory ?? "").replace(/^\/+|\/+$/g, "");
}

/**
 * The revision number a ref names for a package: `base/v3` (Porch's tag) or `v3` → 3; undefined for
 * branches, commits and other packages' tags.
 */
export function revisionOfRef(ref: string | undefined, pkg: string): number | undefined {
  if (!ref) return undefined;
  const r = ref.replace(/^refs\/tags\//, "");
  const prefix = pkg === "" ? "" : `${pkg}/`;
  const body = prefix && r.startsWith(prefix) ? r.slice(prefix.length) : r;
  const m = /^v(\d+)$/.exec(body);
  return m ? Number(m[1]) : undefined;
}

/**
 * The ref to write for revision `n`, in the style the Kptfile already uses: `base/v4` when it says
 * `base/v3`, else `v4` (kpt resolves `v4` of directory `base` to the tag `base/v4`).
 */
export function refForRevision(currentRef: string | undefined, pkg: string, n: number): string {
  return pkg !== "" && currentRef?.startsWith(`${pkg}/`) ? `${pkg}/v${n}` : `v${n}`;
}
