/**
 * The function-runtime interface the render engine declares and runs steps through (kpt's
 * multi-runtime idea: runtimes form a chain and "not mine" falls through to the next). Runtimes
 * (builtin, exec, container) implement it; the CLI and the app bind one and hand it to the engine.
 */
import type { NodeResourceList, ResourceList } from "../krm/resource-list.js";

/** A pipeline step's function reference, as written in the Kptfile (`image:` or `exec:`). */
export interface FunctionRef {
  /** Container image, e.g. `ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4` or `set-labels:v0.1`. */
  image?: string;
  /** Command line of an executable function, split shell-style, e.g. `sed -e 's/foo/bar/'`. */
  exec?: string;
  /**
   * The Kptfile step's `tag` (kpt 1.0): an exact version or tag that replaces the image's, or a
   * semver constraint a container runtime would resolve against the registry. Builtins ignore it.
   */
  tag?: string;
}

/** Everything a runtime needs to run one function once. */
export interface FunctionRunRequest {
  fn: FunctionRef;
  /**
   * The ResourceList given to the function. A runtime may let a function edit it in place (the engine
   * passes its working resources to a mutator, or clones), but must not keep it after the run.
   */
  input: ResourceList;
  /**
   * Working directory that relative `exec:` paths resolve against (kpt: the render process's cwd),
   * when the caller gives one; otherwise the runtime's own (bound when it was created, else the
   * process's). The engine never decides it.
   */
  cwd?: string;
  /**
   * Where the step is written, for messages: the Kptfile's path from the render root (`Kptfile`,
   * `sub/Kptfile`) and the step's field (`pipeline.mutators[0]`). The engine sets it for render steps.
   */
  origin?: StepOrigin;
}

/** A pipeline step's place: its Kptfile (path from the package root) and field. */
export interface StepOrigin {
  kptfile: string;
  field: string;
}

/**
 * What one function run produced. `exitCode` is 0 on success; kpt treats a non-zero exit code, or a
 * function that could not be started (`executionError`), as a failed step.
 */
export interface FunctionRunOutcome {
  exitCode: number;
  /** The ResourceList the function wrote; absent when it wrote none (crash, not runnable). */
  output?: ResourceList;
  /** What the function wrote to stderr (possibly truncated by the runtime's cap). */
  stderr: string;
  /** Why the function could not run at all, e.g. "must run with `--allow-exec` option to allow running function binaries". */
  executionError?: string;
}

/** A way to run functions. `run` resolves `undefined` when the function is not this runtime's ("not mine"). */
export interface FunctionRuntime {
  readonly name: string;
  run(request: FunctionRunRequest): Promise<FunctionRunOutcome | undefined>;
  /**
   * Whether running `fn` leaves the input documents as they were (the runtime writes them to a process
   * or service and reads new documents back), so that an output item that is an input document itself
   * is that document unchanged. Absent or false: the function may edit its input in place (builtins);
   * the engine then takes what it restores (comments, field order) before the run.
   */
  keepsInput?(fn: FunctionRef): boolean;
  /**
   * Whether `fn` edits the node items it is given in place the way kyaml's filters edit `yaml.Node`s
   * (a node-native builtin): what it did not change keeps its comments and field order, and an item it
   * returns is the node it was given. The engine then takes no shape before the run and restores
   * nothing after it on such items (kyaml's CopyComments / SyncOrder would change nothing).
   */
  editsNodesInPlace?(fn: FunctionRef): boolean;
  /**
   * `run` on node items (the engine's working form), without `yaml` Documents: same contract, same
   * "not mine" (`undefined`). Absent: the engine converts the items and calls `run`.
   */
  runNodes?(request: NodeRunRequest): Promise<NodeRunOutcome | undefined>;
}

/** A {@link FunctionRunRequest} whose ResourceList holds node items. */
export interface NodeRunRequest extends Omit<FunctionRunRequest, "input"> {
  input: NodeResourceList;
}

/** A {@link FunctionRunOutcome} whose ResourceList holds node items. */
export interface NodeRunOutcome extends Omit<FunctionRunOutcome, "output"> {
  output?: NodeResourceList;
}
