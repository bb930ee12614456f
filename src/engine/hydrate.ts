/**
 * kpt's package hydration (`hydrate` in kpt's render executor): packages are rendered depth-first,
 * subpackages before their parent (breadth-first with `kpt.dev/bfs-rendering: "true"`); a package's
 * pipeline sees its own resources plus its subpackages' rendered resources (Kptfiles included).
 * Failures are thrown as kpt error chains (`KptError`); the working set keeps the partial state.
 */
import { Document, parseAllDocuments } from "yaml";
import { KptfileError, readKptfile } from "../kptfile/read.js";
import type { Kptfile } from "../kptfile/schema.js";
import { pathOf } from "../krm/annotations.js";
import { forgetPositions } from "../krm/clone.js";
import { displayPkgPath, joinPath, type PackageNode } from "../krm/package-tree.js";
import type { FunctionResult } from "../krm/resource-list.js";
import { YamlSyntaxError } from "../krm/yaml-errors.js";
import { type ParsedFile, parseYamlFile } from "../krm/yaml-io.js";
import { annotateRead, type Entry, inSubtree, nonKrmProblem } from "./entries.js";
import { KptError, kptfileFieldError } from "./errors.js";
import {
  cleanPath,
  configMapConfig,
  type PipelineStep,
  pipelineSteps,
  stepDisplayName,
  stepField,
  validatePipeline,
} from "./function-config.js";
import type { FunctionRuntime } from "./function-runtime.js";
import { statusImage } from "./image.js";
import { enforcePathInvariants } from "./path-invariants.js";
import { isSelected } from "./selectors.js";
import { runStep, stepLabel } from "./step.js";
import type { RenderEvent, StepReport, StepStatus } from "./types.js";
import { skippedStepStatus, whenConditionMet } from "./when-step.js";

/** Inputs of a hydration run. */
export interface HydrationOptions {
  text: (path: string) => string | undefined;
  runtime: FunctionRuntime;
  /** Passed to the runtime as is (a runtime bound to a directory needs none). */
  cwd?: string;
  rootName: string;
  displayDir: string;
  onEvent: ((event: RenderEvent) => void) | undefined;
  /** Every file of the package (root-relative), for the path invariants. */
  files?: ReadonlySet<string>;
  /** A resource file's UTF-8 problem in yaml.v3's words (kpt fails on it), or undefined. */
  utf8Problem?: (path: string) => string | undefined;
  /** Registry prefix for short image names (kpt's `--image-prefix`); default kpt's. */
  imagePrefix?: string;
  /**
   * Mutators edit the working resources themselves (see `RunStepOptions.inPlace`): the working set
   * after a failed step is then not the state before it, so only when a failure stores nothing of it.
   */
  inPlace?: boolean;
}

/** State of one render: the working set and everything recorded on the way. */
export class Hydration {
  working: Entry[] = [];
  readonly parsed = new Map<string, ParsedFile>();
  readonly inputFiles = new Set<string>();
  readonly kptfiles = new Map<string, Kptfile>();
  readonly steps: StepReport[] = [];
  readonly mutationSteps: StepStatus[] = [];
  readonly validationSteps: StepStatus[] = [];
  errorSummary: string | undefined;
  executed = 0;
  packages = 0;
  private readonly loaded = new Set<string>();

  constructor(private readonly options: HydrationOptions) {}

  private packageName(pkg: string): string {
    return pkg === "" ? this.options.rootName : `${this.options.rootName}/${pkg}`;
  }

  /** Reads and validates a subpackage's Kptfile (kpt: `pkg.Subpackages` / `pkg.read`). */
  private readSubKptfile(node: PackageNode): void {
    const file = joinPath(node.path, "Kptfile");
    const display = displayPkgPath(node.path);
    try {
      const { kptfile } = readKptfile(file, this.options.text(file) ?? "");
      this.kptfiles.set(node.path, kptfile);
    } catch (err) {
      if (!(err instanceof KptfileError)) throw err;
      throw new KptError({
        op: "pkg.Subpackages",
        pkg: display,
        cause: err.chainMessage(display),
        cli: err.cliMessage(`${this.options.displayDir}/${node.path}`),
      });
    }
  }

  private validateSub(node: PackageNode): void {
    const check = (dir: string) =>
      validatePipeline({
        kptfile: this.kptfiles.get(node.path)!,
        readFile: (rel) => this.options.text(joinPath(node.path, rel)),
        displayDir: `${dir}/${node.path}`,
      });
    // The chain goes into the stored Kptfile status: it names the package, not the machine path.
    const invalid = check(this.options.rootName);
    if (invalid) {
      const cli = check(this.options.displayDir);
      throw new KptError({ op: "pkg.render", pkg: displayPkgPath(node.path), cause: invalid, cli });
    }
  }

