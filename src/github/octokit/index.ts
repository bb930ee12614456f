/**
 * {@link GitHubPort} over Octokit — the only code that calls Octokit. Split by concern as the port is:
 * repository reads (./repos.ts, the snapshot in ./snapshot.ts), git content (./git.ts, ./tree.ts,
 * ./paths.ts, ./blobs.ts, ./commit.ts), refs (./refs.ts), check runs (./checks.ts), pull requests
 * (./pulls.ts), comments and issues (./comments.ts), installations and rulesets (./administration.ts),
 * errors (./errors.ts).
 * The app builds it over Probot's installation client, the CLI over its token client (../rest-client.ts);
 * both carry Octokit's retry and throttling plugins.
 */
import type { GitHubPort } from "../port.js";
import { repoNameProblem, UnsafeRepositoryError } from "../repo-name.js";
import { administrationOperations } from "./administration.js";
import { checkOperations } from "./checks.js";
import type { Octokit } from "./client.js";
import { commentOperations, issueOperations } from "./comments.js";
import { gitOperations } from "./git.js";
import { pullOperations } from "./pulls.js";
import { refOperations } from "./refs.js";
import { repoOperations } from "./repos.js";

export type { Octokit } from "./client.js";
export { toGitHubError } from "./errors.js";
export { appClient, installationClients } from "./installation.js";

/**
 * Builds the port over an authenticated Octokit. `reads`, when given, makes the GraphQL queries (the
 * snapshot, blob batches); see ./installation.ts.
 */
export function createOctokitPort(octokit: Octokit, options: { reads?: Octokit } = {}): GitHubPort {
  const reads = options.reads ?? octokit;
  return guardRepositories({
    ...repoOperations(octokit, reads),
    ...gitOperations(octokit, reads),
    ...refOperations(octokit),
    ...checkOperations(octokit),
    ...pullOperations(octokit),
    ...commentOperations(octokit),
    ...issueOperations(octokit),
    ...administrationOperations(octokit),
  });
}

/**
 * The port, refusing (UnsafeRepositoryError, before any request) an operation whose `repo` is not a
 * GitHub owner and repository name: a name with `/`, `..` or other characters would make the request's
 * path leave `/repos/{owner}/{repo}/`.
 */
function guardRepositories(port: GitHubPort): GitHubPort {
  const guarded: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(port)) {
    if (typeof operation !== "function") continue;
    guarded[name] = (options: unknown, ...rest: unknown[]) => {
      const repo = (options as { repo?: { owner?: unknown; repo?: unknown } } | undefined)?.repo;
      if (repo !== undefined) {
        const problem = repoNameProblem(repo.owner, repo.repo);
        if (problem)
          return Promise.reject(new UnsafeRepositoryError(`porchlight: refused ${name}: ${problem}`));
      }
      return operation(options, ...rest);
    };
  }
  return guarded as unknown as GitHubPort;
}
