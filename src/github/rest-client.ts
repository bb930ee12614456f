/**
 * The token-authenticated client the command-line tools (`porchlight rpkg get`, `porchlight protect`)
 * use — the app itself uses Probot's installation client. Both are Probot's Octokit, so the CLI goes
 * through the same port adapter (`./octokit/`) with the same retry (5xx) and throttling (rate limits,
 * writes spaced out) plugins. GitHub Enterprise Server is reached through `GITHUB_API_URL`
 * (e.g. `https://ghe.example.com/api/v3`), as in GitHub Actions.
 */
import { ProbotOctokit } from "probot";
import { createOctokitPort, type Octokit } from "./octokit/index.js";
import { DEFAULT_REQUEST_TIMEOUT_MS, limitRequestTime } from "./octokit/timeout.js";
import type { GitHubPort, RepoRef } from "./port.js";

/** Where the CLI finds its credentials: `GITHUB_TOKEN` (required) and `GITHUB_API_URL` (optional). */
export type RestClientEnv = Readonly<Record<string, string | undefined>>;

/** How often the CLI waits out a rate limit before giving up on a request. */
const RATE_LIMIT_RETRIES = 2;

/**
 * Builds the client. Throws an `Error` saying what to set when `GITHUB_TOKEN` is missing.
 * `baseUrl` defaults to `https://api.github.com`; a trailing `/` is removed.
 */
export function createRestClient(env: RestClientEnv): Octokit {
  const token = env.GITHUB_TOKEN?.trim();
  if (!token)
    throw new Error(
      "GITHUB_TOKEN is not set: export a token that can read (and for protect, administer) the repository",
    );
  const baseUrl = (env.GITHUB_API_URL?.trim() || "https://api.github.com").replace(/\/+$/, "");
  // Failed requests are reported by the command itself (a 404 on an optional file is expected), so
  // Octokit's per-request log lines stay quiet; warnings (rate limits, deprecations) still reach stderr.
  const quiet = () => {};
  const retryRateLimit = (_after: number, options: { request: { retryCount: number } }) =>
    options.request.retryCount < RATE_LIMIT_RETRIES;
  const octokit = new ProbotOctokit({
    auth: { token },
    baseUrl,
    userAgent: "porchlight-cli",
    log: { debug: quiet, info: quiet, warn: console.warn, error: quiet },
    throttle: { onRateLimit: retryRateLimit, onSecondaryRateLimit: retryRateLimit },
  });
  // A request GitHub never answers fails (after Octokit's retries) instead of hanging the command.
  return limitRequestTime(octokit, { timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS });
}

/** The GitHub port for the CLI (token from `env`). Throws like {@link createRestClient}. */
export function createRestPort(env: RestClientEnv): GitHubPort {
  return createOctokitPort(createRestClient(env));
}

/** Splits `owner/repo`; throws an `Error` naming the value when it is not of that shape. */
export function parseRepoSlug(slug: string | undefined): RepoRef {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(slug ?? "");
  if (!match) throw new Error(`expected a repository as owner/repo, got ${JSON.stringify(slug ?? "")}`);
  return { owner: match[1]!, repo: match[2]! };
}
