/** Evaluation budgets: a hostile policy fails with RegoBudgetError and never stalls the host. */
import { RegoBudgetError } from "../errors.js";

/** Limits of one evaluation. */
export interface Budget {
  /** maximum abstract steps (expressions evaluated, iterations, rule and function calls, builtin elements) */
  maxSteps?: number;
  /** approximate bytes of values built (collections, strings), a bound on what the policy allocates */
  maxMemoryBytes?: number;
  /** wall-clock limit in milliseconds from the evaluation's start (checked every few thousand steps) */
  timeoutMs?: number;
  /** maximum nesting of rule and function evaluation */
  maxDepth?: number;
}

/** Defaults: generous for real Gatekeeper policies, small enough to stop a runaway one within seconds. */
export const DEFAULT_BUDGET: Required<Budget> = {
  maxSteps: 50_000_000,
  maxMemoryBytes: 512 * 1024 * 1024,
  timeoutMs: 30_000,
  maxDepth: 400,
};

const CLOCK_EVERY = 4096;

/** Meters one evaluation. */
export class Meter {
  steps = 0;
  bytes = 0;
  depth = 0;
  readonly limits: Required<Budget>;
  private readonly deadline: number;
  private nextClock: number;
  /** `now` is the clock (ms; tests may replace it), read every `checkEvery` steps. */
  constructor(
    budget: Budget | undefined,
    readonly now: () => number = Date.now,
    readonly checkEvery = CLOCK_EVERY,
  ) {
    this.limits = { ...DEFAULT_BUDGET, ...(budget ?? {}) };
    this.deadline = now() + this.limits.timeoutMs;
    this.nextClock = checkEvery;
  }
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) {
      throw new RegoBudgetError(`evaluation exceeded the step budget of ${this.limits.maxSteps} steps`);
    }
    if (this.steps >= this.nextClock) {
      this.nextClock = this.steps + this.checkEvery;
      if (this.now() > this.deadline) {
        throw new RegoBudgetError(`execution exceeded time limit of ${this.limits.timeoutMs} ms`);
      }
    }
  }
  alloc(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.maxMemoryBytes) {
      throw new RegoBudgetError(
        `evaluation exceeded the memory budget of ${this.limits.maxMemoryBytes} bytes`,
      );
    }
  }
  enter(): void {
    if (++this.depth > this.limits.maxDepth) {
      this.depth = 0;
      throw new RegoBudgetError(
        `evaluation exceeded the depth budget of ${this.limits.maxDepth} nested rule or function calls`,
      );
    }
  }
  leave(): void {
    this.depth--;
  }
}
