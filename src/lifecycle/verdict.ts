/**
 * The `porchlight/render` check run: one per reported commit, annotations in batches of 50 (GitHub's
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
import type { WorkQueue } from "./work-queue.js";

/** The check run's name, as required status checks refer to it. */
export const RENDER_CHECK_NAME = "porchlight/render";

/** The check-run button that re-renders a commit (`check_run` `requested_action`). */
export const RERENDER_ACTION = {
  label: "Re-render",
  description: "Render this commit again",
  identifier: "rerender",
} as const;

/** Who holds the runs this process starts, and for how long a lease lasts without renewal. */
export interface CheckLease {
  /** Process-unique id (random at start). */
  holder: string;
  /** Lease duration in ms (renewed by every follow-up request). */
  leaseMs: number;
  now?: () => number;
}

/** What `external_id` carries. */
export interface ExternalId {
  /** The commit that was rendered (the run's head, or the user's commit a render commit came from). */
  renderedFrom: string;
  holder?: string;
  /** Lease end, epoch ms. */
  until?: number;
  /** Annotations already sent. */
  sent?: number;
}

/** `<sha>[ holder=<id> until=<ms> sent=<n>]`. */
export function formatExternalId(id: ExternalId): string {
  if (id.holder === undefined) return id.renderedFrom;
  return `${id.renderedFrom} holder=${id.holder} until=${id.until ?? 0} sent=${id.sent ?? 0}`;
}

/** Parses {@link formatExternalId}; a plain sha has no lease. */
export function parseExternalId(text: string | undefined): ExternalId | undefined {
  if (!text) return undefined;
  const [renderedFrom = "", ...fields] = text.split(" ");
  const kv = Object.fromEntries(fields.map((f) => f.split("=") as [string, string]));
  return {
    renderedFrom,
    ...(kv.holder ? { holder: kv.holder } : {}),
    ...(kv.until ? { until: Number(kv.until) } : {}),
    ...(kv.sent ? { sent: Number(kv.sent) } : {}),
  };
}

/** What a commit's `porchlight/render` runs say. */
export type Verdict =
  | { kind: "none" }
  | { kind: "concluded"; runId: number; conclusion: string }
  /** In progress under another process's live lease (ending at `until`, epoch ms): that process concludes it. */
  | { kind: "held"; runId: number; until: number }
  /** In progress, lease expired or ours: adopt and finish it. */
  | { kind: "stale"; runId: number; sent: number; renderedFrom: string };

/**
 * The verdict on `sha` from this app's runs (`appId` when known): any concluded run wins; else an
 * in-progress run is `held` while another holder's lease lives, `stale` otherwise. A run without lease
 * information counts as leased from its start.
 */
export async function findVerdict(options: {
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  appId?: number | undefined;
  lease: CheckLease;
}): Promise<Verdict> {
  const { lease } = options;
  const now = (lease.now ?? Date.now)();
  const runs = (
    await options.port.listCheckRuns({ repo: options.repo, sha: options.sha, name: RENDER_CHECK_NAME })
  )
    .filter((r) => options.appId === undefined || r.appId === undefined || r.appId === options.appId)
    .sort((a, b) => b.id - a.id);
  const concluded = runs.find((r) => r.status === "completed");
  if (concluded)
    return { kind: "concluded", runId: concluded.id, conclusion: concluded.conclusion ?? "neutral" };
  const open = runs[0];
  if (!open) return { kind: "none" };
  const id = parseExternalId(open.externalId);
  const started = open.startedAt ? Date.parse(open.startedAt) : now;
  const until = id?.until ?? started + lease.leaseMs;
  if (id?.holder !== lease.holder && until > now) return { kind: "held", runId: open.id, until };
  return {
    kind: "stale",
    runId: open.id,
    sent: id?.sent ?? 0,
    renderedFrom: id?.renderedFrom || options.sha,
  };
}

/** Runs whose lease end a look-again is scheduled for, in this process (`<owner>/<repo>@<run id>`). */
const rechecks = new Set<string>();

/**
 * After `held.until` (+1 s), enqueues a reconciliation pass over `repo`: if the holder died meanwhile
 * its run is stale by then and the pass hands it to a job that adopts it; if the holder renewed the
 * lease the pass finds it held again and looks again at the new end. One look per run at a time in
 * this process; the timer does not keep the process alive (the next start's pass covers a restart).
 */
