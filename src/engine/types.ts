/**
 * The render engine's contract: a package as files in, files plus a render status out. Pure: no
 * GitHub, no network; the function runtime is a parameter.
 */

import type { KptfileStatus, StepStatus } from "../kptfile/status.js";
import type { FunctionResult, KrmResource } from "../krm/resource-list.js";
import type { FunctionRuntime } from "./function-runtime.js";

/**
 * A package tree: relative POSIX paths (no leading `./`, e.g. `Kptfile`, `db/deploy.yaml`) to raw
 * bytes. Everything below the package root, subpackages and non-KRM files included.
 */
export type PackageFiles = ReadonlyMap<string, Uint8Array>;

/**
 * What is stored when the pipeline fails (Porch's `--push-on-failure`, from the "store drafts when the
 * pipeline fails" epic): `None` stores nothing, `Unrendered` (default) the resources as given plus the
 * Kptfile status, `PartiallyRendered` the output of the steps that succeeded plus the status (kpt's
 * `kpt.dev/save-on-render-failure: "true"` annotation selects this one too).
 */
export type PushOnFailure = "None" | "Unrendered" | "PartiallyRendered";

/** The Kptfile status types live with the Kptfile model. */
export type { KptfileStatus, StepStatus } from "../kptfile/status.js";

/** How the Kptfile `status` is written (see `RenderOptions.kptfileStatus`). */
export type KptfileStatusMode = "full" | "conditions";

/** A step as the reports (CLI lines, check-run summary) need it: status plus where and how long. */
export interface StepReport {
  /** Package the step belongs to, relative to the root: `.` or `./db`. */
  packagePath: string;
  kind: "mutator" | "validator";
  /** What the Kptfile names: image (as written) or exec command. */
  name: string;
  /** The name kpt prints and records: the resolved image (prefix, tag, `:latest`) or the exec command. */
  label?: string;
  /** Whether `name` is the step's `image` or its `exec` command. */
  fnType?: "image" | "exec";
  status: StepStatus;
  /** Wall time of the function run, in milliseconds (never written to files). */
  durationMs: number;
  /** Number of resources the step ran on (after selectors / exclude). */
  resourceCount: number;
  /** Display name of the package (`<root>` or `<root>/<subpath>`, kpt's `Package "..."`). */
  packageName?: string;
  /** True when the step has `selectors` or `exclude` (kpt then prints `on N resource(s)`). */
  selected?: boolean;
  /** Every result the function reported, in its order (results files, reports). */
  results?: FunctionResult[];
}

/** Progress events, for the CLI's `[RUNNING]` / `[PASS]` lines. */
export type RenderEvent =
  | { type: "package-start"; packagePath: string; packageName: string }
  | { type: "step-start"; step: Omit<StepReport, "status" | "durationMs"> }
  | { type: "step-end"; step: StepReport };

/** Options of `renderPackage`. */
export interface RenderOptions {
  files: PackageFiles;
  runtime: FunctionRuntime;
  /** Directory name of the package root, used in messages (kpt prints `Package "<name>"`). */
  packageName: string;
  /**
   * How the root Kptfile's `status` is written: `full` (default) as kpt 1.0.0-beta.62 and later write it
   * (`conditions` and `renderStatus`), `conditions` as older kpt reads it (only `conditions`: kpt before
   * beta.62, and Porch built on it, refuse `field renderStatus not found in type v1.Status`).
   */
  kptfileStatus?: KptfileStatusMode;
  /** Policy on failure; default `Unrendered`. The Kptfile annotation `kpt.dev/save-on-render-failure` wins. */
  pushOnFailure?: PushOnFailure;
  /**
   * Working directory for `exec:` functions, passed to the runtime as is; without it the runtime
   * uses its own (the engine never reads the process's directory).
   */
  cwd?: string;
  onEvent?: (event: RenderEvent) => void;
  /**
   * How the package directory appears in messages (kpt prints paths such as
   * `open <dir>/labelconfig1.yaml: no such file or directory`); default `packageName`.
   */
  packageDir?: string;
  /**
   * Write the Kptfile status into the root Kptfile (default true). false is kpt's out-of-place output
   * (`-o <dir>`): no status, and documents are written as kpt's ResourceList round trip writes them
   * (a document's leading comment directly above its first field).
   */
  writeStatus?: boolean;
  /**
   * Record kpt's usage attribution (`krm-fn` in `cnrm.cloud.google.com/blueprint`) on Config
   * Connector resources after a render whose resources are stored (default true, as kpt; kpt skips
   * it when `KRM_DISABLE_ATTRIBUTION` is set).
   */
  attribution?: boolean;
  /**
   * Registry prefix for short image names (kpt 1.0's `--image-prefix` / `KPT_IMAGE_PREFIX`); default
   * `ghcr.io/kptdev/krm-functions-catalog`; `""` leaves short names as written.
   */
  imagePrefix?: string;
  /**
   * Also return the rendered resources as documents (`RenderResult.resources`, kpt's `-o stdout` /
   * `-o unwrap`); default false (they are copies of every resource).
   */
  withResources?: boolean;
}

/**
 * The result of rendering. `files` is the whole package after render (what to store), or `undefined`
 * when nothing is to be stored (`pushOnFailure: None` on failure). `error` is kpt's error chain, e.g.
 * `pkg.render: pkg .:\n\tpipeline.run: already handled error`, present exactly when `ok` is false.
 */
export interface RenderResult {
  ok: boolean;
  files: Map<string, Uint8Array> | undefined;
  status: KptfileStatus;
  steps: StepReport[];
  /** kpt's error chain (also the Rendered condition's message). */
  error?: string;
  /** True when rendering failed before any package was hydrated (bad root Kptfile): nothing is stored. */
  failedBeforeRender?: boolean;
  /** What kpt's CLI prints after `Error: ` (undefined when a function failure was already reported). */
  cliError?: string;
  /** Files holding resources after render (relative paths): what `-o <dir>` writes. */
  resourcePaths?: string[];
  /** The rendered resources with root-relative path annotations (kpt's `-o stdout`), on success with `withResources`. */
  resources?: KrmResource[];
  /** Functions executed successfully and packages hydrated (kpt's summary line). */
  executedCount?: number;
  packageCount?: number;
}
