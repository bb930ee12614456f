/**
 * Consent for cross-repository reads: porchlight reads an upstream package in another repository for a
 * downstream only where someone who controls that upstream allowed it — Porch's Repository objects are
 * registered by an administrator; on GitHub anyone who can push a Kptfile to repository A could otherwise
 * name a private repository B of the same installation and receive B's content in A's upgrade pull request.
 *
 * A downstream `owner/name` may read upstream `owner/name` when (first match):
 * 1. it is the same repository;
 * 2. an operator rule allows it (`PORCHLIGHT_UPSTREAM_CONSENT`: `<upstream>=<consumer>` patterns);
 * 3. the upstream is public (unless the operator's `PORCHLIGHT_PUBLIC_UPSTREAMS=consent`);
 * 4. the upstream's own `.github/porchlight.yml` (default branch) lists the downstream in `consumers`.
 * Otherwise the read is refused, with the reason the downstream's check shows.
 */
import { configFromText } from "../config/load.js";
import type { ConsentPolicy, RepoPattern } from "../config/upstream-consent.js";
import { GitHubError, type GitHubPort, isGitHubOutage, type RepoRef } from "../github/port.js";

/** Why a read is allowed, or why it is refused (a sentence for the downstream's check). */
export type UpstreamAccess =
  | { allowed: true; via: "same-repository" | "operator" | "public" | "upstream" | "own-token" }
  | { allowed: false; reason: string };

/** True when `repo` (`owner/name`) matches `pattern`. */
export function matchesRepo(pattern: RepoPattern, repo: string): boolean {
  const p = pattern.toLowerCase();
  const r = repo.toLowerCase();
  if (p === "*") return true;
  if (p.endsWith("/*")) return r.startsWith(p.slice(0, -1));
  return p === r;
}

const key = (r: RepoRef) => `${r.owner}/${r.repo}`;

async function upstreamConsumers(
  port: GitHubPort,
  upstream: RepoRef,
  defaultBranch: string,
): Promise<{ consumers: string[] } | { problem: string }> {
  const text = await port.readFile({ repo: upstream, path: ".github/porchlight.yml", ref: defaultBranch });
  const result = configFromText(text);
  return result.ok ? { consumers: result.config.consumers } : { problem: result.message };
}

/**
 * Whether `downstream` may read packages of `upstream` (see the module comment). Reads the upstream's
 * repository object and, when needed, its `.github/porchlight.yml`. A 404 is refused as "not granted";
 * an outage (5xx, rate limit) is thrown, to be retried.
 */
export async function upstreamAccess(options: {
  port: GitHubPort;
  policy: ConsentPolicy;
  downstream: RepoRef;
  upstream: RepoRef;
}): Promise<UpstreamAccess> {
  const { port, policy, downstream, upstream } = options;
  const up = key(upstream);
  const down = key(downstream);
  if (up.toLowerCase() === down.toLowerCase()) return { allowed: true, via: "same-repository" };
  if (policy.rules.some((r) => matchesRepo(r.upstream, up) && matchesRepo(r.consumer, down))) {
    return { allowed: true, via: "operator" };
  }
  let info: Awaited<ReturnType<GitHubPort["readRepository"]>>;
  try {
    info = await port.readRepository({ repo: upstream });
  } catch (error) {
    if (isGitHubOutage(error) || !(error instanceof GitHubError)) throw error;
    return {
      allowed: false,
      reason: `upstream repository ${up} cannot be read: it does not exist or is not granted to the app's installation (GitHub answered ${error.status ?? "an error"})`,
    };
  }
  if (info.visibility === "public" && policy.publicUpstreams === "open")
    return { allowed: true, via: "public" };
  const listed = await upstreamConsumers(port, upstream, info.defaultBranch);
  if ("consumers" in listed && listed.consumers.some((p) => matchesRepo(p, down))) {
    return { allowed: true, via: "upstream" };
  }
  const why =
    "problem" in listed
      ? `its .github/porchlight.yml cannot be read (${listed.problem})`
      : `its .github/porchlight.yml does not list ${down} in consumers`;
  return {
    allowed: false,
    reason: `upstream repository ${up} has not consented to be read by ${down}: ${why}; add "${down}" (or "${downstream.owner}/*") to consumers there, or ask the operator (PORCHLIGHT_UPSTREAM_CONSENT)`,
  };
}

/**
 * The command line's access: it reads with its user's own token, so GitHub decides what that person
 * may read (no consent of the app's is involved).
 */
export async function readsWithOwnToken(): Promise<UpstreamAccess> {
  return { allowed: true, via: "own-token" };
}

/** Remembers answers for one job (one pass reads each upstream's consent once). */
export function memoizedAccess(options: { port: GitHubPort; policy: ConsentPolicy; downstream: RepoRef }) {
  const memo = new Map<string, Promise<UpstreamAccess>>();
  return (upstream: RepoRef): Promise<UpstreamAccess> => {
    const k = key(upstream).toLowerCase();
    let answer = memo.get(k);
    if (!answer) {
      answer = upstreamAccess({ ...options, upstream });
      memo.set(k, answer);
    }
    return answer;
  };
}
