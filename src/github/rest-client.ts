/**
 * The token-authenticated Octokit the command-line tools (`porchlight rpkg get`, `porchlight protect`)
 * use — the app itself uses Probot's installation client instead. GitHub Enterprise Server is reached
 * through `GITHUB_API_URL` (e.g. `https://ghe.example.com/api/v3`), as in GitHub Actions.
 */
import { Octokit } from "@octokit/rest";

/** The client type the CLI-side GitHub modules take. */
export type RestClient = Octokit;

/** Where the CLI finds its credentials: `GITHUB_TOKEN` (required) and `GITHUB_API_URL` (optional). */
export type RestClientEnv = Readonly<Record<string, string | undefined>>;

/**
 * Builds the client. Throws an `Error` saying what to set when `GITHUB_TOKEN` is missing.
 * `baseUrl` defaults to `https://api.github.com`; a trailing `/` is removed.
 */
export function createRestClient(env: RestClientEnv): RestClient {
  const token = env.GITHUB_TOKEN?.trim();
  if (!token)
    throw new Error(
      "GITHUB_TOKEN is not set: export a token that can read (and for protect, administer) the repository",
    );
  const baseUrl = (env.GITHUB_API_URL?.trim() || "https://api.github.com").replace(/\/+$/, "");
  // Failed requests are reported by the command itself (a 404 on an optional file is expected), so
  // Octokit's per-request log lines stay quiet; deprecation warnings still reach stderr.
  const quiet = () => {};
  return new Octokit({
    auth: token,
    baseUrl,
    userAgent: "porchlight-cli",
    log: { debug: quiet, info: quiet, warn: console.warn, error: quiet },
  });
}

/** Splits `owner/repo`; throws an `Error` naming the value when it is not of that shape. */
export function parseRepoSlug(slug: string | undefined): { owner: string; repo: string } {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(slug ?? "");
  if (!match) throw new Error(`expected a repository as owner/repo, got ${JSON.stringify(slug ?? "")}`);
  return { owner: match[1]!, repo: match[2]! };
}

/** The HTTP status of an Octokit error, if any. */
export function httpStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  return typeof error.status === "number" ? error.status : undefined;
}
