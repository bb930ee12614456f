/** The shapes the BullMQ work queue (./bullmq-queue.ts) is built from: its jobs, retry policy and options. */
/** What the queue needs to know of a job: its kind (for logs and metrics) and its installation. */
export interface QueueJob {
  kind: string;
  installationId: number;
}

/** The retry policy (same shape as the embedded queue's). */
export interface QueueRetryPolicy {
  maxAttempts: number;
  isRetryable: (error: unknown) => boolean;
  /** Delay before run `attempt + 1`, ms. */
  retryDelayMs: (attempt: number, error: unknown) => number;
}

/** Options of {@link BullWorkQueue}. */
export interface BullWorkQueueOptions<J extends QueueJob> {
  /** `redis://[:password@]host:port[/db]` (a secret: never logged). */
  redisUrl: string;
  /** The deduplication key of a job (one per branch, pull request, ...). */
  keyOf: (job: J) => string;
  retry: QueueRetryPolicy;
  /** Jobs this process runs at once. Default 4. */
  concurrency?: number;
  /** Queue name. Default `jobs`. */
  name?: string;
  /** Redis key prefix. Default `porchlight`. */
  prefix?: string;
  /** Job lock and stalled-check interval, ms. Default 30 000. */
  lockMs?: number;
  /** Window of the per-installation job count that sets priorities, ms. Default 60 000. */
  fairnessWindowMs?: number;
  /** A job failed for good (not retryable, out of attempts, or stalled too often). */
  onFailed?: (job: J, error: unknown) => void;
  /** Every run's end (metrics). */
  onRunEnd?: (job: J, outcome: "done" | "retried" | "failed") => void;
  /** Connection and worker errors (never carry the URL's password). */
  onError?: (error: Error) => void;
  /** Something the operator should fix (a `maxmemory-policy` other than `noeviction`). */
  onWarning?: (message: string) => void;
}

/** What a handler learns about its run. */
export interface QueueJobRun {
  /** 1 for the first run, 2 for the first retry, ... */
  attempt: number;
}
