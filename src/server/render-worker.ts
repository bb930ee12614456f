/**
 * A render worker thread: builds its function runtime once from the operator's settings (never from the
 * repository), then renders one package per message with the pure engine and posts the result back.
 * Started by `render-worker-slot.ts` for `render-pool.ts`, with a heap limit and a scrubbed environment.
 */
import { parentPort, workerData } from "node:worker_threads";
import { renderPackage } from "../engine/render.js";
import type { RenderResult } from "../engine/types.js";
import { gateFacts, type JudgedRenderResult } from "../lifecycle/gate-facts.js";
import { locatePackageAnnotations } from "../report/annotations.js";
import { createDefaultRuntime, type DefaultRuntimeOptions } from "../runtimes/default.js";
import type { WorkerReply, WorkerRequest, WorkerSettings } from "./render-worker-slot.js";

const settings = workerData as WorkerSettings;
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
const runtime = createDefaultRuntime(runtimeOptions);

function reply(message: WorkerReply): void {
  parentPort?.postMessage(message);
}

parentPort?.on("message", async ({ id, request }: WorkerRequest) => {
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
});

reply({ ready: true });
