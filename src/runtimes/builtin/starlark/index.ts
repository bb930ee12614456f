/**
 * `starlark` (krm-functions-catalog): runs the Starlark script of its functionConfig (a `StarlarkRun`
 * or a `ConfigMap` with `data.source`) on the package's resources, in porchlight's own interpreter
 * (src/starlark) with the catalog's dialect (sets, global reassignment, recursion and `while`, top-level
 * `if`/`for`). The script reads and edits `ctx.resource_list["items"]`; what it leaves there becomes the
 * step's output, written back onto the input documents so only what it changed changes. `fail()`, an
 * error, or a budget overrun fails the step with the catalog's message as an error result; `print` goes
 * to the step's stderr.
 *
 * Sandboxed and budgeted: the script sees no file, network or process environment (see `context.ts`), and
 * its run is bounded by a step budget (go.starlark.net's `SetMaxExecutionSteps`); the operator can turn
 * the function off.
 */
import { getHeapStatistics } from "node:v8";
import { isMainThread, resourceLimits } from "node:worker_threads";
import type { FunctionResult, ResourceList } from "../../../krm/resource-list.js";
import {
  compileCached,
  Dict,
  fromBytes,
  List,
  runProgram,
  StarlarkError,
  StarlarkEvalError,
  StarlarkResolveError,
  StarlarkSyntaxError,
  Thread,
  toStarlark,
} from "../../../starlark/index.js";
import type { BuiltinFunction, BuiltinFunctionOutput } from "../builtin-function.js";
import { readStarlarkRun } from "./config.js";
import { loadModule, makeContext } from "./context.js";
import { resourceToStarlark, writeBack } from "./resources.js";
import { DEFAULT_STARLARK_MAX_STEPS, type StarlarkSettings } from "./settings.js";

/**
 * Bytes: 512 MiB, or half of the old generation this process or worker may use when that is less. A
 * script must meet its budget's clear error before V8's limit, which ends the render worker: what a
 * script keeps ends up in the old generation, whose limit is the worker's `--max-old-space-size` (a
 * thread's `maxOldGenerationSizeMb`), the operator's PORCHLIGHT_RENDER_MEMORY_MB. `heap_size_limit`
 * adds the young generation, which Node 24's V8 sizes far larger (a 128 MiB worker: 176 MiB on Node 20,
 * 320 on 24), so half of it no longer tripped first.
 */
function defaultMemoryBudget(): number {
  const oldGenerationMb = isMainThread
    ? oldSpaceFlagMb(process.execArgv)
    : (resourceLimits.maxOldGenerationSizeMb ?? 0);
  const limit = oldGenerationMb > 0 ? oldGenerationMb * 1024 * 1024 : getHeapStatistics().heap_size_limit;
  return Math.min(512 * 1024 * 1024, Math.floor(limit / 2));
}

/** MiB of the last `--max-old-space-size=N` among node's flags; 0 when there is none. */
function oldSpaceFlagMb(flags: readonly string[]): number {
  let mb = 0;
  for (const flag of flags) {
    const m = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag);
    if (m) mb = Number(m[1]);
  }
  return mb;
}

export { readStarlarkSettings, type StarlarkSettings } from "./settings.js";

/** What the Go SDK prints to stderr when a function reports failure. */
const SDK_FAILURE_STDERR = "failed to evaluate function: error: function failure";

/** The catalog's dialect: `set`, global reassignment (and top-level `if`/`for`), recursion (and `while`). */
const DIALECT = {
  set: true,
  globalReassign: true,
  topLevelControl: true,
  recursion: true,
  while: true,
} as const;

function isBudgetError(err: StarlarkEvalError): boolean {
  return err.text.startsWith("Starlark computation cancelled:");
}

/** The message the catalog reports for a script error (go.starlark.net's `Error()`). */
function errorMessage(err: unknown): string {
  if (err instanceof StarlarkEvalError) {
    if (isBudgetError(err)) {
      // Not a catalog message: say where the script was and which setting bounds it.
      const bound = err.text.includes("out of memory:")
        ? "the memory budget of a starlark run is 512 MiB, or half the heap its process may use when less (in the app: the render workers' PORCHLIGHT_RENDER_MEMORY_MB)"
        : "the step budget is the operator's PORCHLIGHT_STARLARK_MAX_STEPS";
      return `${err.backtrace()}\n(${bound})`;
    }
    return err.text;
  }
  if (
    err instanceof StarlarkSyntaxError ||
    err instanceof StarlarkResolveError ||
    err instanceof StarlarkError
  ) {
    return fromBytes(err.message);
  }
  return err instanceof Error ? err.message : String(err);
}

function failure(message: string, printed: readonly string[]): BuiltinFunctionOutput {
  const result: FunctionResult = { message, severity: "error" };
  return { items: [], results: [result], exitCode: 1, stderr: [...printed, SDK_FAILURE_STDERR].join("\n") };
}

/** The ResourceList dict a script sees as `ctx.resource_list` (kyaml's `WrapResources`). */
function resourceListValue(input: ResourceList): Dict {
  const list = new Dict();
  list.setKey("apiVersion", "config.kubernetes.io/v1");
  list.setKey("kind", "ResourceList");
  list.setKey("items", new List(input.items.map(resourceToStarlark)));
  if (input.functionConfig) list.setKey("functionConfig", resourceToStarlark(input.functionConfig));
  return list;
}

/**
 * The `starlark` builtin with the operator's settings (see `settings.ts`): disabled, it fails every
 * step saying so; `environment` is all a script sees of the process environment; `maxSteps` bounds each
 * run (a run over it fails naming the script and the limit).
 */
export function createStarlarkFunction(settings: Partial<StarlarkSettings> = {}): BuiltinFunction {
  const enabled = settings.enabled ?? true;
  const environment = settings.environment ?? {};
  const maxSteps = settings.maxSteps ?? DEFAULT_STARLARK_MAX_STEPS;
  return {
    name: "starlark",
    catalogVersion: "v0.5.5",
    run(input: ResourceList): BuiltinFunctionOutput {
      if (!enabled) {
        return failure(
          "starlark functions are turned off on this server (the operator set PORCHLIGHT_ALLOW_STARLARK=false)",
          [],
        );
      }
      const run = readStarlarkRun(input.functionConfig);
      if ("error" in run) return failure(run.error, []);
      const printed: string[] = [];
      const thread = new Thread({
        name: run.name,
        budget: { maxSteps, maxMemoryBytes: settings.maxMemoryBytes ?? defaultMemoryBudget() },
      });
      thread.print = (_t, msg) => printed.push(msg);
      thread.load = loadModule;
      let items: KrmItems;
      try {
        // Compiled once per (name, source): kpt runs the same script on every render.
        const program = compileCached(run.name, run.source, { options: DIALECT, predeclared: ["ctx"] });
        const resourceList = resourceListValue(input);
        runProgram(thread, program, { ctx: makeContext(resourceList, environment) });
        items = writeBack(input.items, resourceList.get("items") ?? toStarlark(null));
      } catch (err) {
        return failure(errorMessage(err), printed);
      }
      return {
        items,
        results: [],
        exitCode: 0,
        ...(printed.length > 0 ? { stderr: printed.join("\n") } : {}),
      };
    },
  };
}

type KrmItems = ResourceList["items"];

/** The `starlark` builtin with default settings (enabled, empty environment, default step budget). */
export const starlark: BuiltinFunction = createStarlarkFunction();
