/**
 * Runtimes in a chain (kpt's multi-runtime lookup): each is asked in order and the first that does not
 * answer "not mine" (`undefined`) runs the function. When none can, the step fails cleanly.
 */
import type { FunctionRef, FunctionRunOutcome, FunctionRuntime } from "./runtime.js";

/**
 * Exit code recorded when no runtime can run an image. It mirrors `docker run`'s 125 ("the container
 * could not be started"), which is what kpt records for an image that cannot be pulled.
 */
export const NOT_RUNNABLE_EXIT_CODE = 125;

/** Options of `chainRuntimes`. */
export interface ChainOptions {
  /** Extra hint appended to the "cannot run" message, e.g. the list of builtin functions. */
  hint?: (fn: FunctionRef) => string | undefined;
}

function describe(fn: FunctionRef): string {
  if (fn.exec !== undefined) return `exec function ${JSON.stringify(fn.exec)}`;
  return `function image ${JSON.stringify(fn.image ?? "")}`;
}

/**
 * Chains runtimes. The chain never throws: a runtime that throws gives exit code 1 with the error in
 * `stderr`; a function no runtime claims gives exit code 125 and a one-line `stderr` naming the image and
 * how to make it runnable (as kpt records docker's failure to start an image).
 */
export function chainRuntimes(runtimes: FunctionRuntime[], options: ChainOptions = {}): FunctionRuntime {
  return {
    name: `chain(${runtimes.map((r) => r.name).join(",")})`,
    keepsInput: (fn) => runtimes.every((r) => r.keepsInput?.(fn) === true),
    async run(request): Promise<FunctionRunOutcome> {
      for (const runtime of runtimes) {
        let outcome: FunctionRunOutcome | undefined;
        try {
          outcome = await runtime.run(request);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          return {
            exitCode: 1,
            stderr: `${runtime.name} runtime failed to run ${describe(request.fn)}: ${why}`,
          };
        }
        if (outcome) return outcome;
      }
      const hint = options.hint?.(request.fn);
      const message = `porchlight: cannot run ${describe(request.fn)}: no runtime can run it${hint ? ` (${hint})` : ""}`;
      return { exitCode: NOT_RUNNABLE_EXIT_CODE, stderr: message };
    },
  };
}
