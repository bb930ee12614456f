/**
 * Branch and pull-request writes the upstream → downstream use-cases need (upgrade and variant drafts):
 * creating a branch (never moving one), opening and updating a pull request.
 */
import type { UpstreamPortExtras } from "../upstream-extras.js";
import type { Octokit } from "./client.js";
import { call, toGitHubError } from "./errors.js";

/** The extra operations over Octokit. */
export function upstreamOperations(octokit: Octokit): UpstreamPortExtras {
  return {
    async createBranch({ repo, branch, sha }) {
      try {
        await octokit.rest.git.createRef({ ...repo, ref: `refs/heads/${branch}`, sha });
        return { kind: "created" };
      } catch (error) {
        const e = toGitHubError("git.createRef", error);
        if (e.status === 422 && /already exists/i.test(e.message)) return { kind: "exists" };
        throw e;
      }
    },

    async createPullRequest({ repo, head, base, title, body }) {
      const { data } = await call("pulls.create", () =>
        octokit.rest.pulls.create({ ...repo, head, base, title, body }),
      );
      return { number: data.number };
    },

    async listOwnerRepositories({ owner }) {
      const mine = (r: { owner: { login: string }; name: string }) =>
        r.owner.login.toLowerCase() === owner.toLowerCase();
      const toRef = (r: { owner: { login: string }; name: string }) => ({
        owner: r.owner.login,
        repo: r.name,
      });
      try {
        const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, {
          per_page: 100,
        });
        return repos.filter(mine).map(toRef);
      } catch {
        try {
          const repos = await octokit.paginate(octokit.rest.repos.listForOrg, { org: owner, per_page: 100 });
          return repos.map(toRef);
        } catch {
          const repos = await call("repos.listForUser", () =>
            octokit.paginate(octokit.rest.repos.listForUser, { username: owner, per_page: 100 }),
          );
          return repos.map(toRef);
        }
      }
    },

    async updatePullRequest({ repo, number, title, body, state }) {
      await call("pulls.update", () =>
        octokit.rest.pulls.update({
          ...repo,
          pull_number: number,
          ...(title !== undefined ? { title } : {}),
          ...(body !== undefined ? { body } : {}),
          ...(state !== undefined ? { state } : {}),
        }),
      );
    },
  };
}
