/**
 * One render worker of the pool and what crosses to it: the settings it is started with, the render it is
 * sent, its replies. A slot is a worker thread with the render it holds (at most one) and that render's
 * budget timer; the pool decides what to do on each of the worker's events.
 */
import { Worker } from "node:worker_threads";
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

/** A render in the pool: waiting for a worker, then held by one. Times are `Date.now()` ms. */
export interface PoolJob {
  id: number;
  request: RenderRequest;
  enqueuedAt: number;
  /** When its time budget started (the worker was ready and had the request). */
  startedAt: number;
  resolve: (result: RenderResult) => void;
  reject: (error: unknown) => void;
}

/** A worker of the pool and the render it holds. */
export interface Slot {
  worker: Worker;
  job: PoolJob | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The worker has loaded the engine (a render's time budget does not include start-up). */
  ready: boolean;
  /** Retired: terminated (or terminating), never given another render. */
  gone: boolean;
}

/** How a worker is started: its script, settings, environment and heap limit (MiB). */
export interface WorkerStart {
  url: URL;
  workerData: WorkerSettings;
  env: Record<string, string>;
  memoryMb: number;
}

/** What the pool does on a worker's events (Node's `message`, `error`, `exit`). */
export interface SlotEvents {
  /** The worker has loaded. */
  ready(slot: Slot): void;
  /** The reply to the render the slot holds (replies to another render are dropped before this). */
  reply(slot: Slot, job: PoolJob, reply: Exclude<WorkerReply, { ready: true }>): void;
  /** The worker threw or ran out of heap (`code` `ERR_WORKER_OUT_OF_MEMORY`). */
  error(slot: Slot, error: Error & { code?: string }): void;
  /** The worker's thread ended (`code` its exit code). */
  exit(slot: Slot, code: number): void;
}

/** Starts a worker thread with the heap limit of the budget; it never keeps the process alive by itself. */
export function spawnSlot(start: WorkerStart, events: SlotEvents): Slot {
  const worker = new Worker(start.url, {
    workerData: start.workerData,
    env: start.env,
    resourceLimits: { maxOldGenerationSizeMb: start.memoryMb },
  });
  // A waiting render's timer keeps the process alive, not the worker.
  worker.unref();
  const slot: Slot = { worker, job: undefined, timer: undefined, ready: false, gone: false };
  worker.on("message", (reply: WorkerReply) => {
    if ("ready" in reply) {
      slot.ready = true;
      events.ready(slot);
      return;
    }
    const job = slot.job;
    if (job && job.id === reply.id) events.reply(slot, job, reply);
  });
  worker.on("error", (error: Error & { code?: string }) => events.error(slot, error));
  worker.on("exit", (code) => events.exit(slot, code));
  return slot;
}

/** Hands the slot its render and sends it to the worker. */
export function sendJob(slot: Slot, job: PoolJob): void {
  slot.job = job;
  slot.worker.postMessage({ id: job.id, request: job.request } satisfies WorkerRequest);
}

/** Takes the slot's render off it (and its timer); the slot is then free or gone. */
export function takeJob(slot: Slot): PoolJob | undefined {
  const job = slot.job;
  slot.job = undefined;
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = undefined;
  return job;
}

/**
 * Marks the slot gone and terminates its worker (once); returns the render it held, if any.
 * `undefined` too when the slot was retired already.
 */
export function stopSlot(slot: Slot): PoolJob | undefined {
  if (slot.gone) return undefined;
  slot.gone = true;
  const job = takeJob(slot);
  void slot.worker.terminate();
  return job;
}