  /**
   * Loads a package's own resources into the working set (once). With `asRoot` (kpt fn eval, which
   * reads a package and its subpackages as one), they belong to the root and their path annotations
   * are relative to it.
   */
  loadLocal(node: PackageNode, asRoot = false): void {
    if (this.loaded.has(node.path)) return;
    this.loaded.add(node.path);
    for (const file of node.resourceFiles) {
      const invalid = this.options.utf8Problem?.(file);
      if (invalid) {
        throw new KptError({
          op: "pkg.render",
          pkg: displayPkgPath(node.path),
          cause: `${file}: MalformedYAMLError: yaml: ${invalid}`,
        });
      }
      const text = this.options.text(file) ?? "";
      let parsed: ParsedFile;
      try {
        parsed = parseYamlFile(file, text);
      } catch (err) {
        if (!(err instanceof YamlSyntaxError)) throw err;
        throw new KptError({
          op: "pkg.render",
          pkg: displayPkgPath(node.path),
          cause: `${file}: ${err.detail}`,
        });
      }
      for (const doc of parsed.docs) forgetPositions(doc.doc);
      this.parsed.set(file, parsed);
      if (parsed.docs.length > 0) this.inputFiles.add(file);
      const rel = node.path === "" || asRoot ? file : file.slice(node.path.length + 1);
      for (const doc of parsed.docs) {
        const createdAnnotations = annotateRead(doc.doc, {
          relPath: rel,
          index: doc.index,
          seqIndent: doc.seqIndent,
        });
        this.working.push({
          doc: doc.doc,
          pkg: asRoot ? "" : node.path,
          origin: doc,
          originFile: parsed,
          createdAnnotations,
        });
      }
    }
  }

  private replaceSubtree(pkg: string, entries: Entry[]): void {
    this.working = [...this.working.filter((e) => !inSubtree(e.pkg, pkg)), ...entries];
  }

  /** Depth-first: subpackages (in order) first, then the package's own pipeline. */
  async hydrateDfs(node: PackageNode): Promise<void> {
    const display = displayPkgPath(node.path);
    this.packages++;
    try {
      for (const sub of node.subpackages) this.readSubKptfile(sub);
    } catch (err) {
      throw wrap(display, err);
    }
    for (const sub of node.subpackages) {
      try {
        this.validateSub(sub);
        await this.hydrateDfs(sub);
      } catch (err) {
        throw wrap(display, err);
      }
    }
    try {
      this.loadLocal(node);
      await this.runPipeline(node, false);
    } catch (err) {
      throw wrap(display, err);
    }
  }

  /** Breadth-first: every package's resources are loaded, then pipelines run parent first. */
  async hydrateBfs(root: PackageNode): Promise<void> {
    const queue: PackageNode[] = [root];
    const order: PackageNode[] = [];
    try {
      while (queue.length > 0) {
        const node = queue.shift()!;
        order.push(node);
        for (const sub of node.subpackages) {
          this.readSubKptfile(sub);
          this.validateSub(sub);
          queue.push(sub);
        }
      }
      for (const node of [...order].reverse()) this.loadLocal(node);
      try {
        for (const node of order) {
          this.packages++;
          await this.runPipeline(node, true);
        }
      } finally {
        // kpt's aggregateRootResources: the packages' resources in breadth-first order.
        this.working = order.flatMap((node) => this.working.filter((e) => e.pkg === node.path));
      }
    } catch (err) {
      throw wrap(".", err);
    }
  }

  /**
   * A package pipeline's input in kpt's order: the package's own resources first, then each
   * subpackage's (in order). Depth-first, a subpackage's resources are its pipeline's output, in the
   * order its functions returned them; breadth-first (kpt's `buildPipelineInputWithScopedVisibility`)
   * they are gathered package by package in pre-order.
   */
  private pipelineInput(node: PackageNode, bfs: boolean): Entry[] {
    const own = this.working.filter((e) => e.pkg === node.path);
    const subs = node.subpackages.flatMap((sub) =>
      bfs ? this.pipelineInput(sub, true) : this.working.filter((e) => inSubtree(e.pkg, sub.path)),
    );
    return [...own, ...subs];
  }

  /**
   * A step's functionConfig (kpt's `newFnConfig` + `refreshFnConfig`): `configMap:` / `config:` as
   * given; for `configPath:` the package's resource at that path as the pipeline has made it so far
   * (the first one whose path annotation equals `configPath` as written), else — an earlier step moved
   * or rewrote it — the file as read from the package, which is what kpt's runner read before the
   * pipeline started.
   */
  private functionConfig(step: PipelineStep, node: PackageNode, entries: Entry[]): Document | undefined {
    const { fn } = step;
    if (fn.configMap) return configMapConfig(fn.configMap);
    if (fn.config) return new Document(fn.config);
    if (fn.configPath === undefined) return undefined;
    const configPath = fn.configPath;
    const current = entries.find((e) => e.pkg === node.path && pathOf(e.doc) === configPath);
    if (current) return current.doc;
    const text = this.options.text(joinPath(node.path, cleanPath(configPath)));
    if (text === undefined) return undefined;
    return parseAllDocuments(text).find((d) => d.contents !== null) as Document | undefined;
  }

