/**
 * The render budgets as the pool applies them: a render's clock (started once its worker is ready and
 * has the request) and the failed results of a render stopped over its time or memory budget.
 */
import type { RenderBudget } from "../config/render-budget.js";
import { failureBeforeRender } from "../engine/render.js";
import type { RenderResult } from "../engine/types.js";
import type { PoolJob, Slot } from "./render-worker-slot.js";

/** A failed render that stores nothing: the message names the package and the limit it went over. */
function budgetFailure(message: string): RenderResult {
  return failureBeforeRender(message, message);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The result of a render stopped over the time budget (`budget.timeoutMs`, PORCHLIGHT_RENDER_TIMEOUT_MS). */
export function overTimeBudget(job: PoolJob, budget: RenderBudget): RenderResult {
  return budgetFailure(
    `porchlight: rendering package "${job.request.packageName}" was stopped: it went over the time budget of ${seconds(budget.timeoutMs)} (PORCHLIGHT_RENDER_TIMEOUT_MS)`,
  );
}

/** The result of a render whose worker ran out of heap (`budget.memoryMb`, PORCHLIGHT_RENDER_MEMORY_MB). */
export function overMemoryBudget(job: PoolJob, budget: RenderBudget): RenderResult {
  return budgetFailure(
    `porchlight: rendering package "${job.request.packageName}" was stopped: it went over the memory budget of ${budget.memoryMb} MiB (PORCHLIGHT_RENDER_MEMORY_MB)`,
  );
}

/**
 * Starts the render's time budget now (its worker is ready and has the request): after `timeoutMs`
 * ms, `overBudget` runs unless the slot holds another render (or none) by then.
 */
export function startBudgetClock(slot: Slot, job: PoolJob, timeoutMs: number, overBudget: () => void): void {
  job.startedAt = Date.now();
  slot.timer = setTimeout(() => {
    if (slot.job === job) overBudget();
  }, timeoutMs);
}
