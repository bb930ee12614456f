/**
 * The in-process {@link WorkQueue} (the default: one process needs nothing else). Keeps the contract of
 * ./work-queue.ts in memory: one running and one waiting job per key, the newest hint wins, retries with
 * backoff, installations served in turn (round-robin) and never more than `concurrency - 1` jobs of one
 * installation at once (a slot stays free for the others: one installation's flood never makes another's
 * first job wait for a slot), a memo with expiry.
 *
 * What a crash loses: the jobs waiting or running in this process. Nothing else is stored here, and
 * reconciliation (on start, then every interval) finds their work again from GitHub's state.
 */
import {
  DEFAULT_RETRY,
  type Job,
  type JobHandler,
  jobKey,
  type RetryPolicy,
  type WorkQueue,
} from "../lifecycle/work-queue.js";

/** Options of {@link EmbeddedQueue}. */
export interface EmbeddedQueueOptions {
  /** Jobs running at once (all installations together). Default 4. */
  concurrency?: number;
  /** Retry policy; see {@link DEFAULT_RETRY}. */
  retry?: Partial<RetryPolicy>;
  /** Called when a job fails for good (not retried, or out of attempts). */
  onFailed?: (job: Job, error: unknown) => void;
  /** Memo entries kept at most (oldest dropped first). Default 100,000. */
  memoSize?: number;
  /** Clock (tests). */
  now?: () => number;
}

interface Waiting {
  job: Job;
  attempt: number;
  /** Not before this time (ms): a retry's backoff. */
  readyAt: number;
}

export class EmbeddedQueue implements WorkQueue {
  readonly #concurrency: number;
  readonly #retry: RetryPolicy;
  readonly #onFailed: (job: Job, error: unknown) => void;
  readonly #memoSize: number;
  readonly #now: () => number;
  readonly #waiting = new Map<string, Waiting>();
  readonly #running = new Map<string, Promise<void>>();
  /** Running jobs per installation. */
  readonly #runningOf = new Map<number, number>();
  readonly #memo = new Map<string, number>();
  readonly #idle: (() => void)[] = [];
  #handler: JobHandler | undefined;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #lastInstallation = -Infinity;

  constructor(options: EmbeddedQueueOptions = {}) {
    this.#concurrency = Math.max(1, options.concurrency ?? 4);
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#onFailed = options.onFailed ?? (() => undefined);
    this.#memoSize = options.memoSize ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  async enqueue(job: Job): Promise<void> {
    if (this.#closed) return;
    const key = jobKey(job);
    // A waiting job of this key takes the newest hint and runs as soon as its key is free.
    this.#waiting.set(key, { job, attempt: 1, readyAt: this.#now() });
    this.#pump();
  }

  async start(handler: JobHandler): Promise<void> {
    if (this.#handler) throw new Error("the work queue is already started");
    this.#handler = handler;
    this.#pump();
  }

  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#waiting.clear();
    await Promise.all([...this.#running.values()]);
    this.#settle();
  }

  async remember(key: string, ttlMs: number): Promise<void> {
    this.#memo.delete(key);
    this.#memo.set(key, this.#now() + ttlMs);
    while (this.#memo.size > this.#memoSize) {
      const oldest = this.#memo.keys().next().value;
      if (oldest === undefined) break;
      this.#memo.delete(oldest);
    }
  }

  async remembers(key: string): Promise<boolean> {
    const expires = this.#memo.get(key);
    if (expires === undefined) return false;
    if (expires > this.#now()) return true;
    this.#memo.delete(key);
    return false;
  }

  async depth(): Promise<{ waiting: number; running: number }> {
    return { waiting: this.#waiting.size, running: this.#running.size };
  }

  #isIdle(): boolean {
    return this.#waiting.size === 0 && this.#running.size === 0;
  }

  #settle(): void {
    if (!this.#isIdle()) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Jobs one installation may run at once: all but one slot (all when there is one). */
  get #perInstallation(): number {
    return Math.max(1, this.#concurrency - 1);
  }

  /**
   * The next job to start: the first ready one of the installation after the last one served, among
   * the installations under {@link #perInstallation}.
   */
  #next(): [string, Waiting] | undefined {
    const now = this.#now();
    const firstPerInstallation = new Map<number, [string, Waiting]>();
    for (const entry of this.#waiting) {
      const [key, waiting] = entry;
      if (this.#running.has(key) || waiting.readyAt > now) continue;
      if ((this.#runningOf.get(waiting.job.installationId) ?? 0) >= this.#perInstallation) continue;
      if (!firstPerInstallation.has(waiting.job.installationId))
        firstPerInstallation.set(waiting.job.installationId, entry);
    }
    if (firstPerInstallation.size === 0) return undefined;
    const ids = [...firstPerInstallation.keys()].sort((a, b) => a - b);
    const id = ids.find((i) => i > this.#lastInstallation) ?? ids[0]!;
    this.#lastInstallation = id;
    return firstPerInstallation.get(id);
  }

  #pump(): void {
    if (!this.#handler || this.#closed) return;
    while (this.#running.size < this.#concurrency) {
      const next = this.#next();
      if (!next) break;
      this.#run(next[0], next[1]);
    }
    this.#armTimer();
    this.#settle();
  }

  /** Wakes the queue when the earliest delayed retry becomes ready. */
  #armTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const delayed = [...this.#waiting.values()].map((w) => w.readyAt).filter((t) => t > this.#now());
    if (delayed.length === 0) return;
    this.#timer = setTimeout(() => this.#pump(), Math.max(0, Math.min(...delayed) - this.#now()));
    this.#timer.unref?.();
  }

  #run(key: string, waiting: Waiting): void {
    this.#waiting.delete(key);
    const { installationId } = waiting.job;
    this.#runningOf.set(installationId, (this.#runningOf.get(installationId) ?? 0) + 1);
    const handler = this.#handler as JobHandler;
    const running = (async () => {
      try {
        await handler(waiting.job, { attempt: waiting.attempt });
      } catch (error) {
        this.#failed(key, waiting, error);
      }
    })().finally(() => {
      this.#running.delete(key);
      const left = (this.#runningOf.get(installationId) ?? 1) - 1;
      if (left > 0) this.#runningOf.set(installationId, left);
      else this.#runningOf.delete(installationId);
      this.#pump();
    });
    this.#running.set(key, running);
  }

  #failed(key: string, waiting: Waiting, error: unknown): void {
    const retry =
      !this.#closed && this.#retry.isRetryable(error) && waiting.attempt < this.#retry.maxAttempts;
    if (!retry) {
      this.#onFailed(waiting.job, error);
      return;
    }
    // A newer hint that arrived meanwhile runs instead (it re-reads everything anyway).
    if (this.#waiting.has(key)) return;
    this.#waiting.set(key, {
      job: waiting.job,
      attempt: waiting.attempt + 1,
      readyAt: this.#now() + this.#retry.retryDelayMs(waiting.attempt, error),
    });
  }
}
