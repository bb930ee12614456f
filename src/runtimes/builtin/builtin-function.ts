/**
 * The shape of an in-process (builtin) KRM function: a TypeScript implementation of a function from
 * the kpt function catalog (github.com/kptdev/krm-functions-catalog), keyed by the catalog name.
 */
import type { FunctionResult, NodeResourceList, ResourceList } from "../../krm/resource-list.js";
import type { YNode } from "../../yaml/node.js";

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
  /**
   * `run` on node items (yaml.v3-shaped document nodes, edited in place as kyaml's filters edit
   * `yaml.Node`s): the same items, results and bytes as `run`. Absent: the runtime converts.
   */
  runNodes?(input: NodeResourceList): NodeFunctionOutput | Promise<NodeFunctionOutput>;
}

/** What `runNodes` returns: {@link BuiltinFunctionOutput} with node items. */
export interface NodeFunctionOutput extends Omit<BuiltinFunctionOutput, "items"> {
  items: YNode[];
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
