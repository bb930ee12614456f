/** Installation and administration: the app's installations, the repositories a caller reaches, rulesets. */
import type { AdministrationOperations, RepoRef, RulesetBody, RulesetOutcome } from "../port.js";
import type { Octokit } from "./client.js";
import { call } from "./errors.js";

const toRef = (r: { owner: { login: string }; name: string }): RepoRef => ({
  owner: r.owner.login,
  repo: r.name,
});

/**
 * {@link AdministrationOperations.listOwnerRepositories}: the installation's repositories of `owner`;
 * when that list is refused (a user token), the organization's, else the user's.
 */
async function ownerRepositories(octokit: Octokit, owner: string): Promise<RepoRef[]> {
  try {
    const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, {
      per_page: 100,
    });
    return repos.filter((r) => r.owner.login.toLowerCase() === owner.toLowerCase()).map(toRef);
  } catch {
    try {
      return (await octokit.paginate(octokit.rest.repos.listForOrg, { org: owner, per_page: 100 })).map(
        toRef,
      );
    } catch {
      const repos = await call("repos.listForUser", () =>
        octokit.paginate(octokit.rest.repos.listForUser, { username: owner, per_page: 100 }),
      );
      return repos.map(toRef);
    }
  }
}

/** {@link AdministrationOperations.ensureRuleset}: update the repository's ruleset named `body.name`, else create it. */
async function ensureRuleset(
  octokit: Octokit,
  { repo, body }: { repo: RepoRef; body: RulesetBody },
): Promise<RulesetOutcome> {
  const existing = await call("repos.getRepoRulesets", () =>
    octokit.paginate(octokit.rest.repos.getRepoRulesets, {
      ...repo,
      includes_parents: false,
      per_page: 100,
    }),
  );
  const same = existing.find((r) => r.name === body.name && r.source_type !== "Organization");
  // Octokit types each rule as a closed union; the body is GitHub's JSON, validated by GitHub.
  const params = { ...repo, ...body } as unknown as Parameters<
    typeof octokit.rest.repos.createRepoRuleset
  >[0];
  const update = { ...params, ruleset_id: same?.id ?? 0 } as unknown as Parameters<
    typeof octokit.rest.repos.updateRepoRuleset
  >[0];
  const { data } = same
    ? await call("repos.updateRepoRuleset", () => octokit.rest.repos.updateRepoRuleset(update))
    : await call("repos.createRepoRuleset", () => octokit.rest.repos.createRepoRuleset(params));
  return {
    action: same ? "updated" : "created",
    id: data.id,
    ...(data._links?.html?.href ? { url: data._links.html.href } : {}),
  };
}

/** The installation and administration methods of the port. */
export function administrationOperations(octokit: Octokit): AdministrationOperations {
  return {
    async listInstallations() {
      const installations = await call("apps.listInstallations", () =>
        octokit.paginate(octokit.rest.apps.listInstallations, { per_page: 100 }),
      );
      return installations.map((i) => i.id);
    },

    async listInstallationRepositories() {
      const repos = await call("apps.listReposAccessibleToInstallation", () =>
        octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 }),
      );
      return repos.map(toRef);
    },

    async listUserRepositories() {
      const repos = await call("repos.listForAuthenticatedUser", () =>
        octokit.paginate(octokit.rest.repos.listForAuthenticatedUser, { per_page: 100 }),
      );
      return repos.map(toRef);
    },

    listOwnerRepositories: ({ owner }) => ownerRepositories(octokit, owner),

    ensureRuleset: (options) => ensureRuleset(octokit, options),
  };
}
