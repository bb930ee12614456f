/**
 * Port operations the upstream → downstream use-cases add to {@link GitHubPort}: creating a branch
 * (never moving one) and opening / updating a pull request — the drafts the app writes itself
 * (upgrade pull requests, PackageVariant drafts).
 */
import type { GitHubPort, RepoRef } from "./port.js";

/** The extra operations. */
export interface UpstreamPortExtras {
  /** Creates `refs/heads/<branch>` at `sha` (`POST git/refs`); `exists` when it is there already. */
  createBranch(options: {
    repo: RepoRef;
    branch: string;
    sha: string;
  }): Promise<{ kind: "created" | "exists" }>;
  /** Opens a pull request (`POST pulls`). */
  createPullRequest(options: {
    repo: RepoRef;
    head: string;
    base: string;
    title: string;
    body: string;
  }): Promise<{ number: number }>;
  /**
   * Repositories of `owner` the caller can read: the installation's (`GET /installation/repositories`)
   * with an installation token, else the organization's or user's (`GET /orgs|users/{owner}/repos`).
   */
  listOwnerRepositories(options: { owner: string }): Promise<RepoRef[]>;
  /** Updates a pull request's title, body or state (`PATCH pulls/{n}`). */
  updatePullRequest(options: {
    repo: RepoRef;
    number: number;
    title?: string;
    body?: string;
    state?: "open" | "closed";
  }): Promise<void>;
}

/** The port of the upstream use-cases. */
export type UpstreamPort = GitHubPort & UpstreamPortExtras;

/** Whether a port offers the extra operations. */
export function hasUpstreamExtras(port: GitHubPort): port is UpstreamPort {
  const p = port as Partial<UpstreamPort>;
  return typeof p.createBranch === "function" && typeof p.createPullRequest === "function";
}
