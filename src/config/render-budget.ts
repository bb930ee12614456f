/**
 * The operator's budgets for one render in the app (environment; never the repository). A package that
 * goes over one fails its render with a message naming the package and the limit; the server keeps
 * serving health checks and other repositories meanwhile (renders run in worker processes).
 */
import { z } from "zod";

/** Budgets of renders in the app. */
export interface RenderBudget {
  /** Wall time of one package render, in ms (`PORCHLIGHT_RENDER_TIMEOUT_MS`, default 60 000). */
  timeoutMs: number;
  /** V8 old-generation heap of each render worker process, in MiB (`PORCHLIGHT_RENDER_MEMORY_MB`, default 512). */
  memoryMb: number;
  /**
   * Render worker processes (`PORCHLIGHT_RENDER_WORKERS`, default 2): how many packages render at once in
   * one process. 0 renders on the main thread (tests only: a hostile package then stalls the server).
   */
  workers: number;
  /**
   * Execution steps of one Starlark function run (`PORCHLIGHT_STARLARK_MAX_STEPS`, default 100 000 000;
   * go.starlark.net's `SetMaxExecutionSteps`).
   */
  starlarkMaxSteps: number;
}

/** The defaults, for documentation and tests. */
export const DEFAULT_RENDER_BUDGET: RenderBudget = {
  timeoutMs: 60_000,
  memoryMb: 512,
  workers: 2,
  starlarkMaxSteps: 100_000_000,
};

const whole = (what: string, min: number) =>
  z
    .string()
    .regex(/^\d+$/, `must be a whole number of ${what}`)
    .transform(Number)
    .refine((n) => n >= min, `must be at least ${min}`)
    .optional();

/** The variables of {@link RenderBudget} (unset or empty: the default). */
export const renderBudgetVariables = {
  PORCHLIGHT_RENDER_TIMEOUT_MS: whole("milliseconds", 100),
  PORCHLIGHT_RENDER_MEMORY_MB: whole("MiB", 32),
  PORCHLIGHT_RENDER_WORKERS: whole("workers", 0),
  PORCHLIGHT_STARLARK_MAX_STEPS: whole("steps", 1),
};

/** {@link RenderBudget} from the checked variables. */
export function renderBudgetOf(e: z.infer<z.ZodObject<typeof renderBudgetVariables>>): RenderBudget {
  return {
    timeoutMs: e.PORCHLIGHT_RENDER_TIMEOUT_MS ?? DEFAULT_RENDER_BUDGET.timeoutMs,
    memoryMb: e.PORCHLIGHT_RENDER_MEMORY_MB ?? DEFAULT_RENDER_BUDGET.memoryMb,
    workers: e.PORCHLIGHT_RENDER_WORKERS ?? DEFAULT_RENDER_BUDGET.workers,
    starlarkMaxSteps: e.PORCHLIGHT_STARLARK_MAX_STEPS ?? DEFAULT_RENDER_BUDGET.starlarkMaxSteps,
  };
}
