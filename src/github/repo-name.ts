/**
 * What GitHub accepts as an account login and a repository name, so that a name read from repository
 * content (a Kptfile's `upstream.git.repo`, a PackageVariant's upstream) can never make a request
 * leave `/repos/{owner}/{repo}/`: no `/`, no dot segments, no percent-encoding, no other characters.
 */

/** An account login: letters, digits, hyphens and underscores (managed users), 1–39 characters, not starting with a hyphen. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38})$/;
/** A repository name: letters, digits, `.`, `_`, `-`, 1–100 characters; `.` and `..` are not names. */
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/** Why `owner`/`repo` cannot name a GitHub repository, or `undefined` when they can. */
export function repoNameProblem(owner: unknown, repo: unknown): string | undefined {
  if (typeof owner !== "string" || !OWNER.test(owner))
    return `${JSON.stringify(owner)} is not a GitHub account name (letters, digits, "-", "_")`;
  if (typeof repo !== "string" || !REPO.test(repo) || repo === "." || repo === "..")
    return `${JSON.stringify(repo)} is not a GitHub repository name (letters, digits, ".", "_", "-"; not "." or "..")`;
  return undefined;
}

/** Thrown by the GitHub port before it sends a request for a repository that cannot exist. */
export class UnsafeRepositoryError extends Error {
  override readonly name = "UnsafeRepositoryError";
}
