/**
 * {@link GitHubPort} over Octokit — the only code that calls Octokit. Split by concern: git content
 * and refs (./git.ts, ./blobs.ts, ./commit.ts), check runs (./checks.ts), pull requests (./pulls.ts),
 * comments (./comments.ts), repository reads and administration (./repos.ts), errors (./errors.ts).
 * The app builds it over Probot's installation client, the CLI over its token client (../rest-client.ts);
 * both carry Octokit's retry and throttling plugins.
 */
import type { GitHubPort } from "../port.js";
import { checkOperations } from "./checks.js";
import type { Octokit } from "./client.js";
import { commentOperations } from "./comments.js";
import { gitOperations } from "./git.js";
import { pullOperations } from "./pulls.js";
import { repoOperations } from "./repos.js";

export type { Octokit } from "./client.js";
export { rateLimitOf, toGitHubError } from "./errors.js";
export { installationClients } from "./installation.js";

/**
 * Builds the port over an authenticated Octokit. `reads`, when given, makes the GraphQL queries (the
 * snapshot, blob batches); see ./installation.ts.
 */
export function createOctokitPort(octokit: Octokit, options: { reads?: Octokit } = {}): GitHubPort {
  const reads = options.reads ?? octokit;
  return {
    ...repoOperations(octokit, reads),
    ...gitOperations(octokit, reads),
    ...checkOperations(octokit),
    ...pullOperations(octokit),
    ...commentOperations(octokit),
  };
}
