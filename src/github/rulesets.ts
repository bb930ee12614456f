/**
 * The repository ruleset that makes `porchlight/render` a required check — how "approve" is gated on
 * GitHub: a pull request from a draft branch can only be merged (published) when our own check run on
 * its head says the package renders and matches its rendered form.
 *
 * GitHub API: `GET /repos/{o}/{r}/rulesets`, `POST /repos/{o}/{r}/rulesets` (operation
 * `repos/create-repo-ruleset`), `PUT /repos/{o}/{r}/rulesets/{id}`.
 */
import type { RestEndpointMethodTypes } from "@octokit/rest";
import type { RestClient } from "./rest-client.js";

type CreateRulesetParams = RestEndpointMethodTypes["repos"]["createRepoRuleset"]["parameters"];
/** One rule of a repository ruleset, as Octokit types it. */
type RulesetRule = NonNullable<CreateRulesetParams["rules"]>[number];
/** The body fields of `POST /repos/{owner}/{repo}/rulesets`. */
export type RulesetBody = Required<
  Pick<CreateRulesetParams, "name" | "target" | "enforcement" | "conditions" | "rules">
>;

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
  const rules: RulesetRule[] = [
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

/** What {@link applyRuleset} did. */
export interface RulesetOutcome {
  action: "created" | "updated";
  id: number;
  /** Link to the ruleset on GitHub when GitHub returned one. */
  url?: string;
}

/**
 * Creates the ruleset, or updates the one with the same name so that running `protect` twice does not
 * stack duplicates. Throws Octokit's errors (403 when the token cannot administer the repository).
 */
export async function applyRuleset(
  octokit: RestClient,
  options: { owner: string; repo: string } & RulesetOptions,
): Promise<RulesetOutcome> {
  const { owner, repo, ...ruleset } = options;
  const body = rulesetBody(ruleset);
  const existing = await octokit.paginate(octokit.rest.repos.getRepoRulesets, {
    owner,
    repo,
    includes_parents: false,
    per_page: 100,
  });
  const same = existing.find((r) => r.name === RULESET_NAME && r.source_type !== "Organization");
  if (same) {
    const { data } = await octokit.rest.repos.updateRepoRuleset({
      owner,
      repo,
      ruleset_id: same.id,
      ...body,
    });
    return {
      action: "updated",
      id: data.id,
      ...(data._links?.html?.href ? { url: data._links.html.href } : {}),
    };
  }
  const { data } = await octokit.rest.repos.createRepoRuleset({ owner, repo, ...body });
  return {
    action: "created",
    id: data.id,
    ...(data._links?.html?.href ? { url: data._links.html.href } : {}),
  };
}
