/**
 * The work queue on Redis (BullMQ), used when `REDIS_URL` is set: any number of identical app processes
 * share it — webhook receivers enqueue and answer at once, workers run the jobs. It keeps the work-queue
 * contract (`src/lifecycle/work-queue.ts`) across processes:
 *
 * 1. Per key at most one job runs and one waits: BullMQ `deduplication` with `keepLastIfActive` (a key
 *    that runs stores the newest hint and turns it into ONE job when the run ends; plain deduplication
 *    would drop the newest head) and `replace` (a key delayed for a retry is replaced by the new hint,
 *    which runs at once). A hint for a key that already waits updates the waiting job's data.
 * 2. Retryable errors run the job again after the policy's backoff (BullMQ `attempts` with a custom
 *    backoff), and so does a run cut short by this process's shutdown (another process takes it);
 *    other errors end it (`onFailed`).
 * 3. Installations are served fairly: a job's BullMQ priority is the number of jobs its installation
 *    enqueued in the current window (`fairnessWindowMs`), so a burst of one installation queues behind
 *    the first jobs of the others instead of in front of them; and a process runs at most
 *    `concurrency - 1` jobs of one installation at once (a job over that is put back, delayed
 *    `FAIR_DELAY_MS`, without counting an attempt: BullMQ's `moveToDelayed` + `DelayedError`), so a slot
 *    stays free for another installation's first job (BullMQ Pro's groups, which would do this across
 *    processes, are not used).
 * 4. A crashed worker's job is not lost: its lock expires after `lockMs` and BullMQ's stalled-job check
 *    (run every `lockMs` by every live worker) puts it back: it runs again within 2 × `lockMs` (60 s by
 *    default) once any worker is alive. A job that stalls 3 times fails (`onFailed`).
 * 5. `remember` / `remembers`: a memo shared by every process (`SET key PX ttl`).
 * 6. Redis lost: a connection that comes back (Redis restarted, maybe EMPTY: every job, lock and memo
 *    gone) calls `onReconnect` listeners at once — the app reconciles then, re-deriving what must be
 *    done from GitHub instead of waiting for the next interval — and a job whose run failed retryably
 *    after its BullMQ job vanished (no lock, no record to retry from) is enqueued again. At start and
 *    on every reconnect `maxmemory-policy` is checked: anything but `noeviction` lets Redis drop jobs
 *    under memory pressure (`onWarning`).
 *
 * Jobs are plain JSON. Keys in Redis are under `<prefix>:<name>:` (BullMQ) and `<prefix>:memo:` /
 * `<prefix>:fair:` (ours).
 */
