/**
 * One package's pipeline as kpt's render executor runs it (`runPipeline`): `fnChain` resolves every
 * step before any runs (each `configPath:` must be one of the package's own resources; images are
 * parsed into the label kpt records), then `runMutators` runs the mutators in order, each on the
 * previous one's output, then `runValidators` runs the validators on the mutated resources; each step
 * is recorded as it ends (`captureStepResult`: its status, its report, the `step-end` event).
 */
import { Document, parseAllDocuments } from "yaml";
import { nodePathOf } from "../krm/annotations-node.js";
import { displayPkgPath, joinPath, type PackageNode } from "../krm/package-tree.js";
import type { FunctionResult } from "../krm/resource-list.js";
import { isNullDocument } from "../krm/yaml-chunks.js";
import { nodeToDocument } from "../yaml/to-document.js";
import type { Entry } from "./entries.js";
import { KptError, kptfileFieldError, PlainCause } from "./errors.js";
import {
  cleanPath,
  configMapConfig,
  type PipelineStep,
  stepDisplayName,
  stepField,
} from "./function-config.js";
import type { FunctionRuntime } from "./function-runtime.js";
import { statusImage } from "./image.js";
import { enforcePathInvariants } from "./path-invariants.js";
import { isSelected } from "./selectors.js";
import { runStep, type StepOutcome, stepLabel } from "./step.js";
import type { RenderEvent, StepReport, StepStatus } from "./types.js";
import { skippedStepStatus, whenConditionMet } from "./when-step.js";

/** What running pipelines needs from the render. */
export interface PipelineOptions {
  /** A file of the package (root-relative path), or undefined. */
  text: (path: string) => string | undefined;
  runtime: FunctionRuntime;
  /** Passed to the runtime as is (a runtime bound to a directory needs none). */
  cwd?: string;
  onEvent: ((event: RenderEvent) => void) | undefined;
  /** Every file of the package (root-relative), for the path invariants. */
  files?: ReadonlySet<string>;
  /** Registry prefix for short image names (kpt's `--image-prefix`); default kpt's. */
  imagePrefix?: string;
  /**
   * Mutators edit the working resources themselves (see `RunStepOptions.inPlace`): the working set
   * after a failed step is then not the state before it, so only when a failure stores nothing of it.
   */
  inPlace?: boolean;
}

/** What the pipelines of one render record into (kpt's `hydrationContext`). */
export interface HydrationContext {
  readonly options: PipelineOptions;
  readonly steps: StepReport[];
  readonly mutationSteps: StepStatus[];
  readonly validationSteps: StepStatus[];
  errorSummary: string | undefined;
  executed: number;
}

/** One package's pipeline run: the package, its input as the steps have made it so far, and its sink. */
export interface PackageRun {
  node: PackageNode;
  /** Breadth-first hydration: the `pipeline.run` level names the subpackage. */
  bfs: boolean;
  /** The package's name in reports (`<root>/<path>`). */
  pkgName: string;
  entries: Entry[];
  /** Makes the entries after a step the package subtree's working set. */
  commit: (entries: Entry[]) => void;
}

/** A step as `fnChain` resolved it: runnable, or with the problem it fails with when its turn comes. */
export interface ResolvedStep {
  step: PipelineStep;
  problem?: string;
}

/**
 * Runs a package's (non-empty) pipeline: resolve, mutators, validators.
 * @throws PlainCause for a `configPath:` that is not the package's own resource or a bad `when`;
 * KptError (`pipeline.run`) for a step that cannot be resolved or fails.
 */
export async function runPipeline(
  ctx: HydrationContext,
  run: PackageRun,
  steps: PipelineStep[],
): Promise<void> {
  const chain = fnChain(ctx, run, steps);
  await runMutators(
    ctx,
    run,
    chain.filter((s) => s.step.kind === "mutator"),
  );
  await runValidators(
    ctx,
    run,
    chain.filter((s) => s.step.kind === "validator"),
  );
}

/**
 * kpt's `fnChain` (with the runtime checks of `ValidatePipeline`): every `configPath:` is checked
 * against the package's own resources before anything runs; each image is parsed into its label. A
 * step whose image or tag is invalid keeps its problem and fails when its turn comes, after the steps
 * before it have run and been recorded.
 */
export function fnChain(ctx: HydrationContext, run: PackageRun, steps: PipelineStep[]): ResolvedStep[] {
  const local = run.entries.filter((e) => e.pkg === run.node.path && e.origin);
  for (const step of steps) {
    const configPath = step.fn.configPath;
    if (configPath === undefined || local.some((e) => nodePathOf(e.node) === cleanPath(configPath))) continue;
    throw new PlainCause(
      kptfileFieldError({
        field: `${stepField(step)}.configPath`,
        value: configPath,
        reason: `functionConfig resource for ${step.kind} ${JSON.stringify(stepDisplayName(step.fn))} is missing from path ${JSON.stringify(configPath)}, this also occurs if ${JSON.stringify(configPath)} is part of a subpackage`,
      }),
    );
  }
  return steps.map((step) => resolveImage(step, ctx.options.imagePrefix));
}

function resolveImage(step: PipelineStep, prefix: string | undefined): ResolvedStep {
  if (!step.fn.image) return { step };
  try {
    step.label = statusImage(step.fn.image, { tag: step.fn.tag, prefix });
    return { step };
  } catch (err) {
    return { step, problem: (err as Error).message };
  }
}

