/**
 * Threads of Starlark execution (go.starlark.net's starlark.Thread): the call stack, the budgets
 * (steps, allocation, call depth), host hooks (print, load) and evaluation errors with backtraces
 * (go.starlark.net's EvalError).
 */

import { getHeapStatistics } from "node:v8";
import { fromBytes } from "../internal/utf8.js";
import { formatPos, type Pos, posCol, posLine } from "../syntax/syntax.js";
import { allocHooks, type Kwargs, StarlarkError, type SValue, typeName, type Value } from "./values.js";

/** One frame of a call stack: the function's name and the current position in it. */
export interface CallFrame {
  /** function name (`<toplevel>` for module code, `lambda` for lambdas) */
  name: string;
  /** file name, or `<builtin>` for built-in functions */
  file: string;
  /** 1-based line (0 for built-ins) */
  line: number;
  /** 1-based column (0 for built-ins) */
  col: number;
}

function formatFrame(fr: CallFrame): string {
  if (fr.line > 0) return fr.col > 0 ? `${fr.file}:${fr.line}:${fr.col}` : `${fr.file}:${fr.line}`;
  return fr.file;
}

/**
 * A Starlark evaluation error: the message and the call stack (outermost first) at the moment of the
 * error (go.starlark.net's *EvalError). `message` is the Starlark error message.
 */
export class StarlarkEvalError extends StarlarkError {
  constructor(
    msg: string,
    readonly callStack: CallFrame[],
    override readonly cause?: unknown,
  ) {
    super(msg);
    this.name = "StarlarkEvalError";
  }

  /** The message as a JS string (`message` is Starlark's byte string: UTF-8 bytes as latin1). */
  get text(): string {
    return fromBytes(this.message);
  }

  /** The innermost frame whose file is `file`, if any. */
  frameIn(file: string): CallFrame | undefined {
    for (let i = this.callStack.length - 1; i >= 0; i--) {
      if (this.callStack[i]!.file === file) return this.callStack[i];
    }
    return undefined;
  }

  /**
   * A user-facing description of the error with its stack, as go.starlark.net's Backtrace:
   * "Traceback (most recent call last):\n  file:line:col: in fn\n...Error in builtin: msg".
   */
  backtrace(): string {
    let stack = this.callStack;
    let suffix = "";
    const last = stack[stack.length - 1];
    if (last !== undefined && last.file === "<builtin>") {
      suffix = ` in ${fromBytes(last.name)}`;
      stack = stack.slice(0, -1);
    }
    let out = stack.length > 0 ? "Traceback (most recent call last):\n" : "";
    // Names of Starlark functions are byte strings, as the source is.
    for (const fr of stack) out += `  ${formatFrame(fr)}: in ${fromBytes(fr.name)}\n`;
    return `${out}Error${suffix}: ${fromBytes(this.message)}`;
  }
}

/** Budgets bounding one thread's execution. */
export interface Budget {
  /** maximum abstract computation steps (statements, loop iterations, calls, elements processed) */
  maxSteps?: number;
  /** maximum bytes of values allocated, approximately (strings, list/dict/tuple slots, big ints) */
  maxMemoryBytes?: number;
  /** maximum depth of the Starlark call stack */
  maxCallDepth?: number;
  /** wall-clock time limit in milliseconds, from the thread's creation (checked every few thousand steps) */
  timeoutMs?: number;
}

/** Default budgets: generous for real kpt functions, small enough to stop a runaway script quickly. */
export const DEFAULT_BUDGET: Required<Omit<Budget, "timeoutMs">> = {
  maxSteps: 100_000_000,
  maxMemoryBytes: 512 * 1024 * 1024,
  maxCallDepth: 1000,
};

/** Steps between two checks of the wall-clock deadline. */
const DEADLINE_CHECK_STEPS = 10_000;
/**
 * Steps between two measures of the heap's real growth: the allocation count is an estimate that
 * misses what the host adds (closures, small strings, hash-table slots), so a script that keeps many
 * small values is measured too, before it can exhaust the host's heap.
 */
const HEAP_CHECK_STEPS = 1 << 16;

/** A frame on a thread's stack: a Starlark function activation or a built-in call. */
export interface StackEntry {
  /** the callable's name */
  readonly name?: string;
  /** file of the position (Starlark frames only) */
  readonly file?: string;
  /** current position (Starlark frames only) */
  pos?: Pos;
}

/** Loads a module by name for `load` statements: its exported names. */
export type Loader = (thread: Thread, module: string) => ReadonlyMap<string, Value>;

