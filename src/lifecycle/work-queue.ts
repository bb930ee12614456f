/**
 * Serializes render work per lane (one lane per branch) and drops duplicate work.
 *
 * - A job has a `key` (repo, sha, packages): a key that already completed successfully, or that is
 *   running or waiting, is a duplicate (a redelivered webhook) and is not run again. A job that
 *   failed is forgotten, so a redelivery retries it.
 * - Per lane at most one job runs; of the jobs that arrive while it runs only the newest waits, the
 *   older waiting one is `superseded` (newest head wins: a newer push makes the older render moot).
 *
 * State is IN MEMORY and PER PROCESS: several replicas of the app do not share it (GitHub's
 * non-fast-forward ref update is what keeps them correct; the queue only saves work).
 */

/** What happened to a job. */
export type QueueOutcome<T> = { kind: "done"; value: T } | { kind: "duplicate" } | { kind: "superseded" };

/** What a task learns when it starts: `queued` = it waited behind another job of its lane. */
export interface JobStart {
  queued: boolean;
}

interface Pending<T> {
  key: string;
  task: (start: JobStart) => Promise<T>;
  queued: boolean;
  resolve: (outcome: QueueOutcome<T>) => void;
  reject: (error: unknown) => void;
}

/** Options of {@link WorkQueue}. */
export interface WorkQueueOptions {
  /** How many completed keys to remember for duplicate detection (oldest forgotten first). Default 10000. */
  rememberKeys?: number;
}

export class WorkQueue {
  readonly #done = new Set<string>();
  readonly #active = new Set<string>();
  readonly #running = new Map<string, Promise<void>>();
  // biome-ignore lint/suspicious/noExplicitAny: jobs of any result type share one lane map.
  readonly #waiting = new Map<string, Pending<any>>();
  readonly #remember: number;

  constructor(options: WorkQueueOptions = {}) {
    this.#remember = options.rememberKeys ?? 10_000;
  }

  /** True when `key` completed successfully in this process. */
  isDone(key: string): boolean {
    return this.#done.has(key);
  }

  /** Records `key` as done without running anything (e.g. the app's own commit was already reported). */
  markDone(key: string): void {
    this.#done.delete(key);
    this.#done.add(key);
    while (this.#done.size > this.#remember) {
      const oldest = this.#done.values().next().value;
      if (oldest === undefined) break;
      this.#done.delete(oldest);
    }
  }

  /** Resolves once `lane` has no running or waiting job (at once when it is idle). Never rejects. */
  async idle(lane: string): Promise<void> {
    for (let running = this.#running.get(lane); running; running = this.#running.get(lane)) {
      await running.catch(() => undefined);
    }
  }

  /**
   * Runs `task` in `lane` unless `key` is a duplicate. Resolves when the task ran (`done`), was a
   * duplicate, or was superseded by a newer job of the same lane; rejects with the task's error.
   */
  run<T>(options: {
    lane: string;
    key: string;
    task: (start: JobStart) => Promise<T>;
  }): Promise<QueueOutcome<T>> {
    const { lane, key, task } = options;
    if (this.#done.has(key) || this.#active.has(key)) return Promise.resolve({ kind: "duplicate" });
    return new Promise<QueueOutcome<T>>((resolve, reject) => {
      this.#active.add(key);
      const job: Pending<T> = { key, task, resolve, reject, queued: false };
      if (!this.#running.has(lane)) {
        this.#start(lane, job);
        return;
      }
      job.queued = true;
      const older = this.#waiting.get(lane);
      if (older) {
        this.#active.delete(older.key);
        older.resolve({ kind: "superseded" });
      }
      this.#waiting.set(lane, job);
    });
  }

  #start<T>(lane: string, job: Pending<T>): void {
    const running = (async () => {
      try {
        const value = await job.task({ queued: job.queued });
        this.markDone(job.key);
        job.resolve({ kind: "done", value });
      } catch (error) {
        job.reject(error);
      } finally {
        this.#active.delete(job.key);
      }
    })();
    this.#running.set(
      lane,
      running.then(() => {
        const next = this.#waiting.get(lane);
        this.#waiting.delete(lane);
        this.#running.delete(lane);
        if (next) this.#start(lane, next);
      }),
    );
  }
}