export function recheckWhenLeaseEnds(options: {
  queue: Pick<WorkQueue, "enqueue">;
  installationId: number;
  repo: RepoRef;
  held: { runId: number; until: number };
  now?: () => number;
}): void {
  const { queue, installationId, repo, held } = options;
  const key = `${repo.owner}/${repo.repo}@${held.runId}`;
  if (rechecks.has(key)) return;
  rechecks.add(key);
  const waitMs = Math.max(0, held.until - (options.now ?? Date.now)()) + 1000;
  const timer = setTimeout(() => {
    rechecks.delete(key);
    void queue.enqueue({ kind: "reconcile", installationId, repo }).catch(() => undefined);
  }, waitMs);
  timer.unref?.();
}

/** Longest a process renews one run's lease without concluding it (ms): past it the run is let go. */
export const MAX_HOLD_MS = 15 * 60_000;

/** The tracker of this process renewing each run's lease (a retry's tracker takes over from the last). */
const holders = new Map<number, CheckRunTracker>();

/** Creates a completed `porchlight/render` run (with the "Re-render" button). */
export async function postCheck(options: {
  port: GitHubPort;
  repo: RepoRef;
  headSha: string;
  conclusion: "success" | "failure" | "neutral";
  output: CheckOutput;
  renderedFrom?: string;
}): Promise<{ id: number; pullRequests: PullRequestRef[] }> {
  return options.port.createCheckRun({
    repo: options.repo,
    name: RENDER_CHECK_NAME,
    headSha: options.headSha,
    status: "completed",
    conclusion: options.conclusion,
    output: options.output,
    externalId: formatExternalId({ renderedFrom: options.renderedFrom ?? options.headSha }),
    actions: [RERENDER_ACTION],
  });
}

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
    const { report, headSha, renderedFrom } = options;
    const batches = batchAnnotations(options.annotations);
    const output = (annotations: CheckAnnotation[] | undefined): CheckOutput => ({
      title: report.title,
      summary: report.summary,
      ...(annotations?.length ? { annotations } : {}),
    });
    const final = {
      status: "completed" as const,
      conclusion: report.conclusion,
      externalId: formatExternalId({ renderedFrom }),
    };
    this.#headSha = headSha;
    let pullRequests: PullRequestRef[] = [];
    let next: number;
    let sent: number;
    const adopted = this.#id !== undefined && this.#adoptedSent !== undefined;
    if (adopted) {
      sent = Math.min(this.#adoptedSent ?? 0, options.annotations.length);
      next = Math.ceil(sent / 50);
    } else {
      const single = batches.length <= 1;
      sent = batches[0]?.length ?? 0;
      const created = await this.#port.createCheckRun({
        repo: this.#repo,
        name: RENDER_CHECK_NAME,
        headSha,
        ...(single
          ? final
          : { status: "in_progress" as const, externalId: this.#leased(renderedFrom, sent) }),
        output: output(batches[0]),
        actions: [RERENDER_ACTION],
      });
      this.#id = created.id;
      pullRequests = created.pullRequests;
      next = 1;
    }
    const id = this.#id as number;
    if (next < batches.length) this.#hold(renderedFrom, sent);
    try {
      if (next >= batches.length && adopted) {
        await this.#write(() =>
          this.#port.updateCheckRun({
            repo: this.#repo,
            checkRunId: id,
            ...final,
            output: output(undefined),
          }),
        );
      }
      for (let i = next; i < batches.length; i++) {
        const batch = batches[i] ?? [];
        sent += batch.length;
        const last = i === batches.length - 1;
        await this.#write(() =>
          this.#port.updateCheckRun({
            repo: this.#repo,
            checkRunId: id,
            ...(last ? final : { externalId: this.#leased(renderedFrom, sent) }),
            output: output(batch),
          }),
        );
        if (!last) this.#hold(renderedFrom, sent);
      }
    } catch (error) {
      // The job's retry (or, once the lease ends, any process) adopts the run.
      this.#release();
      throw error;
    }
    this.#completed = true;
    this.#release();
    return { id, pullRequests };
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
