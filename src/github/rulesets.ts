/**
 * The repository ruleset that makes `porchlight/render` a required check — how "approve" is gated on
 * GitHub: a pull request from a draft branch can only be merged (published) when our own check run on
 * its head says the package renders and matches its rendered form.
 *
 * GitHub API (through the port): `GET /repos/{o}/{r}/rulesets`, `POST /repos/{o}/{r}/rulesets`
 * (operation `repos/create-repo-ruleset`), `PUT /repos/{o}/{r}/rulesets/{id}`.
 */
import type { GitHubPort, RepoRef, RulesetBody, RulesetOutcome } from "./port.js";

export type { RulesetBody, RulesetOutcome };

/** Name of the check run the app writes and the ruleset requires. */
export const RENDER_CHECK_NAME = "porchlight/render";

/** Name of the ruleset `porchlight protect` creates (and finds again to update instead of duplicating). */
export const RULESET_NAME = "porchlight: require porchlight/render";

/** Options of {@link rulesetBody}. */
export interface RulesetOptions {
  /** GitHub App id of porchlight: only check runs from this app satisfy the rule (`integration_id`). */
  appId: number;
  /** Also require a pull request for every change to the default branch (no direct pushes). */
  requirePullRequest?: boolean;
  /** `active` (default) enforces; `evaluate` only reports (GitHub Enterprise Cloud). */
  enforcement?: "active" | "evaluate" | "disabled";
}

/**
 * The ruleset request body: target the default branch (`~DEFAULT_BRANCH`), require the status check
 * `porchlight/render` from app `appId`, optionally require pull requests. `strict_required_status_checks_policy`
 * is false: the check is about the package content on the PR head, not about the base being current.
 */
export function rulesetBody(options: RulesetOptions): RulesetBody {
  const rules: RulesetBody["rules"] = [
    {
      type: "required_status_checks",
      parameters: {
        strict_required_status_checks_policy: false,
        required_status_checks: [{ context: RENDER_CHECK_NAME, integration_id: options.appId }],
      },
    },
  ];
  if (options.requirePullRequest) {
    rules.push({
      type: "pull_request",
      parameters: {
        required_approving_review_count: 0,
        dismiss_stale_reviews_on_push: false,
        require_code_owner_review: false,
        require_last_push_approval: false,
        required_review_thread_resolution: false,
      },
    });
  }
  return {
    name: RULESET_NAME,
    target: "branch",
    enforcement: options.enforcement ?? "active",
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules,
  };
}

/**
 * Creates the ruleset, or updates the one with the same name so that running `protect` twice does not
 * stack duplicates (through the port's `ensureRuleset`). Throws GitHubError (403 when the token cannot
 * administer the repository).
 */
export async function applyRuleset(
  port: GitHubPort,
  options: { repo: RepoRef } & RulesetOptions,
): Promise<RulesetOutcome> {
  const { repo, ...ruleset } = options;
  return port.ensureRuleset({ repo, body: rulesetBody(ruleset) });
}
