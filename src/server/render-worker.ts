/**
 * A render worker process: builds its function runtime once from the operator's settings (never from
 * the repository), sent as its first message, then renders one package per message with the pure engine
 * and sends the result back. Started by `render-worker-slot.ts` for `render-pool.ts`, with a heap limit
 * and a scrubbed environment; it ends when the server does: its IPC channel closes, or, when a render
 * holds the event loop, a watchdog thread sees it was handed to another parent.
 */
import { Worker } from "node:worker_threads";
import { renderPackage } from "../engine/render.js";
import type { RenderResult } from "../engine/types.js";
import { gateFacts, type JudgedRenderResult } from "../lifecycle/gate-facts.js";
import { locatePackageAnnotations } from "../report/annotations.js";
import { createDefaultRuntime, type DefaultRuntimeOptions } from "../runtimes/default.js";
import { reportProcessGroups } from "../runtimes/exec/run-process.js";
import type { WorkerHello, WorkerReply, WorkerRequest, WorkerSettings } from "./render-worker-slot.js";

/** The function runtime the operator's settings allow (kpt's `--allow-exec`, containers, the function runner). */
function runtimeOf(settings: WorkerSettings) {
  const runtimeOptions: DefaultRuntimeOptions = {
    allowExec: settings.allowExec,
    // The app's rule for exec paths: a relative one names a package file and is refused.
    confineExec: true,
    ...(settings.execConfinement ? { execConfinement: settings.execConfinement } : {}),
    useContainers: settings.allowContainers,
    starlarkMaxSteps: settings.starlarkMaxSteps,
    starlark: settings.starlark,
    ...(settings.execTimeoutMs !== undefined ? { execTimeoutMs: settings.execTimeoutMs } : {}),
    ...(settings.functionRunner ? { functionRunner: settings.functionRunner } : {}),
  };
  return createDefaultRuntime(runtimeOptions);
}

function reply(message: WorkerReply): void {
  if (process.connected) process.send?.(message);
}

/**
 * The watchdog's source (a CommonJS thread): every `intervalMs`, once this process's parent is no longer
 * `server` (the server died, even by SIGKILL, and the process was handed to init), it kills the
 * worker's process group, itself included. A thread, because the main thread may be busy for long in
 * one render and never see its IPC channel close.
 */
const WATCHDOG = `
const { workerData: { server, worker, intervalMs } } = require("node:worker_threads");
setInterval(() => {
  if (process.ppid === server) return;
  try { process.kill(-worker, "SIGKILL"); } catch { process.kill(worker, "SIGKILL"); }
}, intervalMs);
`;

/** How often the watchdog checks that the server is still this worker's parent (ms). */
const WATCHDOG_INTERVAL_MS = 500;

/** Starts the watchdog thread (it does not keep this process alive by itself). */
function watchServer(): void {
  const watchdog = new Worker(WATCHDOG, {
    eval: true,
    workerData: { server: process.ppid, worker: process.pid, intervalMs: WATCHDOG_INTERVAL_MS },
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
  });
  // Without it the worker still renders, and still ends when its IPC channel closes.
  watchdog.on("error", (err) => process.stderr.write(`porchlight render worker: no watchdog: ${err}\n`));
  watchdog.unref();
}

let runtime: ReturnType<typeof createDefaultRuntime> | undefined;

async function render({ id, request }: WorkerRequest): Promise<void> {
  if (!runtime) {
    reply({ id, error: "the render worker was sent a render before its settings" });
    return;
  }
  let result: RenderResult;
  try {
    result = await renderPackage({ ...request, runtime });
  } catch (err) {
    reply({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return;
  }
  // The resources (yaml Documents) are for the CLI's `-o stdout` only; the app stores `files`.
  const { resources: _resources, ...rest } = result;
  // Worked out here, within the render's budgets: one parse per file, only the annotations that are
  // sent, and the Kptfile comparisons of the merge gate.
  const cloneable: JudgedRenderResult = {
    ...rest,
    annotations: locatePackageAnnotations(result, request.files),
    gate: gateFacts(result, request.files),
  };
  try {
    reply({ id, result: cloneable });
  } catch (err) {
    reply({ id, error: `the render result cannot be sent back: ${(err as Error).message}` });
  }
}

process.on("message", (message: WorkerHello | WorkerRequest) => {
  if ("settings" in message) {
    runtime = runtimeOf(message.settings);
    reply({ ready: true });
  } else void render(message);
});
// The server went away (even by SIGKILL): nothing is left to render for. (Exiting kills the groups of
// the exec functions still running; a worker that is killed instead has them killed by the pool.)
process.on("disconnect", () => process.exit(0));
watchServer();
// The pool kills the functions' groups with the worker (they lead groups of their own).
reportProcessGroups((group, running) => reply({ group, running }));