/** The state of one Starlark execution: call stack, budgets, hooks and host-local values. */
export class Thread {
  /** descriptive name (used in budget errors, e.g. the script's file name) */
  name: string;
  /** receives `print` output (a JS string, already decoded from UTF-8); default: ignored */
  print: ((thread: Thread, msg: string) => void) | null = null;
  /**
   * receives `print` output as the script built it (a byte string: UTF-8 as latin1, possibly invalid);
   * when set, it is called instead of {@link print} (a terminal writes the bytes as go.starlark.net does)
   */
  printBytes: ((thread: Thread, msg: string) => void) | null = null;
  /** resolves `load` statements; default: load is not available */
  load: Loader | null = null;
  /** steps executed so far */
  steps = 0;
  /** bytes allocated so far (approximate) */
  allocated = 0;
  maxSteps: number;
  maxMemoryBytes: number;
  maxCallDepth: number;
  /** the step count at which the next budget check happens (the evaluator compares `steps` with it) */
  nextCheck: number;
  private readonly deadline: number;
  /** the heap in use when the thread was created (bytes) */
  private readonly heapBase: number;
  /** the step count at which the heap's real growth is measured next */
  private nextHeapCheck = HEAP_CHECK_STEPS;
  private readonly timeoutMs: number;
  /** the call stack, outermost first */
  readonly stack: StackEntry[] = [];
  private cancelReason: string | null = null;
  private readonly locals = new Map<string, unknown>();

  constructor(opts: { name?: string; budget?: Budget } = {}) {
    this.name = opts.name ?? "";
    const b = { ...DEFAULT_BUDGET, ...opts.budget };
    this.maxSteps = b.maxSteps;
    this.maxMemoryBytes = b.maxMemoryBytes;
    this.maxCallDepth = b.maxCallDepth;
    this.timeoutMs = opts.budget?.timeoutMs ?? 0;
    this.heapBase = getHeapStatistics().used_heap_size;
    this.deadline = this.timeoutMs > 0 ? Date.now() + this.timeoutMs : 0;
    this.nextCheck = Math.min(this.maxSteps, this.deadline > 0 ? DEADLINE_CHECK_STEPS : HEAP_CHECK_STEPS);
  }

  /** Sets a host value visible to built-ins (never to scripts). */
  setLocal(key: string, value: unknown): void {
    this.locals.set(key, value);
  }

  /** A host value set with {@link setLocal}. */
  local(key: string): unknown {
    return this.locals.get(key);
  }

  /** Stops execution at the next step with an error giving `reason`. */
  cancel(reason: string): void {
    if (this.cancelReason === null) this.cancelReason = reason;
    this.nextCheck = -1;
  }

  /** Called when the step counter passes nextCheck: throws if a budget is exhausted or the thread cancelled. */
  stepLimit(): void {
    if (this.cancelReason === null) {
      if (this.steps > this.maxSteps) {
        this.cancelReason = `too many steps: ${this.label()} exceeded the step budget of ${this.maxSteps} steps`;
      } else if (this.deadline > 0 && Date.now() > this.deadline) {
        this.cancelReason = `timeout: ${this.label()} exceeded the time budget of ${this.timeoutMs} ms`;
      } else {
        if (this.steps >= this.nextHeapCheck) {
          this.nextHeapCheck = this.steps + HEAP_CHECK_STEPS;
          if (getHeapStatistics().used_heap_size - this.heapBase > this.maxMemoryBytes) this.memoryLimit(0);
        }
        const next = this.deadline > 0 ? DEADLINE_CHECK_STEPS : HEAP_CHECK_STEPS;
        this.nextCheck = Math.min(this.maxSteps, this.steps + next);
        return;
      }
    }
    this.nextCheck = -1;
    throw new StarlarkError(`Starlark computation cancelled: ${this.cancelReason}`);
  }

  /** Adds `n` steps (for built-ins doing work proportional to their input). */
  charge(n: number): void {
    this.steps += n;
    if (this.steps > this.nextCheck) this.stepLimit();
  }

