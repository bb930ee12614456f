/**
 * Where a downstream package's Kptfile says it comes from, in GitHub's terms: the upstream
 * repository (`upstream.git.repo` as `kpt pkg get` writes it — `https://github.com/org/blueprints`,
 * with or without `.git`, or an SSH form — read as `owner/name` on the app's GitHub host) and the
 * published revision (`upstreamLock.git.ref` `base/v3`, or `v3`, is revision 3 of package `base`).
 */

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

/**
 * The repository an upstream URL names when it is on `host` (`github.com`, a GitHub Enterprise host
 * or `127.0.0.1:8080`; compared case-insensitively, ports included), else undefined. Accepts
 * `https://host/o/r`, `http://…`, `…/o/r.git`, a trailing `/`, `git@host:o/r.git`, `ssh://git@host/o/r.git`.
 */
export function parseUpstreamUrl(url: string, host: string): UpstreamRepo | undefined {
  const h = host.toLowerCase();
  const trimmed = url
    .trim()
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
  let rest: string | undefined;
  const web = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/]+)\/(.+)$/i.exec(trimmed);
  if (web) {
    if (web[1].toLowerCase() !== h) return undefined;
    rest = web[2];
  } else {
    const scp = /^(?:[^@/]+@)?([^:/]+):(.+)$/.exec(trimmed);
    if (!scp || scp[1].toLowerCase() !== h.replace(/:\d+$/, "")) return undefined;
    rest = scp[2];
  }
  const parts = rest.replace(/\.git$/, "").split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { owner: parts[0], name: parts[1] };
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
