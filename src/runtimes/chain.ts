/**
 * Runtimes in a chain (kpt's multi-runtime lookup): each is asked in order and the first that does not
 * answer "not mine" (`undefined`) runs the function. When none can, the step fails cleanly.
 */
import type { FunctionRunRequest, NodeRunOutcome, NodeRunRequest } from "../engine/function-runtime.js";
import { documentRequest, nodeOutcome } from "../engine/node-adapter.js";
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
  const failed = (runtime: FunctionRuntime, fn: FunctionRef, err: unknown) => {
    const why = err instanceof Error ? err.message : String(err);
    return { exitCode: 1, stderr: `${runtime.name} runtime failed to run ${describe(fn)}: ${why}` };
  };
  const notRunnable = (fn: FunctionRef) => {
    const hint = options.hint?.(fn);
    const message = `porchlight: cannot run ${describe(fn)}: no runtime can run it${hint ? ` (${hint})` : ""}`;
    return { exitCode: NOT_RUNNABLE_EXIT_CODE, stderr: message };
  };
  return {
    name: `chain(${runtimes.map((r) => r.name).join(",")})`,
    keepsInput: (fn) => runtimes.every((r) => r.keepsInput?.(fn) === true),
    // The runtime that claims such a function is the one saying so (builtins come first in a chain).
    editsNodesInPlace: (fn) => runtimes.some((r) => r.editsNodesInPlace?.(fn) === true),
    async run(request): Promise<FunctionRunOutcome> {
      for (const runtime of runtimes) {
        let outcome: FunctionRunOutcome | undefined;
        try {
          outcome = await runtime.run(request);
        } catch (err) {
          return failed(runtime, request.fn, err);
        }
        if (outcome) return outcome;
      }
      return notRunnable(request.fn);
    },
    /**
     * `run` on node items: a member with `runNodes` gets them as they are; one without gets them
     * converted to Documents (once for all such members) and its output converted back.
     */
    async runNodes(request): Promise<NodeRunOutcome> {
      let asDocuments: FunctionRunRequest | undefined;
      for (const runtime of runtimes) {
        let outcome: NodeRunOutcome | undefined;
        try {
          if (runtime.runNodes) outcome = await runtime.runNodes(request);
          else {
            asDocuments ??= documentRequest(request as NodeRunRequest);
            const out = await runtime.run(asDocuments);
            outcome = out && nodeOutcome(out);
          }
        } catch (err) {
          return failed(runtime, request.fn, err);
        }
        if (outcome) return outcome;
      }
      return notRunnable(request.fn);
    },
  };
}