  /** Runs one package's pipeline on its subtree's entries; failures throw the package's cause. */
  private async runPipeline(node: PackageNode, bfs: boolean): Promise<void> {
    const kptfile = this.kptfiles.get(node.path)!;
    const pkgName = this.packageName(node.path);
    this.options.onEvent?.({
      type: "package-start",
      packagePath: displayPkgPath(node.path),
      packageName: pkgName,
    });
    let entries = this.pipelineInput(node, bfs);
    const steps = pipelineSteps(kptfile);
    if (steps.length === 0) {
      const problem = nonKrmProblem(entries);
      if (problem) throw new PlainCause(`input resource list must contain only KRM resources: ${problem}`);
      this.replaceSubtree(node.path, entries);
      return;
    }
    const local = entries.filter((e) => e.pkg === node.path && e.origin);
    for (const step of steps) {
      const configPath = step.fn.configPath;
      if (configPath === undefined) continue;
      if (!local.some((e) => pathOf(e.doc) === cleanPath(configPath))) {
        throw new PlainCause(
          kptfileFieldError({
            field: `${stepField(step)}.configPath`,
            value: configPath,
            reason: `functionConfig resource for ${step.kind} ${JSON.stringify(stepDisplayName(step.fn))} is missing from path ${JSON.stringify(configPath)}, this also occurs if ${JSON.stringify(configPath)} is part of a subpackage`,
          }),
        );
      }
    }
    for (const step of steps) {
      if (step.fn.image) {
        try {
          step.label = statusImage(step.fn.image, { tag: step.fn.tag, prefix: this.options.imagePrefix });
        } catch (err) {
          throw new KptError({
            op: "pipeline.run",
            pkg: bfs && node.path !== "" ? displayPkgPath(node.path) : undefined,
            cause: (err as Error).message,
          });
        }
      }
      const functionConfig = this.functionConfig(step, node, entries);
      const name = step.fn.image ?? step.fn.exec ?? "";
      const filtering = (step.fn.selectors?.length ?? 0) > 0 || (step.fn.exclude?.length ?? 0) > 0;
      const packagePath = displayPkgPath(node.path);
      const resourceCount = filtering
        ? entries.filter((e) => isSelected(e.doc, step.fn)).length
        : entries.length;
      const fnType: "image" | "exec" = step.fn.image ? "image" : "exec";
      const label = stepLabel(step);
      const pending = {
        packagePath,
        kind: step.kind,
        name,
        label,
        fnType,
        resourceCount,
        selected: filtering,
      };
      const when = step.fn.when ?? step.fn.condition;
      if (when !== undefined) {
        let met: boolean;
        try {
          met = await whenConditionMet(when, entries, step);
        } catch (err) {
          throw new PlainCause((err as Error).message);
        }
        if (!met) {
          const status = skippedStepStatus(step, when);
          (step.kind === "mutator" ? this.mutationSteps : this.validationSteps).push(status);
          const report: StepReport = { ...pending, packageName: pkgName, status, durationMs: 0, results: [] };
          this.steps.push(report);
          this.options.onEvent?.({ type: "step-end", step: report });
          continue;
        }
      }
      this.options.onEvent?.({ type: "step-start", step: { ...pending, packageName: pkgName } });
      const outcome = enforcePathInvariants(
        await runStep({
          step,
          pkg: node.path,
          entries,
          functionConfig,
          runtime: this.options.runtime,
          cwd: this.options.cwd,
          packagePaths: true,
          inPlace: this.options.inPlace,
        }),
        entries,
        this.options.files ?? new Set(),
      );
      if (when !== undefined) outcome.status.when = when;
      const report: StepReport = {
        ...pending,
        packageName: pkgName,
        resourceCount: outcome.resourceCount,
        status: outcome.status,
        durationMs: outcome.durationMs,
        results: outcome.results satisfies FunctionResult[],
      };
      this.steps.push(report);
      (step.kind === "mutator" ? this.mutationSteps : this.validationSteps).push(outcome.status);
      this.options.onEvent?.({ type: "step-end", step: report });
      if (outcome.failure !== undefined) {
        const st = outcome.status;
        this.errorSummary = st.executionError
          ? `${label}: ${st.executionError}`
          : `${label}: exit code ${st.exitCode}`;
        throw new KptError({
          op: "pipeline.run",
          pkg: bfs && node.path !== "" ? displayPkgPath(node.path) : undefined,
          cause: outcome.failure,
        });
      }
      this.executed++;
      entries = outcome.entries;
      this.replaceSubtree(node.path, entries);
    }
  }
}

/** A plain (non-chain) cause of a package's failure, e.g. a pipeline validation message. */
class PlainCause extends Error {}

/** Wraps a child failure (or a plain cause) into this package's `pkg.render` level. */
function wrap(display: string, err: unknown): KptError {
  if (err instanceof PlainCause) return new KptError({ op: "pkg.render", pkg: display, cause: err.message });
  if (err instanceof KptError) {
    // A `pkg.render` error is already wrapped: this package's own, or a subpackage's, which kpt 1.0
    // passes up as it is (`pkg.render: pkg ./db:\n\tpipeline.run: …`, not nested under `pkg .`).
    if (err.op === "pkg.render") return err;
    return new KptError({ op: "pkg.render", pkg: display, cause: err });
  }
  throw err;
}
