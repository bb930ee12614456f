/**
 * Renders packages off the main event loop, in a pool of worker threads, each render within the
 * operator's time and memory budget: a package with a catastrophic pattern, an alias bomb or a huge file
 * cannot stall health checks, webhooks or other repositories. A render over budget has its worker
 * terminated (and replaced) and fails with a message naming the package and the limit; it never hangs.
 *
 * The workers build their own function runtime from the operator's settings and see only a scrubbed
 * environment (`function-env.ts`): no secret of the server reaches a function.
 */
import { Worker } from "node:worker_threads";
import type { RenderBudget } from "../config/render-budget.js";
import { RenderInterruptedError } from "../engine/errors.js";
import type { KptfileStatusMode, PushOnFailure, RenderResult } from "../engine/types.js";
import type { StarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import type { ExecConfinement } from "../runtimes/exec/confine.js";
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";

/** What a worker is started with (`workerData`): the operator's runtime permissions, nothing else. */
export interface WorkerSettings {
  allowExec: boolean;
  allowContainers: boolean;
  execTimeoutMs?: number;
  /** The operator's limits on `exec:` functions (allowed programs, the user they run as). */
  execConfinement?: ExecConfinement;
  /** The operator's function runner (plain data: address, allow-list, TLS PEM texts, time limit). */
  functionRunner?: FunctionRunnerSettings;
  starlarkMaxSteps: number;
  /** The starlark function's settings, read in the main process (workers see a scrubbed environment). */
  starlark: StarlarkSettings;
}

/** One render asked of the pool: the engine's `RenderOptions` without the runtime (each worker binds its own). */
export interface RenderRequest {
  files: ReadonlyMap<string, Uint8Array>;
  packageName: string;
  packageDir?: string;
  pushOnFailure?: PushOnFailure;
  kptfileStatus?: KptfileStatusMode;
  writeStatus?: boolean;
}

/** One render as sent to a worker. */
export interface WorkerRequest {
  id: number;
  request: RenderRequest;
}

/**
 * A worker's message: `ready` once it has loaded (the time budget of a render starts then), then per
 * render the result (without `resources`) or the text of an unexpected error.
 */
export type WorkerReply =
  | { ready: true }
  | { id: number; result: RenderResult }
  | { id: number; error: string };

/** How one render ended, for metrics: `timeout` / `memory` are budget failures, `crash` a worker that died. */
export type RenderOutcome = "ok" | "failed" | "timeout" | "memory" | "crash";

/** Reported once per render. Durations in ms: `queuedMs` waiting for a worker, `durationMs` rendering. */
export interface RenderPoolEvent {
  outcome: RenderOutcome;
  queuedMs: number;
  durationMs: number;
}

/** Options of {@link createRenderPool}. */
export interface RenderPoolOptions {
  /** Time, memory and thread budgets (`workers` must be at least 1 here). */
  budget: RenderBudget;
  /** The operator's runtime permissions (kpt's `--allow-exec`; containers). */
  runtime: {
    allowExec: boolean;
    allowContainers: boolean;
    execTimeoutMs?: number;
    execConfinement?: ExecConfinement;
    functionRunner?: FunctionRunnerSettings;
  };
  /** Environment of the workers: the operator's allowlist without secrets (`config/function-env.ts`). */
  env: Readonly<Record<string, string>>;
  /** The starlark function's settings (workers see a scrubbed environment, so they are read here). */
  starlark: StarlarkSettings;
  /** The worker script; default the compiled `render-worker.js` beside this module. */
  workerUrl?: URL;
  /** Called once per render (metrics). */
  onRender?: (event: RenderPoolEvent) => void;
}

/** A pool of render workers, each with the function runtime it built from the operator's settings. */
export interface RenderPool {
  /**
   * Renders one package in a worker. Resolves with the engine's result, or with a failed result
   * (`ok: false`, nothing stored) when the render went over its time or memory budget.
   * @throws RenderPoolClosedError after `close()`; Error when the engine itself threw (a porchlight bug).
   */
  renderPackage(request: RenderRequest): Promise<RenderResult>;
  /** Current size: started workers, those rendering, renders waiting for a worker. */
  stats(): { workers: number; busy: number; queued: number };
  /** Terminates every worker; renders in flight or waiting reject with RenderPoolClosedError. */
  close(): Promise<void>;
}

/** A render asked of a closed pool, or cut short by `close()` (the server is shutting down): no verdict. */
export class RenderPoolClosedError extends RenderInterruptedError {
  override readonly name = "RenderPoolClosedError";
  constructor() {
    super("porchlight: the render was stopped because the server is shutting down");
  }
}

interface Job {
  id: number;
  request: RenderRequest;
  enqueuedAt: number;
  startedAt: number;
  resolve: (result: RenderResult) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The worker has loaded the engine (a render's time budget does not include start-up). */
  ready: boolean;
  gone: boolean;
}

/** A failed render that stores nothing: the message names the package and the limit it went over. */
export function budgetFailure(message: string): RenderResult {
  return {
    ok: false,
    files: undefined,
    status: { conditions: [{ type: "Rendered", status: "False", reason: "RenderFailed", message }] },
    steps: [],
    error: message,
    failedBeforeRender: true,
    cliError: message,
  };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Starts a pool of render workers (lazily: a worker starts when a render needs it). */
export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const { budget } = options;
  if (budget.workers < 1) throw new Error("createRenderPool: budget.workers must be at least 1");
  const workerUrl = options.workerUrl ?? new URL("./render-worker.js", import.meta.url);
  const env = { ...options.env };
  const workerData: WorkerSettings = {
    allowExec: options.runtime.allowExec,
    allowContainers: options.runtime.allowContainers,
    starlarkMaxSteps: budget.starlarkMaxSteps,
    starlark: options.starlark,
    ...(options.runtime.execTimeoutMs !== undefined ? { execTimeoutMs: options.runtime.execTimeoutMs } : {}),
    ...(options.runtime.functionRunner ? { functionRunner: options.runtime.functionRunner } : {}),
    ...(options.runtime.execConfinement ? { execConfinement: options.runtime.execConfinement } : {}),
  };
  const slots = new Set<Slot>();
  const idle: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const report = (job: Job, outcome: RenderOutcome) =>
    options.onRender?.({
      outcome,
      queuedMs: job.startedAt - job.enqueuedAt,
      durationMs: Date.now() - job.startedAt,
    });

  /** Takes the slot's job off it (and its timer); the slot is then free or gone. */
  const release = (slot: Slot): Job | undefined => {
    const job = slot.job;
    slot.job = undefined;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    return job;
  };

  /** Removes a worker that timed out, ran out of memory or died; its job (if any) is returned. */
  const retire = (slot: Slot): Job | undefined => {
    if (slot.gone) return undefined;
    slot.gone = true;
    slots.delete(slot);
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    const job = release(slot);
    void slot.worker.terminate();
    return job;
  };

  const spawn = (): Slot => {
    const worker = new Worker(workerUrl, {
      workerData,
      env,
      resourceLimits: { maxOldGenerationSizeMb: budget.memoryMb },
    });
    // A worker never keeps the process alive by itself (a waiting render's timer does).
    worker.unref();
    const slot: Slot = { worker, job: undefined, timer: undefined, ready: false, gone: false };
    worker.on("message", (reply: WorkerReply) => {
      if ("ready" in reply) {
        slot.ready = true;
        if (slot.job) startClock(slot, slot.job);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      release(slot);
      if ("error" in reply) {
        report(job, "crash");
        job.reject(
          new Error(`porchlight: rendering package "${job.request.packageName}" failed: ${reply.error}`),
        );
      } else {
        report(job, reply.result.ok ? "ok" : "failed");
        job.resolve(reply.result);
      }
      idle.push(slot);
      pump();
    });
    worker.on("error", (err: Error & { code?: string }) => {
      const job = retire(slot);
      if (job) {
        if (err.code === "ERR_WORKER_OUT_OF_MEMORY") {
          report(job, "memory");
          job.resolve(
            budgetFailure(
              `porchlight: rendering package "${job.request.packageName}" was stopped: it went over the memory budget of ${budget.memoryMb} MiB (PORCHLIGHT_RENDER_MEMORY_MB)`,
            ),
          );
        } else {
          report(job, "crash");
          job.reject(
            new Error(
              `porchlight: the render worker of package "${job.request.packageName}" died: ${err.message}`,
            ),
          );
        }
      }
      pump();
    });
    worker.on("exit", (code) => {
      const job = retire(slot);
      if (job) {
        report(job, "crash");
        job.reject(
          closed
            ? new RenderPoolClosedError()
            : new Error(
                `porchlight: the render worker of package "${job.request.packageName}" exited (${code})`,
              ),
        );
      }
      pump();
    });
    slots.add(slot);
    return slot;
  };

  const dispatch = (slot: Slot, job: Job) => {
    slot.job = job;
    slot.worker.postMessage({ id: job.id, request: job.request } satisfies WorkerRequest);
    if (slot.ready) startClock(slot, job);
  };

  /** The render's time budget runs from now (the worker is ready and has the request). */
  const startClock = (slot: Slot, job: Job) => {
    job.startedAt = Date.now();
    slot.timer = setTimeout(() => {
      if (slot.job !== job) return;
      retire(slot);
      report(job, "timeout");
      job.resolve(
        budgetFailure(
          `porchlight: rendering package "${job.request.packageName}" was stopped: it went over the time budget of ${seconds(budget.timeoutMs)} (PORCHLIGHT_RENDER_TIMEOUT_MS)`,
        ),
      );
      pump();
    }, budget.timeoutMs);
  };

  const pump = () => {
    while (!closed && queue.length > 0) {
      const slot = idle.pop() ?? (slots.size < budget.workers ? spawn() : undefined);
      if (!slot) return;
      dispatch(slot, queue.shift() as Job);
    }
  };

  return {
    renderPackage(renderOptions) {
      if (closed) return Promise.reject(new RenderPoolClosedError());
      // Only the request's own fields cross to the worker (never a runtime or a callback).
      const request: RenderRequest = {
        files: renderOptions.files,
        packageName: renderOptions.packageName,
        ...(renderOptions.packageDir !== undefined ? { packageDir: renderOptions.packageDir } : {}),
        ...(renderOptions.pushOnFailure !== undefined ? { pushOnFailure: renderOptions.pushOnFailure } : {}),
        ...(renderOptions.writeStatus !== undefined ? { writeStatus: renderOptions.writeStatus } : {}),
        ...(renderOptions.kptfileStatus !== undefined ? { kptfileStatus: renderOptions.kptfileStatus } : {}),
      };
      return new Promise<RenderResult>((resolve, reject) => {
        const now = Date.now();
        queue.push({ id: nextId++, request, enqueuedAt: now, startedAt: now, resolve, reject });
        pump();
      });
    },
    stats() {
      let busy = 0;
      for (const slot of slots) if (slot.job) busy++;
      return { workers: slots.size, busy, queued: queue.length };
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new RenderPoolClosedError());
      const all = [...slots];
      const jobs = all.map(retire);
      for (const job of jobs) job?.reject(new RenderPoolClosedError());
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
