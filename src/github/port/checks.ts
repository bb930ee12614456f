/** Check runs (the Checks API): what a run says, its buttons, and listing a sha's runs. */
import type { PullRequestRef } from "./pulls.js";
import type { RepoRef } from "./repository.js";

/** GitHub check-run annotation (Checks API `output.annotations[]`); lines are 1-based. */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  /** Only when `start_line === end_line` (GitHub ignores columns otherwise). */
  start_column?: number;
  end_column?: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
  raw_details?: string;
}

/** Check-run output (`output` of the Checks API). `summary` at most 65535 characters. */
export interface CheckOutput {
  title: string;
  summary: string;
  text?: string;
  /** At most 50 per request (GitHub's limit); the Checks API appends them across updates. */
  annotations?: CheckAnnotation[];
}

/** How a completed check run ended (Checks API `conclusion`). */
export type CheckConclusion = "success" | "failure" | "neutral" | "cancelled" | "skipped" | "action_required";

/** Fields of a check run create (`POST check-runs`) or update (`PATCH check-runs/{id}`). */
export interface CheckRunFields {
  status?: "queued" | "in_progress" | "completed";
  /** Required when `status` is `completed`. */
  conclusion?: CheckConclusion;
  output?: CheckOutput;
  /** Our own correlation id (Checks API `external_id`): what was rendered, and who holds the run. */
  externalId?: string;
  /** Buttons on the check run (Checks API `actions`, at most 3); a click sends `check_run` `requested_action`. */
  actions?: CheckRunAction[];
}

/** A check-run button: `label` ≤ 20, `description` ≤ 40, `identifier` ≤ 20 characters. */
export interface CheckRunAction {
  label: string;
  description: string;
  identifier: string;
}

/** A check run as `GET commits/{sha}/check-runs` lists it. */
export interface CheckRunSummary {
  id: number;
  name: string;
  headSha: string;
  status: "queued" | "in_progress" | "completed" | "waiting" | "requested" | "pending";
  conclusion: string | undefined;
  externalId: string | undefined;
  /** ISO 8601, when GitHub has it. */
  startedAt: string | undefined;
  /** The GitHub App that created the run. */
  appId: number | undefined;
}

/** The port's check runs (`/repos/{owner}/{repo}/check-runs`). */
export interface CheckRunOperations {
  /**
   * Creates a check run (`POST check-runs`); returns its id and the open pull requests GitHub associates
   * with its head sha (the run's `pull_requests`).
   * Sent once (never retried by the client: GitHub may have made a run it did not answer for); a failure
   * is left to the job's retry, which looks at the sha's runs first.
   */
  createCheckRun(
    options: { repo: RepoRef; name: string; headSha: string } & CheckRunFields,
  ): Promise<{ id: number; pullRequests: PullRequestRef[] }>;
  /** Updates a check run (`PATCH check-runs/{id}`); annotations are appended by GitHub. */
  updateCheckRun(options: { repo: RepoRef; checkRunId: number } & CheckRunFields): Promise<void>;
  /** Check runs named `name` on `sha`, every attempt (`GET commits/{sha}/check-runs?filter=all`). */
  listCheckRuns(options: { repo: RepoRef; sha: string; name: string }): Promise<CheckRunSummary[]>;
}
