/**
 * Renders packages off the main event loop, in a pool of worker processes, each render within the
 * operator's time and memory budget: a package with a catastrophic pattern, an alias bomb or a huge file
 * cannot stall health checks, webhooks or other repositories. A render over budget has its worker
 * terminated (and replaced) and fails with a message naming the package and the limit; it never hangs.
 *
 * The workers build their own function runtime from the operator's settings and see only a scrubbed
 * environment (`function-env.ts`): no secret of the server reaches a function.
 *
 * The parts: `render-worker-slot.ts` starts a worker and carries its messages, `render-dispatch.ts` queues
 * renders, hands them to workers and shuts the pool down, `render-budget-limits.ts` runs a render's clock
 * and words the budget failures; this module binds them to the operator's settings.
 */
import type { RenderBudget } from "../config/render-budget.js";
import type { RenderResult } from "../engine/types.js";
import type { StarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import type { ExecConfinement } from "../runtimes/exec/confine.js";
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";
import { RenderDispatch, type RenderPoolEvent } from "./render-dispatch.js";
import type { RenderRequest, WorkerSettings } from "./render-worker-slot.js";

export { RenderPoolClosedError, type RenderPoolEvent } from "./render-dispatch.js";
export type { RenderRequest } from "./render-worker-slot.js";

/** Options of {@link createRenderPool}. */
export interface RenderPoolOptions {
  /** Time, memory and worker-count budgets (`workers` must be at least 1 here). */
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
  /**
   * Time a worker may take to load, in ms (default {@link DEFAULT_WORKER_START_MS}); past it the worker is
   * killed and its render rejects (a stuck start, not the package's fault).
   */
  startTimeoutMs?: number;
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

/** How long a worker may take to load by default (ms): far more than it needs on a busy machine. */
const DEFAULT_WORKER_START_MS = 30_000;

/** The settings a worker is started with: the operator's runtime permissions and starlark limits. */
function workerSettings(options: RenderPoolOptions): WorkerSettings {
  const { runtime } = options;
  return {
    allowExec: runtime.allowExec,
    allowContainers: runtime.allowContainers,
    starlarkMaxSteps: options.budget.starlarkMaxSteps,
    starlark: options.starlark,
    ...(runtime.execTimeoutMs !== undefined ? { execTimeoutMs: runtime.execTimeoutMs } : {}),
    ...(runtime.functionRunner ? { functionRunner: runtime.functionRunner } : {}),
    ...(runtime.execConfinement ? { execConfinement: runtime.execConfinement } : {}),
  };
}

/** Only the request's own fields cross to the worker (never a runtime or a callback). */
function ownFields(options: RenderRequest): RenderRequest {
  return {
    files: options.files,
    packageName: options.packageName,
    ...(options.packageDir !== undefined ? { packageDir: options.packageDir } : {}),
    ...(options.pushOnFailure !== undefined ? { pushOnFailure: options.pushOnFailure } : {}),
    ...(options.writeStatus !== undefined ? { writeStatus: options.writeStatus } : {}),
    ...(options.kptfileStatus !== undefined ? { kptfileStatus: options.kptfileStatus } : {}),
  };
}

/**
 * Starts a pool of render workers (lazily: a worker starts when a render needs it).
 * @throws Error when `budget.workers` is below 1.
 */
export function createRenderPool(options: RenderPoolOptions): RenderPool {
  const { budget } = options;
  if (budget.workers < 1) throw new Error("createRenderPool: budget.workers must be at least 1");
  const dispatch = new RenderDispatch(
    budget,
    {
      url: options.workerUrl ?? new URL("./render-worker.js", import.meta.url),
      settings: workerSettings(options),
      env: { ...options.env },
      memoryMb: budget.memoryMb,
      startTimeoutMs: options.startTimeoutMs ?? DEFAULT_WORKER_START_MS,
    },
    options.onRender,
  );
  return {
    renderPackage: (request) => dispatch.enqueue(ownFields(request)),
    stats: () => dispatch.stats(),
    close: () => dispatch.close(),
  };
}