/** kpt's `runMutators`: each mutator runs on the previous one's output, which becomes the working set. */
async function runMutators(ctx: HydrationContext, run: PackageRun, mutators: ResolvedStep[]): Promise<void> {
  for (const resolved of mutators) {
    const output = await runResolved(ctx, run, resolved);
    if (output === undefined) continue;
    run.entries = output;
    run.commit(output);
  }
}

/**
 * kpt's `runValidators`: each validator sees the mutated resources and changes nothing; the working
 * set is still stored after it (in the pipeline input's order, as after a mutator).
 */
async function runValidators(
  ctx: HydrationContext,
  run: PackageRun,
  validators: ResolvedStep[],
): Promise<void> {
  for (const resolved of validators) {
    const output = await runResolved(ctx, run, resolved);
    if (output === undefined) continue;
    run.entries = output;
    run.commit(output);
  }
}

/** The step's report before it runs (what `step-start` carries). */
function pendingReport(run: PackageRun, step: PipelineStep): Omit<StepReport, "status" | "durationMs"> {
  const filtering = (step.fn.selectors?.length ?? 0) > 0 || (step.fn.exclude?.length ?? 0) > 0;
  return {
    packagePath: displayPkgPath(run.node.path),
    kind: step.kind,
    name: step.fn.image ?? step.fn.exec ?? "",
    label: stepLabel(step),
    fnType: step.fn.image ? "image" : "exec",
    resourceCount: filtering
      ? run.entries.filter((e) => isSelected(e.node, step.fn)).length
      : run.entries.length,
    selected: filtering,
    packageName: run.pkgName,
  };
}

/**
 * Runs one resolved step (unless its `when` is not met: then it is recorded as skipped and undefined
 * comes back) and returns the entries after it.
 * @throws KptError (`pipeline.run`) when the step cannot be resolved or fails; PlainCause for a bad `when`.
 */
async function runResolved(
  ctx: HydrationContext,
  run: PackageRun,
  { step, problem }: ResolvedStep,
): Promise<Entry[] | undefined> {
  if (problem !== undefined) throw pipelineError(run, problem);
  const functionConfig = stepFunctionConfig(ctx, run, step);
  const pending = pendingReport(run, step);
  const when = step.fn.when ?? step.fn.condition;
  if (when !== undefined && !(await conditionMet(when, run, step))) {
    const status = skippedStepStatus(step, when);
    captureStepResult(ctx, step, { ...pending, status, durationMs: 0, results: [] });
    return undefined;
  }
  ctx.options.onEvent?.({ type: "step-start", step: pending });
  const outcome = enforcePathInvariants(
    await runStep({
      step,
      pkg: run.node.path,
      entries: run.entries,
      functionConfig,
      runtime: ctx.options.runtime,
      cwd: ctx.options.cwd,
      packagePaths: true,
      inPlace: ctx.options.inPlace,
    }),
    run.entries,
    ctx.options.files ?? new Set(),
  );
  if (when !== undefined) outcome.status.when = when;
  captureStepResult(ctx, step, stepReport(pending, outcome));
  if (outcome.failure !== undefined) {
    const st = outcome.status;
    ctx.errorSummary = st.executionError
      ? `${pending.label}: ${st.executionError}`
      : `${pending.label}: exit code ${st.exitCode}`;
    throw pipelineError(run, outcome.failure);
  }
  ctx.executed++;
  return outcome.entries;
}

async function conditionMet(when: string, run: PackageRun, step: PipelineStep): Promise<boolean> {
  try {
    return await whenConditionMet(when, run.entries, step);
  } catch (err) {
    throw new PlainCause((err as Error).message);
  }
}

function stepReport(pending: Omit<StepReport, "status" | "durationMs">, outcome: StepOutcome): StepReport {
  return {
    ...pending,
    resourceCount: outcome.resourceCount,
    status: outcome.status,
    durationMs: outcome.durationMs,
    results: outcome.results satisfies FunctionResult[],
  };
}

/** kpt's `captureStepResult`: the step's status goes to its list, its report to the render's. */
function captureStepResult(ctx: HydrationContext, step: PipelineStep, report: StepReport): void {
  ctx.steps.push(report);
  (step.kind === "mutator" ? ctx.mutationSteps : ctx.validationSteps).push(report.status);
  ctx.options.onEvent?.({ type: "step-end", step: report });
}

function pipelineError(run: PackageRun, cause: string): KptError {
  const pkg = run.bfs && run.node.path !== "" ? displayPkgPath(run.node.path) : undefined;
  return new KptError({ op: "pipeline.run", pkg, cause });
}

/**
 * A step's functionConfig (kpt's `newFnConfig` + `refreshFnConfig`): `configMap:` / `config:` as
 * given; for `configPath:` the package's resource at that path as the pipeline has made it so far
 * (the first one whose path annotation equals `configPath` as written), else — an earlier step moved
 * or rewrote it — the file as read from the package, which is what kpt's runner read before the
 * pipeline started.
 */
function stepFunctionConfig(
  ctx: HydrationContext,
  run: PackageRun,
  step: PipelineStep,
): Document | undefined {
  const { fn } = step;
  if (fn.configMap) return configMapConfig(fn.configMap);
  if (fn.config) return new Document(fn.config);
  if (fn.configPath === undefined) return undefined;
  const configPath = fn.configPath;
  const current = run.entries.find((e) => e.pkg === run.node.path && nodePathOf(e.node) === configPath);
  // One document a step: the functionConfig stays a Document (see NodeResourceList).
  if (current) return nodeToDocument(current.node);
  const text = ctx.options.text(joinPath(run.node.path, cleanPath(configPath)));
  if (text === undefined) return undefined;
  return parseAllDocuments(text).find((d) => !isNullDocument(d)) as Document | undefined;
}
