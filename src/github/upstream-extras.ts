/**
 * The port operations the upstream → downstream use-cases write drafts with (creating a branch, opening
 * and updating a pull request, listing an owner's repositories) — now methods of {@link GitHubPort}
 * itself; these names stay for the upstream modules.
 */
import type { GitHubPort } from "./port.js";

/** The draft-writing operations (part of {@link GitHubPort}). */
export type UpstreamPortExtras = Pick<
  GitHubPort,
  "createBranch" | "createPullRequest" | "updatePullRequest" | "listOwnerRepositories"
>;

/** The port of the upstream use-cases: the one port. */
export type UpstreamPort = GitHubPort;
