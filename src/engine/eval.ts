/**
 * `evaluateFunction`: kpt fn eval over in-memory files — one function run imperatively on a package
 * and its subpackages read as one (Kptfiles included, path annotations relative to the root), or on
 * resources given directly (a ResourceList on stdin). Pure: files and resources in, files, resources
 * and the step's record out; the runtime is a parameter.
 *
 * Steps:
 * 1. read the package's resources (every package of the tree, `.krmignore` honoured), or take the
 *    given resources as they are (their annotations travel with them);
 * 2. set aside the resource that is the functionConfig file, when it lies in the package (kpt passes
 *    it as `functionConfig` only and writes it back unchanged);
 * 3. run the function on the resources its selectors choose (kpt's `SelectInput`/`MergeWithInput`),
 *    with kpt's path invariants;
 * 4. compose the package's files (resources whose files are gone are pruned) and the output list.
 */
import type { Document } from "yaml";
import type { Selector } from "../kptfile/schema.js";
import { KrmignoreError } from "../krm/krmignore.js";
import { allPackages, buildPackageTree } from "../krm/package-tree.js";
import { nodeToDocument } from "../yaml/to-document.js";
import { documentEntry, type Entry } from "./entries.js";
import { ALREADY_HANDLED, KptError } from "./errors.js";
import type { PipelineStep } from "./function-config.js";
import type { FunctionRuntime } from "./function-runtime.js";
import { Hydration } from "./hydrate.js";
import { composeFiles, outputResources } from "./output.js";
import { enforcePathInvariants } from "./path-invariants.js";
import { isSelected } from "./selectors.js";
import { runStep, type StepOutcome } from "./step.js";
import type { PackageFiles, RenderEvent, StepReport } from "./types.js";

const decoder = new TextDecoder();

/** Options of `evaluateFunction`. */
export interface EvalOptions {
  /** The package (root-relative paths to bytes); absent when `resources` are given. */
  files?: PackageFiles;
  /** Resources given directly (kpt fn eval `-`); their annotations are kept as they are. */
  resources?: Document[];
  /** Directory name of the package root (messages). */
  packageName: string;
  /** The function: `image` (as given) or `exec`. */
  fn: { image?: string; exec?: string };
  /** How kpt names the function in its output and results (the resolved image, or the exec command). */
  label: string;
  /** The functionConfig; a package file given as `--fn-config` is part of the input too, as in kpt. */
  functionConfig?: Document;
  /** kpt's `--match-*` selector and `--exclude-*` exclusion (empty selectors select everything). */
  selector?: Selector;
  exclusion?: Selector;
  runtime: FunctionRuntime;
  /** Working directory of `exec` functions. */
  cwd: string;
  onEvent?: (event: RenderEvent) => void;
}

/** What one eval produced. */
export interface EvalResult {
  ok: boolean;
  /** The package after the function (package mode, on success). */
  files?: Map<string, Uint8Array>;
  /** Files holding resources after the function (what `-o <dir>` writes), package mode. */
  resourcePaths?: string[];
  /** The output resources with root-relative path/index annotations (`-o stdout|unwrap`, stdin mode). */
  resources: Document[];
  /** The function run's record (absent when the input could not be read). */
  step?: StepReport;
  /** An error to print (`Error: ...`); undefined when the failure was already reported in the step output. */
  error?: string;
}

function nonEmpty(selector: Selector | undefined): Selector[] {
  return selector && Object.keys(selector).length > 0 ? [selector] : [];
}

/**
 * Runs one function like `kpt fn eval`. Never throws for package problems: unreadable YAML and a
 * failing function come back as `ok: false`.
 */
export async function evaluateFunction(options: EvalOptions): Promise<EvalResult> {
  const files = options.files;
  const text = (path: string): string | undefined => {
    const bytes = files?.get(path);
    return bytes === undefined ? undefined : decoder.decode(bytes);
  };
  const hydration = new Hydration({
    text,
    runtime: options.runtime,
    cwd: options.cwd,
    rootName: options.packageName,
    displayDir: options.packageName,
    onEvent: options.onEvent,
    files: new Set(files?.keys() ?? []),
  });
  const input = readInput(options, hydration, text);
  if ("failure" in input) return input.failure;
  const { outcome, report } = await runEvalStep(options, input.entries);
  if (outcome.failure !== undefined) {
    const error = outcome.failure === ALREADY_HANDLED ? undefined : outcome.failure;
    return { ok: false, resources: [], step: report, error };
  }
  const output = outcome.entries;
  if (!files) return { ok: true, resources: output.map((e) => nodeToDocument(e.node)), step: report };
  const resources = outputResources(output);
  const composed = composeFiles({
    files,
    entries: output,
    parsed: hydration.parsed,
    inputFiles: hydration.inputFiles,
  });
  return { ok: true, files: composed.files, resourcePaths: composed.resourcePaths, resources, step: report };
}

/**
 * The function's input: every package of the tree read as one (into `hydration`), or the given
 * resources as they are; a bad `.krmignore` or unreadable YAML is the result of a failed eval.
 */
function readInput(
  options: EvalOptions,
  hydration: Hydration,
  text: (path: string) => string | undefined,
): { entries: Entry[] } | { failure: EvalResult } {
  const files = options.files;
  if (!files) {
    const entries = (options.resources ?? []).map((doc) => documentEntry(doc, false));
    return { entries };
  }
  try {
    const tree = buildPackageTree({
      paths: [...files.keys()],
      rootName: options.packageName,
      readText: text,
    });
    for (const node of allPackages(tree)) hydration.loadLocal(node, true);
  } catch (err) {
    if (err instanceof KrmignoreError) return { failure: { ok: false, resources: [], error: err.message } };
    if (!(err instanceof KptError)) throw err;
    return { failure: { ok: false, resources: [], error: err.rootCause() } };
  }
  return { entries: hydration.working };
}

/** Runs the function as a one-step pipeline, with kpt's path invariants, and reports it. */
async function runEvalStep(
  options: EvalOptions,
  entries: Entry[],
): Promise<{ outcome: StepOutcome; report: StepReport }> {
  const step: PipelineStep = {
    kind: "mutator",
    index: 0,
    fn: {
      ...options.fn,
      selectors: nonEmpty(options.selector),
      exclude: nonEmpty(options.exclusion),
    },
    label: options.label,
  };
  const selected = step.fn.selectors!.length > 0 || step.fn.exclude!.length > 0;
  const pending = {
    packagePath: ".",
    kind: "mutator" as const,
    name: options.fn.image ?? options.fn.exec ?? "",
    label: options.label,
    fnType: options.fn.image ? ("image" as const) : ("exec" as const),
    resourceCount: entries.length,
    selected,
  };
  options.onEvent?.({
    type: "step-start",
    step: { ...pending, resourceCount: countSelected(entries, step) },
  });
  const outcome = enforcePathInvariants(
    await runStep({
      step,
      pkg: "",
      entries,
      functionConfig: options.functionConfig,
      runtime: options.runtime,
      cwd: options.cwd,
    }),
    entries,
    new Set(options.files?.keys() ?? []),
  );
  const report: StepReport = {
    ...pending,
    resourceCount: outcome.resourceCount,
    status: outcome.status,
    durationMs: outcome.durationMs,
    results: outcome.results,
  };
  options.onEvent?.({ type: "step-end", step: report });
  return { outcome, report };
}

function countSelected(entries: readonly Entry[], step: PipelineStep): number {
  return entries.filter((e) => isSelected(e.node, step.fn)).length;
}
