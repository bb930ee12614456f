/**
 * Writing the `porchlight/render` check run: one per reported commit, annotations in batches of 50 (GitHub's
 * per-request limit; the Checks API appends them across updates), and never left `in_progress`.
 *
 * A run that needs follow-up requests (more than 50 annotations) is created `in_progress` under a LEASE
 * written in its `external_id` (`<rendered-from> holder=<process> until=<epoch ms> sent=<annotations>`),
 * renewed by every follow-up and, while the process holds the run (rendering again for an adopted run,
 * waiting on GitHub), every third of the lease. If the process dies or GitHub fails for longer than the
 * retries, the run stays `in_progress`: the next attempt of the job (same holder) or, once the lease
 * expired, any process (a retry, the next start, reconciliation) ADOPTS it — claims it, renders again,
 * sends the annotations not yet sent and concludes it — so a sha keeps one run and no run is concluded
 * under a live process. A process that finds a run held by another looks again when its lease ends
 * ({@link recheckWhenLeaseEnds}), so a run of a dead process is adopted within one lease (30 s by
 * default), not at the next reconciliation pass.
 */
import type { CheckAnnotation, CheckOutput, GitHubPort, PullRequestRef, RepoRef } from "../github/port.js";
import { batchAnnotations } from "../report/annotations.js";
import type { CheckReport } from "../report/check-summary.js";
import { crashOutput } from "../report/messages.js";
import {
  type CheckLease,
  formatExternalId,
  postCheck,
  RENDER_CHECK_NAME,
  RERENDER_ACTION,
} from "./render-check-run.js";

/** What {@link CheckRunTracker.publish} sends: the report, its annotation batches, the completing fields. */
interface RunToPublish {
  report: CheckReport;
  renderedFrom: string;
  batches: CheckAnnotation[][];
  final: { status: "completed"; conclusion: CheckReport["conclusion"]; externalId: string };
}

/** The run's output: the report's title and summary, with `annotations` when there are any. */
function outputOf(report: CheckReport, annotations?: CheckAnnotation[]): CheckOutput {
  return { title: report.title, summary: report.summary, ...(annotations?.length ? { annotations } : {}) };
}

/** Longest a process renews one run's lease without concluding it (ms): past it the run is let go. */
export const MAX_HOLD_MS = 15 * 60_000;

/** The tracker of this process renewing each run's lease (a retry's tracker takes over from the last). */
const holders = new Map<number, CheckRunTracker>();

