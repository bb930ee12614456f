/**
 * The render pool's dispatch: renders wait in a queue (first come, first served) for an idle worker, or
 * for a new one while the pool has fewer than `budget.workers`; each reply, budget stop or dead worker
 * settles its render and hands the freed capacity to the next one. `close()` is the shutdown: nothing
 * new is taken, every waiting and running render rejects with {@link RenderPoolClosedError}.
 */
import type { RenderBudget } from "../config/render-budget.js";
import { RenderInterruptedError } from "../engine/errors.js";
import type { RenderResult } from "../engine/types.js";
import { overMemoryBudget, overTimeBudget, startBudgetClock } from "./render-budget-limits.js";
import {
  type PoolJob,
  type RenderRequest,
  type Slot,
  type SlotEvents,
  sendJob,
  spawnSlot,
  stopSlot,
  takeJob,
  type WorkerReply,
  type WorkerStart,
} from "./render-worker-slot.js";

/** How one render ended, for metrics: `timeout` / `memory` are budget failures, `crash` a worker that died. */
export type RenderOutcome = "ok" | "failed" | "timeout" | "memory" | "crash";

/** Reported once per render. Durations in ms: `queuedMs` waiting for a worker, `durationMs` rendering. */
export interface RenderPoolEvent {
  outcome: RenderOutcome;
  queuedMs: number;
  durationMs: number;
}

/** A render asked of a closed pool, or cut short by `close()` (the server is shutting down): no verdict. */
export class RenderPoolClosedError extends RenderInterruptedError {
  override readonly name = "RenderPoolClosedError";
  constructor() {
    super("porchlight: the render was stopped because the server is shutting down");
  }
}

/** The workers, the idle ones among them, and the renders waiting for one. */
export class RenderDispatch implements SlotEvents {
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly queue: PoolJob[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly budget: RenderBudget,
    private readonly start: WorkerStart,
    private readonly onRender: ((event: RenderPoolEvent) => void) | undefined,
  ) {}

  /** Queues a render; settles as {@link RenderPool.renderPackage} documents. */
  enqueue(request: RenderRequest): Promise<RenderResult> {
    if (this.closed) return Promise.reject(new RenderPoolClosedError());
    return new Promise<RenderResult>((resolve, reject) => {
      const now = Date.now();
      this.queue.push({ id: this.nextId++, request, enqueuedAt: now, startedAt: now, resolve, reject });
      this.pump();
    });
  }

  stats(): { workers: number; busy: number; queued: number } {
    let busy = 0;
    for (const slot of this.slots) if (slot.job) busy++;
    return { workers: this.slots.size, busy, queued: this.queue.length };
  }

  /** Shutdown: rejects the waiting renders, retires every worker (its render rejects), awaits them. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new RenderPoolClosedError());
    const all = [...this.slots];
    const jobs = all.map((slot) => this.retire(slot));
    for (const job of jobs) job?.reject(new RenderPoolClosedError());
    await Promise.all(all.map((slot) => slot.exited));
  }

  /** Gives waiting renders to idle workers, starting workers up to the budget's count. */
  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      const slot = this.idle.pop() ?? (this.slots.size < this.budget.workers ? this.spawn() : undefined);
      if (!slot) return;
      const job = this.queue.shift() as PoolJob;
      sendJob(slot, job);
      if (slot.ready) this.startClock(slot, job);
    }
  }

  private spawn(): Slot {
    const slot = spawnSlot(this.start, this);
    this.slots.add(slot);
    // A worker that never loads would hold its render for good: no time budget runs before it has.
    slot.timer = setTimeout(() => this.stuck(slot), this.start.startTimeoutMs);
    return slot;
  }

  /** The worker did not load in time: it is killed, its render fails (not the package's fault). */
  private stuck(slot: Slot): void {
    const job = this.retire(slot);
    if (job) {
      this.report(job, "crash");
      job.reject(
        new Error(
          `porchlight: the render worker of package "${job.request.packageName}" did not start within ${this.start.startTimeoutMs} ms`,
        ),
      );
    }
    this.pump();
  }

  /** Removes a worker that timed out, ran out of memory or died; its render (if any) is returned. */
  private retire(slot: Slot): PoolJob | undefined {
    if (slot.gone) return undefined;
    this.slots.delete(slot);
    const at = this.idle.indexOf(slot);
    if (at >= 0) this.idle.splice(at, 1);
    return stopSlot(slot);
  }

  /** The render's time budget runs from now; over it, the worker is terminated and replaced. */
  private startClock(slot: Slot, job: PoolJob): void {
    startBudgetClock(slot, job, this.budget.timeoutMs, () => {
      this.retire(slot);
      this.report(job, "timeout");
      job.resolve(overTimeBudget(job, this.budget));
      this.pump();
    });
  }

  ready(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (slot.job) this.startClock(slot, slot.job);
  }

  reply(slot: Slot, job: PoolJob, reply: Extract<WorkerReply, { id: number }>): void {
    takeJob(slot);
    if ("error" in reply) {
      this.report(job, "crash");
      job.reject(
        new Error(`porchlight: rendering package "${job.request.packageName}" failed: ${reply.error}`),
      );
    } else {
      this.report(job, reply.result.ok ? "ok" : "failed");
      job.resolve(reply.result);
    }
    this.idle.push(slot);
    this.pump();
  }

  error(slot: Slot, error: Error): void {
    const job = this.retire(slot);
    if (job) {
      this.report(job, "crash");
      job.reject(
        new Error(
          `porchlight: the render worker of package "${job.request.packageName}" died: ${error.message}`,
        ),
      );
    }
    this.pump();
  }

  outOfMemory(slot: Slot): void {
    const job = this.retire(slot);
    if (job) {
      this.report(job, "memory");
      job.resolve(overMemoryBudget(job, this.budget));
    }
    this.pump();
  }

  exit(slot: Slot, code: number | NodeJS.Signals): void {
    const job = this.retire(slot);
    if (job) {
      this.report(job, "crash");
      job.reject(
        this.closed
          ? new RenderPoolClosedError()
          : new Error(
              `porchlight: the render worker of package "${job.request.packageName}" exited (${code})${
                // A broken installation or setting: every worker started ends so.
                slot.ready ? "" : " while starting (its error is in the server's log)"
              }`,
            ),
      );
    }
    this.pump();
  }

  private report(job: PoolJob, outcome: RenderOutcome): void {
    this.onRender?.({
      outcome,
      queuedMs: job.startedAt - job.enqueuedAt,
      durationMs: Date.now() - job.startedAt,
    });
  }
}
