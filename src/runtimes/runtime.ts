/**
 * How a KRM function runs: the interface is the engine's (`src/engine/function-runtime.ts`); runtimes
 * implement it and import it from here.
 */
export type {
  FunctionRef,
  FunctionRunOutcome,
  FunctionRunRequest,
  FunctionRuntime,
} from "../engine/function-runtime.js";