import { randomUUID } from "node:crypto";
import { Job as BullJob, DelayedError, Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { BullWorkQueueOptions, QueueJob, QueueJobRun } from "./bullmq-options.js";
import { waitForRedis } from "./redis-connection.js";

export type { BullWorkQueueOptions } from "./bullmq-options.js";

interface Stored<J> {
  job: J;
}

/** BullMQ priorities are 1 (first) to 2^21 - 1. */
const MAX_PRIORITY = 2_097_151;
/** How long a job over its installation's share of this process waits before it is taken again, ms. */
const FAIR_DELAY_MS = 500;
/** States of a job that has not started. */
const NOT_STARTED = new Set(["waiting", "prioritized", "delayed", "paused"]);

/** The BullMQ work queue; see the module comment. */
export class BullWorkQueue<J extends QueueJob> {
  readonly #options: BullWorkQueueOptions<J>;
  readonly #prefix: string;
  readonly #name: string;
  readonly #lockMs: number;
  readonly #redis: Redis;
  readonly #queue: Queue<Stored<J>>;
  #worker: Worker<Stored<J>> | undefined;
  #workerRedis: Redis | undefined;
  readonly #rethrown = new WeakSet<object>();
  readonly #reconnectListeners: (() => void)[] = [];
  /** Jobs this process runs per installation. */
  readonly #runningOf = new Map<number, number>();
  #readyCount = 0;
  #closed = false;

  constructor(options: BullWorkQueueOptions<J>) {
    this.#options = options;
    this.#prefix = options.prefix ?? "porchlight";
    this.#name = options.name ?? "jobs";
    this.#lockMs = options.lockMs ?? 30_000;
    this.#redis = this.#connect();
    this.#redis.on("ready", () => this.#onReady());
    this.#queue = new Queue<Stored<J>>(this.#name, { connection: this.#redis, prefix: this.#prefix });
    this.#queue.on("error", (error) => this.#error(error));
  }

  /** Every (re)connection: check the eviction policy; after the first, tell the listeners. */
  #onReady(): void {
    this.#readyCount++;
    void this.#checkEvictionPolicy();
    if (this.#readyCount === 1 || this.#closed) return;
    for (const listener of this.#reconnectListeners) listener();
  }

  /** Warns unless Redis answers `maxmemory_policy:noeviction` (`INFO memory`; unknown: no warning). */
  async #checkEvictionPolicy(): Promise<void> {
    const info = await this.#redis.info("memory").catch(() => "");
    const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    if (policy && policy !== "noeviction")
      this.#options.onWarning?.(
        `Redis maxmemory-policy is ${policy}: set it to noeviction, or Redis may evict queued jobs and locks under memory pressure (BullMQ's requirement)`,
      );
  }

  /** Calls `listener` whenever the connection to Redis is ready again after being lost. */
  onReconnect(listener: () => void): void {
    this.#reconnectListeners.push(listener);
  }

  #connect(): Redis {
    const redis = new Redis(this.#options.redisUrl, { maxRetriesPerRequest: null });
    redis.on("error", (error) => this.#error(error));
    return redis;
  }

  #error(error: Error): void {
    this.#options.onError?.(error);
  }

  /**
   * Resolves once Redis answers; rejects after `timeoutMs` (default 10 s, ioredis reconnecting
   * meanwhile) with an error naming `REDIS_URL` (password hidden) and what failed. Start-up calls it so
   * an unreachable Redis stops the process with that message instead of jobs that never run.
   */
  async ready(timeoutMs?: number): Promise<void> {
    await waitForRedis(this.#redis, {
      url: this.#options.redisUrl,
      purpose: "the work queue",
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  }

  /** Stores a hint (resolves once Redis has it). */
  async enqueue(job: J): Promise<void> {
    if (this.#closed) return;
    const key = this.#options.keyOf(job);
    const id = randomUUID();
    const added = await this.#queue.add(
      job.kind,
      { job },
      {
        jobId: id,
        priority: await this.#priority(job.installationId),
        deduplication: { id: key, keepLastIfActive: true, replace: true },
        attempts: this.#options.retry.maxAttempts,
        backoff: { type: "porchlight" },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
    if (added.id === id) return;
    // Deduplicated: a job of this key waits (give it the newest hint) or runs (BullMQ keeps the newest).
    const existing = added.id ? await BullJob.fromId<Stored<J>>(this.#queue, added.id) : undefined;
    if (existing && NOT_STARTED.has(await existing.getState()))
      await existing.updateData({ job }).catch(() => undefined);
  }

  /** The number of jobs this installation enqueued in the current window, as a BullMQ priority. */
  async #priority(installationId: number): Promise<number> {
    const key = `${this.#prefix}:fair:${installationId}`;
    const window = this.#options.fairnessWindowMs ?? 60_000;
    const result = await this.#redis.multi().set(key, 0, "PX", window, "NX").incr(key).exec();
    const count = Number(result?.[1]?.[1] ?? 1);
    return Math.min(Math.max(1, count), MAX_PRIORITY);
  }

  /** Starts running jobs in this process with `handler` (once). */
  async start(handler: (job: J, run: QueueJobRun) => Promise<void>): Promise<void> {
    if (this.#worker) throw new Error("the work queue is already started");
    const { retry } = this.#options;
    this.#workerRedis = this.#connect();
    this.#worker = new Worker<Stored<J>>(this.#name, (bull, token) => this.#process(bull, token, handler), {
      connection: this.#workerRedis,
      prefix: this.#prefix,
      concurrency: this.#options.concurrency ?? 4,
      lockDuration: this.#lockMs,
      stalledInterval: this.#lockMs,
      maxStalledCount: 2,
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) =>
          retry.retryDelayMs(attemptsMade, error),
      },
    });
    this.#worker.on("error", (error) => this.#error(error));
    // A job that failed outside the handler (stalled too often): report it once.
    this.#worker.on("failed", (bull, error) => {
      if (this.#rethrown.has(error) || !bull) return;
      this.#options.onFailed?.(bull.data.job, error);
    });
    await this.#worker.waitUntilReady();
  }

  /**
   * One BullMQ job: put back (delayed, no attempt counted) when its installation has its share of this
   * process already, else run by `handler` with the retry rules of the module comment.
   */
  async #process(
    bull: BullJob<Stored<J>>,
    token: string | undefined,
    handler: (job: J, run: QueueJobRun) => Promise<void>,
  ): Promise<void> {
    const { job } = bull.data;
    const share = Math.max(1, (this.#options.concurrency ?? 4) - 1);
    const running = this.#runningOf.get(job.installationId) ?? 0;
    if (running >= share && token) {
      await bull.moveToDelayed(Date.now() + FAIR_DELAY_MS, token);
      throw new DelayedError();
    }
    this.#runningOf.set(job.installationId, running + 1);
    try {
      await this.#run(bull, handler);
    } finally {
      const left = (this.#runningOf.get(job.installationId) ?? 1) - 1;
      if (left > 0) this.#runningOf.set(job.installationId, left);
      else this.#runningOf.delete(job.installationId);
    }
  }

  /** Runs one job; a retryable failure is thrown back to BullMQ (or enqueued again when its job vanished). */
  async #run(bull: BullJob<Stored<J>>, handler: (job: J, run: QueueJobRun) => Promise<void>): Promise<void> {
    const { retry } = this.#options;
    const { job } = bull.data;
    const attempt = bull.attemptsMade + 1;
    try {
      await handler(job, { attempt });
    } catch (error) {
      // A run cut short by this process's shutdown runs again in another process.
      if ((this.#closed || retry.isRetryable(error)) && attempt < retry.maxAttempts) {
        this.#options.onRunEnd?.(job, "retried");
        // Its BullMQ job vanished (Redis came back empty): nothing would retry it.
        if (!this.#closed && (await this.#vanished(bull.id))) {
          await this.enqueue(job).catch((e: unknown) => this.#error(e as Error));
          return;
        }
        if (typeof error === "object" && error) this.#rethrown.add(error);
        throw error;
      }
      this.#options.onRunEnd?.(job, "failed");
      this.#options.onFailed?.(job, error);
      return;
    }
    this.#options.onRunEnd?.(job, "done");
  }

  /** True when Redis no longer holds job `id` (a retry could not be recorded). */
  async #vanished(id: string | undefined): Promise<boolean> {
    if (!id) return true;
    const state = await this.#queue.getJobState(id).catch(() => "unknown");
    return state === "unknown";
  }

  /** Jobs waiting (incl. delayed retries and prioritized) and running, over every process. */
  async depth(): Promise<{ waiting: number; running: number }> {
    const c = await this.#queue.getJobCounts("waiting", "prioritized", "delayed", "active");
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0),
      running: c.active ?? 0,
    };
  }

  /** Resolves when no job waits, is delayed or runs in any process (tests, benchmarks). */
  async idle(): Promise<void> {
    for (;;) {
      const { waiting, running } = await this.depth();
      if (waiting === 0 && running === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops taking jobs; resolves when this process's running jobs have finished; closes the connections. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#worker?.close();
    await this.#queue.close();
    await Promise.all([this.#redis, this.#workerRedis].map((r) => r?.quit().catch(() => undefined)));
  }

  /** Remembers `key` for `ttlMs` in every process. */
  async remember(key: string, ttlMs: number): Promise<void> {
    await this.#redis.set(`${this.#prefix}:memo:${key}`, "1", "PX", Math.max(1, Math.round(ttlMs)));
  }

  /** True when some process remembered `key` and it has not expired. */
  async remembers(key: string): Promise<boolean> {
    return (await this.#redis.exists(`${this.#prefix}:memo:${key}`)) === 1;
  }
}
