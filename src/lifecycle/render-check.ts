/**
 * The `porchlight/render` check run: created once per reported commit, annotations sent in batches of
 * 50 (GitHub's per-request limit; the Checks API appends them across updates), and never left
 * `in_progress` — {@link CheckRunTracker.fail} completes whatever was started when something crashes.
 */
import type { CheckAnnotation, CheckOutput, GitHubPort, RepoRef } from "../github/port.js";
import { batchAnnotations } from "../report/annotations.js";
import { type CheckReport, truncateSummary } from "../report/check-summary.js";

/** The check run's name, as required status checks refer to it. */
export const RENDER_CHECK_NAME = "porchlight/render";

/** Tracks one check run so a crash can complete it (try/finally in the use-cases). */
export class CheckRunTracker {
  readonly #port: GitHubPort;
  readonly #repo: RepoRef;
  readonly #name: string;
  #id: number | undefined;
  #headSha: string | undefined;
  #completed = false;

  constructor(options: { port: GitHubPort; repo: RepoRef; name?: string }) {
    this.#port = options.port;
    this.#repo = options.repo;
    this.#name = options.name ?? RENDER_CHECK_NAME;
  }

  /** True once a check run was completed (by {@link publish} or {@link fail}). */
  get completed(): boolean {
    return this.#completed;
  }

  /**
   * Creates the check run on `headSha` and completes it with `report`. With at most 50 annotations
   * that is one create; otherwise the create (in_progress) carries the first batch, updates carry the
   * rest and the last update completes it. Returns the check run id.
   */
  async publish(options: {
    headSha: string;
    report: CheckReport;
    annotations: CheckAnnotation[];
    externalId?: string;
  }): Promise<number> {
    const { report, headSha } = options;
    const batches = batchAnnotations(options.annotations);
    const output = (annotations: CheckAnnotation[] | undefined): CheckOutput => ({
      title: report.title,
      summary: report.summary,
      ...(annotations?.length ? { annotations } : {}),
    });
    const final = { status: "completed" as const, conclusion: report.conclusion };
    this.#headSha = headSha;
    const single = batches.length <= 1;
    const { id } = await this.#port.createCheckRun({
      repo: this.#repo,
      name: this.#name,
      headSha,
      ...(single ? final : { status: "in_progress" as const }),
      output: output(batches[0]),
      ...(options.externalId ? { externalId: options.externalId } : {}),
    });
    this.#id = id;
    for (let i = 1; i < batches.length; i++) {
      const last = i === batches.length - 1;
      await this.#port.updateCheckRun({
        repo: this.#repo,
        checkRunId: id,
        ...(last ? final : {}),
        output: output(batches[i]),
      });
    }
    this.#completed = true;
    return id;
  }

  /**
   * Completes the check run with `failure` and `message`: updates the one already created, or creates
   * one on `headSha` (the commit the work was about) when none was. Never throws past GitHub errors.
   */
  async fail(options: { headSha: string; message: string }): Promise<void> {
    if (this.#completed) return;
    const output: CheckOutput = {
      title: "porchlight failed to render this commit",
      summary: truncateSummary(
        `## porchlight/render\n\nRendering stopped before it could report:\n\n\`\`\`\n${options.message}\n\`\`\``,
      ),
    };
    if (this.#id !== undefined) {
      await this.#port.updateCheckRun({
        repo: this.#repo,
        checkRunId: this.#id,
        status: "completed",
        conclusion: "failure",
        output,
      });
    } else {
      await this.#port.createCheckRun({
        repo: this.#repo,
        name: this.#name,
        headSha: this.#headSha ?? options.headSha,
        status: "completed",
        conclusion: "failure",
        output,
      });
    }
    this.#completed = true;
  }
}
