/** Installations, the repositories a caller can reach, and repository rulesets. */
import type { RepoRef } from "./repository.js";

/** The body of a repository ruleset (`POST /repos/{owner}/{repo}/rulesets`), as GitHub names its fields. */
export interface RulesetBody {
  name: string;
  target: "branch" | "tag" | "push";
  enforcement: "active" | "evaluate" | "disabled";
  conditions: { ref_name: { include: string[]; exclude: string[] } };
  rules: ({ type: string } & Record<string, unknown>)[];
}

/** What {@link AdministrationOperations.ensureRuleset} did. */
export interface RulesetOutcome {
  action: "created" | "updated";
  id: number;
  /** Link to the ruleset on GitHub when GitHub returned one. */
  url?: string;
}

/** The port's installation and administration methods. */
export interface AdministrationOperations {
  /** The app's installations (`GET /app/installations`, paginated; only on a port authenticated as the app). */
  listInstallations(): Promise<number[]>;
  /** Repositories the installation can access (`GET /installation/repositories`, paginated). */
  listInstallationRepositories(): Promise<RepoRef[]>;
  /** Repositories a user token can read (`GET /user/repos`, paginated): the CLI with a personal token. */
  listUserRepositories?(): Promise<RepoRef[]>;
  /**
   * Repositories of `owner` the caller can read: the installation's of that owner with an installation
   * token, else the organization's or the user's (`GET /orgs|users/{owner}/repos`).
   */
  listOwnerRepositories(options: { owner: string }): Promise<RepoRef[]>;
  /**
   * Creates the repository ruleset named `body.name`, or updates the one with that name (never stacks
   * duplicates): `GET rulesets`, then `POST rulesets` or `PUT rulesets/{id}`.
   */
  ensureRuleset(options: { repo: RepoRef; body: RulesetBody }): Promise<RulesetOutcome>;
}