/** Tracks one check run so a crash can complete it (try/finally in the use-cases). */
export class CheckRunTracker {
  readonly #port: GitHubPort;
  readonly #repo: RepoRef;
  readonly #lease: CheckLease;
  #id: number | undefined;
  #headSha: string | undefined;
  #adoptedSent: number | undefined;
  #completed = false;
  /** Lease renewal while the run is held: what the renewal writes, its timer, and the writes in order. */
  #held: { renderedFrom: string; sent: number; since: number } | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(options: { port: GitHubPort; repo: RepoRef; lease: CheckLease }) {
    this.#port = options.port;
    this.#repo = options.repo;
    this.#lease = options.lease;
  }

  /** True when this tracker continues a stale run (see {@link adopt}) it has not completed yet. */
  get adoptedRun(): boolean {
    return this.#adoptedSent !== undefined && !this.#completed;
  }

  /** True once a check run was completed (by {@link publish} or {@link fail}). */
  get completed(): boolean {
    return this.#completed;
  }

  /**
   * Takes over a stale run (see {@link findVerdict}): {@link publish} continues it instead of creating
   * one, and {@link fail} concludes it. `sent` = annotations it already has.
   */
  adopt(stale: { runId: number; sent: number; renderedFrom?: string }): void {
    this.#id = stale.runId;
    this.#adoptedSent = stale.sent;
    // Claimed at once (the lease now names this process), renewed while it renders again.
    this.#hold(stale.renderedFrom ?? "", stale.sent, true);
  }

  /** Starts (or updates) renewing the lease of the run; `now`: write the lease at once. */
  #hold(renderedFrom: string, sent: number, now = false): void {
    const id = this.#id;
    if (id === undefined || this.#completed) return;
    const since = this.#held?.since ?? (this.#lease.now ?? Date.now)();
    this.#held = { renderedFrom: renderedFrom || (this.#held?.renderedFrom ?? ""), sent, since };
    const previous = holders.get(id);
    if (previous && previous !== this) previous.#release();
    holders.set(id, this);
    if (now) void this.#renew();
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#renew(), Math.max(1000, Math.floor(this.#lease.leaseMs / 3)));
    this.#timer.unref?.();
  }

  /** Writes the lease again (after the writes already queued); a failed renewal is left to the next one. */
  #renew(): Promise<unknown> {
    const held = this.#held;
    const id = this.#id;
    if (!held || id === undefined || this.#completed) return Promise.resolve();
    const now = (this.#lease.now ?? Date.now)();
    if (now - held.since > MAX_HOLD_MS) {
      this.#release();
      return Promise.resolve();
    }
    return this.#write(() =>
      this.#completed || !held.renderedFrom
        ? Promise.resolve()
        : this.#port.updateCheckRun({
            repo: this.#repo,
            checkRunId: id,
            externalId: this.#leased(held.renderedFrom, held.sent),
          }),
    ).catch(() => undefined);
  }

  /** Runs `write` after every write already queued on this run (renewals never overtake an update). */
  #write<T>(write: () => Promise<T>): Promise<T> {
    const next = this.#writes.then(write, write);
    this.#writes = next.catch(() => undefined);
    return next;
  }

  /** Stops renewing the lease. */
  #release(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#held = undefined;
    if (this.#id !== undefined && holders.get(this.#id) === this) holders.delete(this.#id);
  }

  /** Stops renewing the lease of an unconcluded run (its job ends without concluding it). */
  release(): void {
    this.#release();
  }

  #leased(renderedFrom: string, sent: number): string {
    const now = (this.#lease.now ?? Date.now)();
    return formatExternalId({
      renderedFrom,
      holder: this.#lease.holder,
      until: now + this.#lease.leaseMs,
      sent,
    });
  }

  /**
   * Reports `report` on `headSha`: with at most 50 annotations ONE create, completed; otherwise the
   * create (in_progress, leased) carries the first batch, updates carry the rest and the last completes
   * it. An adopted run is continued instead (the annotations it already has are not sent again). Returns the run id and the open pull requests GitHub associates with `headSha`.
   */
  async publish(options: {
    headSha: string;
    report: CheckReport;
    annotations: CheckAnnotation[];
    renderedFrom: string;
  }): Promise<{ id: number; pullRequests: PullRequestRef[] }> {
    const { report, renderedFrom } = options;
    const batches = batchAnnotations(options.annotations);
    const run: RunToPublish = {
      report,
      renderedFrom,
      batches,
      final: {
        status: "completed",
        conclusion: report.conclusion,
        externalId: formatExternalId({ renderedFrom }),
      },
    };
    this.#headSha = options.headSha;
    const adopted = this.#id !== undefined && this.#adoptedSent !== undefined;
    const start = adopted
      ? { sent: Math.min(this.#adoptedSent ?? 0, options.annotations.length), pullRequests: [] }
      : await this.#create(options.headSha, run);
    const next = adopted ? Math.ceil(start.sent / 50) : 1;
    const id = this.#id as number;
    if (next < batches.length) this.#hold(renderedFrom, start.sent);
    try {
      if (next >= batches.length && adopted) {
        await this.#write(() =>
          this.#port.updateCheckRun({
            repo: this.#repo,
            checkRunId: id,
            ...run.final,
            output: outputOf(report),
          }),
        );
      }
      await this.#sendBatches(id, run, next, start.sent);
    } catch (error) {
      // The job's retry (or, once the lease ends, any process) adopts the run.
      this.#release();
      throw error;
    }
    this.#completed = true;
    this.#release();
    return { id, pullRequests: start.pullRequests };
  }

  /** Creates the run with the first batch: completed when it is the only one, else in progress and leased. */
  async #create(
    headSha: string,
    run: RunToPublish,
  ): Promise<{ sent: number; pullRequests: PullRequestRef[] }> {
    const single = run.batches.length <= 1;
    const sent = run.batches[0]?.length ?? 0;
    const created = await this.#port.createCheckRun({
      repo: this.#repo,
      name: RENDER_CHECK_NAME,
      headSha,
      ...(single
        ? run.final
        : { status: "in_progress" as const, externalId: this.#leased(run.renderedFrom, sent) }),
      output: outputOf(run.report, run.batches[0]),
      actions: [RERENDER_ACTION],
    });
    this.#id = created.id;
    return { sent, pullRequests: created.pullRequests };
  }

  /** Sends batches `next`.. as updates, renewing the lease after each; the last one completes the run. */
  async #sendBatches(id: number, run: RunToPublish, next: number, alreadySent: number): Promise<void> {
    let sent = alreadySent;
    for (let i = next; i < run.batches.length; i++) {
      const batch = run.batches[i] ?? [];
      sent += batch.length;
      const last = i === run.batches.length - 1;
      const lease = sent;
      await this.#write(() =>
        this.#port.updateCheckRun({
          repo: this.#repo,
          checkRunId: id,
          ...(last ? run.final : { externalId: this.#leased(run.renderedFrom, lease) }),
          output: outputOf(run.report, batch),
        }),
      );
      if (!last) this.#hold(run.renderedFrom, sent);
    }
  }

  /**
   * Completes the run with `conclusion` and `output` and no annotations: updates the run already
   * created (or adopted), or creates one on `headSha`. Throws GitHub's errors.
   */
  async conclude(options: {
    headSha: string;
    conclusion: "success" | "failure" | "neutral";
    output: CheckOutput;
  }): Promise<{ id: number; pullRequests: PullRequestRef[] }> {
    const headSha = this.#headSha ?? options.headSha;
    let result: { id: number; pullRequests: PullRequestRef[] };
    const id = this.#id;
    if (id !== undefined) {
      try {
        await this.#write(() =>
          this.#port.updateCheckRun({
            repo: this.#repo,
            checkRunId: id,
            status: "completed",
            conclusion: options.conclusion,
            externalId: formatExternalId({ renderedFrom: headSha }),
            output: options.output,
          }),
        );
      } finally {
        this.#release();
      }
      result = { id, pullRequests: [] };
    } else {
      result = await postCheck({ port: this.#port, repo: this.#repo, ...options, headSha });
    }
    this.#completed = true;
    return result;
  }

  /** Completes the check run with `failure` and `message` (see {@link conclude}). Throws GitHub's errors. */
  async fail(options: { headSha: string; message: string }): Promise<void> {
    if (this.#completed) return;
    await this.conclude({
      headSha: options.headSha,
      conclusion: "failure",
      output: crashOutput(options.message),
    });
  }
}
