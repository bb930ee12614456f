/**
 * The shape of an in-process (builtin) KRM function: a TypeScript implementation of a function from
 * the kpt function catalog (github.com/kptdev/krm-functions-catalog), keyed by the catalog name.
 */
import type { FunctionResult, ResourceList } from "../../krm/resource-list.js";

/**
 * A builtin function. `run` receives a ResourceList it may mutate in place (the engine gives it clones)
 * and returns the items to keep plus its results; like the catalog's Go SDK, a result with severity
 * `error` makes the step fail with exit code 1. Throwing is reserved for bugs: the runtime turns a
 * thrown error into exit code 1 and a result naming the function.
 */
export interface BuiltinFunction {
  /** Catalog name, e.g. `set-namespace`: matched against the image name without registry and tag. */
  readonly name: string;
  /**
   * The krm-functions-catalog release whose behaviour (fields touched, result wording) this builtin
   * follows, e.g. `v0.4.1` (shown by `porchlight fn list`).
   */
  readonly catalogVersion?: string;
  run(input: ResourceList): BuiltinFunctionOutput | Promise<BuiltinFunctionOutput>;
}

/** What a builtin returns: the resulting items and the results it reports (in order). */
export interface BuiltinFunctionOutput {
  items: ResourceList["items"];
  results: FunctionResult[];
  /**
   * Optional explicit exit code. Default: 1 when any result has severity `error`, else 0. Some catalog
   * functions report an error result yet exit 0 (e.g. `set-namespace` with a bad functionConfig); they
   * set this to 0 so the step passes as it does in kpt.
   */
  exitCode?: number;
  /** Optional text the function writes to stderr (kpt records it in the step's `stderr`). */
  stderr?: string;
}
