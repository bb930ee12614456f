/**
 * kpt's package hydration (`hydrate` in kpt's render executor): packages are rendered depth-first,
 * subpackages before their parent (breadth-first with `kpt.dev/bfs-rendering: "true"`); a package's
 * pipeline sees its own resources plus its subpackages' rendered resources (Kptfiles included).
 * Failures are thrown as kpt error chains (`KptError`); the working set keeps the partial state.
 */
import { KptfileError, readKptfileData } from "../kptfile/read.js";
import type { Kptfile } from "../kptfile/schema.js";
import { displayPkgPath, joinPath, type PackageNode } from "../krm/package-tree.js";
import { YamlSyntaxError } from "../krm/yaml-errors.js";
import { type NodeParsedFile, readYamlFileNodes } from "../krm/yaml-io.js";
import { annotateRead, type Entry, inSubtree, nonKrmProblem, takeFacts } from "./entries.js";
import { KptError, PlainCause, wrapPackageError } from "./errors.js";
import { pipelineSteps, validatePipeline } from "./function-config.js";
import { type HydrationContext, type PipelineOptions, runPipeline } from "./pipeline.js";
import type { StepReport, StepStatus } from "./types.js";

/** Inputs of a hydration run. */
export interface HydrationOptions extends PipelineOptions {
  rootName: string;
  displayDir: string;
  /** A resource file's UTF-8 problem in yaml.v3's words (kpt fails on it), or undefined. */
  utf8Problem?: (path: string) => string | undefined;
}

/** State of one render: the working set and everything recorded on the way (kpt's `hydrationContext`). */
export class Hydration implements HydrationContext {
  working: Entry[] = [];
  readonly parsed = new Map<string, NodeParsedFile>();
  readonly inputFiles = new Set<string>();
  readonly kptfiles = new Map<string, Kptfile>();
  readonly steps: StepReport[] = [];
  readonly mutationSteps: StepStatus[] = [];
  readonly validationSteps: StepStatus[] = [];
  errorSummary: string | undefined;
  executed = 0;
  packages = 0;
  private readonly loaded = new Set<string>();

  constructor(readonly options: HydrationOptions) {}

  private packageName(pkg: string): string {
    return pkg === "" ? this.options.rootName : `${this.options.rootName}/${pkg}`;
  }

  /** Reads and validates a subpackage's Kptfile (kpt: `pkg.Subpackages` / `pkg.read`). */
  private readSubKptfile(node: PackageNode): void {
    const file = joinPath(node.path, "Kptfile");
    const display = displayPkgPath(node.path);
    try {
      const kptfile = readKptfileData(file, this.options.text(file) ?? "");
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
      const parsed = this.readResourceFile(node, file);
      this.parsed.set(file, parsed);
      if (parsed.docs.length > 0) this.inputFiles.add(file);
      const rel = node.path === "" || asRoot ? file : file.slice(node.path.length + 1);
      for (const doc of parsed.docs) {
        const createdAnnotations = annotateRead(doc.node, {
          relPath: rel,
          index: doc.index,
          seqIndent: doc.seqIndent,
        });
        const entry: Entry = {
          node: doc.node,
          pkg: asRoot ? "" : node.path,
          origin: doc,
          originFile: parsed,
          createdAnnotations,
          facts: undefined,
        };
        entry.facts = takeFacts(entry);
        this.working.push(entry);
      }
    }
  }

  /** Reads one resource file of a package into document nodes; bad bytes or YAML throw kpt's chain. */
  private readResourceFile(node: PackageNode, file: string): NodeParsedFile {
    const invalid = this.options.utf8Problem?.(file);
    if (invalid) {
      throw new KptError({
        op: "pkg.render",
        pkg: displayPkgPath(node.path),
        cause: `${file}: MalformedYAMLError: yaml: ${invalid}`,
      });
    }
    try {
      return readYamlFileNodes(file, this.options.text(file) ?? "");
    } catch (err) {
      if (!(err instanceof YamlSyntaxError)) throw err;
      throw new KptError({
        op: "pkg.render",
        pkg: displayPkgPath(node.path),
        cause: `${file}: ${err.detail}`,
      });
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
      throw wrapPackageError(display, err);
    }
    for (const sub of node.subpackages) {
      try {
        this.validateSub(sub);
        await this.hydrateDfs(sub);
      } catch (err) {
        throw wrapPackageError(display, err);
      }
    }
    try {
      this.loadLocal(node);
      await this.runPipeline(node, false);
    } catch (err) {
      throw wrapPackageError(display, err);
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
      throw wrapPackageError(".", err);
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

  /** Runs one package's pipeline on its subtree's entries; failures throw the package's cause. */
  private async runPipeline(node: PackageNode, bfs: boolean): Promise<void> {
    const pkgName = this.packageName(node.path);
    this.options.onEvent?.({
      type: "package-start",
      packagePath: displayPkgPath(node.path),
      packageName: pkgName,
    });
    const entries = this.pipelineInput(node, bfs);
    const steps = pipelineSteps(this.kptfiles.get(node.path)!);
    if (steps.length === 0) {
      const problem = nonKrmProblem(entries);
      if (problem) throw new PlainCause(`input resource list must contain only KRM resources: ${problem}`);
      this.replaceSubtree(node.path, entries);
      return;
    }
    const commit = (output: Entry[]) => this.replaceSubtree(node.path, output);
    await runPipeline(this, { node, bfs, pkgName, entries, commit }, steps);
  }
}