  /**
   * Accounts `bytes` of allocation against the memory budget. The count includes garbage: when it
   * passes the budget, the heap's real growth since the thread started is measured, and only if that
   * plus the request is over the budget does the script fail (else counting resumes from the real figure).
   */
  alloc(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated > this.maxMemoryBytes) this.memoryLimit(bytes);
  }

  private memoryLimit(bytes: number): void {
    if (this.cancelReason === null) {
      const live = Math.max(0, getHeapStatistics().used_heap_size - this.heapBase);
      if (live + bytes <= this.maxMemoryBytes) {
        this.allocated = live + bytes;
        return;
      }
      this.cancelReason = `out of memory: ${this.label()} exceeded the memory budget of ${this.maxMemoryBytes} bytes`;
      this.nextCheck = -1;
    }
    throw new StarlarkError(`Starlark computation cancelled: ${this.cancelReason}`);
  }

  /** The script's name for budget messages. */
  label(): string {
    return this.name !== "" ? this.name : "the script";
  }

  /** A copy of the call stack, outermost first. */
  callStack(): CallFrame[] {
    return this.stack.map((e) => {
      if (e.file !== undefined && e.pos !== undefined) {
        return { name: e.name ?? "?", file: e.file, line: posLine(e.pos), col: posCol(e.pos) };
      }
      return { name: e.name ?? "?", file: "<builtin>", line: 0, col: 0 };
    });
  }

  /** The position of the caller's current call, formatted (for diagnostics). */
  callerPosition(depth = 1): string {
    const e = this.stack[this.stack.length - 1 - depth];
    if (e?.file !== undefined && e.pos !== undefined) return formatPos(e.file, e.pos);
    return "<builtin>";
  }

  /** Converts any error thrown during a call into a StarlarkEvalError carrying the current stack. */
  evalError(err: unknown): StarlarkEvalError {
    if (err instanceof StarlarkEvalError) return err;
    if (err instanceof StarlarkError) return new StarlarkEvalError(err.message, this.callStack(), err);
    if (err instanceof Error && err.message.includes("Maximum call stack size exceeded")) {
      // The host stack ran out (deep recursion, or a deeply nested value): the stack may still be
      // too short to describe where, so that part is best effort.
      let stack: CallFrame[] = [];
      try {
        stack = this.callStack();
      } catch {}
      return new StarlarkEvalError("Starlark stack overflow", stack, err);
    }
    if (
      err instanceof RangeError &&
      /Invalid (string|array|typed array) length|Maximum BigInt size|allocation failed/.test(err.message)
    ) {
      // The host refused to build a value this large: report it as the memory budget it is.
      if (this.cancelReason === null) {
        this.cancelReason = `out of memory: ${this.label()} built a value larger than the host allows (${err.message})`;
        this.nextCheck = -1;
      }
      return new StarlarkEvalError(
        `Starlark computation cancelled: ${this.cancelReason}`,
        this.callStack(),
        err,
      );
    }
    const msg = err instanceof Error ? err.message : String(err);
    return new StarlarkEvalError(`internal error: ${msg}`, this.callStack(), err);
  }
}

let currentThread: Thread | null = null;

/** Makes `th` the thread whose budget allocation accounting applies; returns the previous one. */
export function enterThread(th: Thread): Thread | null {
  const prev = currentThread;
  if (prev !== th) {
    currentThread = th;
    allocHooks.charge = (n: number) => th.alloc(n);
    allocHooks.work = (n: number) => th.charge(n);
  }
  return prev;
}

/** Restores the thread returned by {@link enterThread}. */
export function leaveThread(prev: Thread | null): void {
  if (prev !== currentThread) {
    currentThread = prev;
    allocHooks.charge = prev === null ? () => {} : (n: number) => prev.alloc(n);
    allocHooks.work = prev === null ? () => {} : (n: number) => prev.charge(n);
  }
}

/**
 * Calls a Starlark callable with positional and keyword arguments (go.starlark.net's starlark.Call).
 * Throws {@link StarlarkEvalError} (with the call stack) on failure.
 */
export function call(th: Thread, fn: Value, args: Value[], kwargs: Kwargs | null = null): Value {
  const prev = enterThread(th);
  try {
    return callValue(th, fn, args, kwargs);
  } catch (e) {
    throw th.evalError(e);
  } finally {
    leaveThread(prev);
  }
}

/** The evaluator's call: like {@link call} without switching the current thread. */
export function callValue(th: Thread, fn: Value, args: Value[], kwargs: Kwargs | null): Value {
  if (typeof fn !== "object" || fn.callInternal === undefined) {
    throw new StarlarkError(`invalid call of non-function (${typeName(fn)})`);
  }
  if (++th.steps > th.nextCheck) th.stepLimit();
  const stack = th.stack;
  const depth = stack.length;
  if (depth >= th.maxCallDepth) {
    throw new StarlarkError(
      `Starlark stack overflow (${th.label()} exceeded the call depth budget of ${th.maxCallDepth} calls)`,
    );
  }
  // A Starlark function pushes its own frame; any other callable is a frame of its own.
  if (!(fn as { pushesFrame?: boolean }).pushesFrame) stack.push(fn as SValue as StackEntry);
  try {
    return fn.callInternal(th, args, kwargs);
  } catch (e) {
    throw th.evalError(e);
  } finally {
    stack.length = depth;
  }
}
