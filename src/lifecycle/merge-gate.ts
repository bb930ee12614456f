/**
 * The merge gate: whether a commit may be approved (merged = published). Porch's approve requires a
 * Proposed revision that renders; porchlight's `porchlight/render` check on the pull request head fails
 * when, for any package the pull request touches:
 * 1. rendering fails (`Rendered=False` by OUR render of that exact sha — never a status in the file);
 * 2. the content differs from what rendering produces (rendered output or the Kptfile status was
 *    edited by hand, or the render commit is missing) — the steps' results under `status.renderStatus`,
 *    the record of the last render run, excepted: they legitimately differ on a re-render. The same
 *    rule decides whether a draft push is worth a render commit (./draft/render-draft.ts);
 * 3. a readiness gate (`info.readinessGates[].conditionType`) has no condition with status "True";
 * 4. a function reported an error-severity result although it exited 0 (catalog functions such as
 *    set-namespace do: kpt's render succeeds, Porch's results say the revision is wrong).
 * Pure: render results in, verdict and report out (worded by `src/report/gate-report.ts`).
 */
import path from "node:path/posix";
import { onlyRenderStatusDiffers } from "../engine/render-status-diff.js";
import type { CheckAnnotation, FileChanges } from "../github/port.js";
import {
  describeErrorResult,
  errorResultLocations,
  type PackageReport,
  reportAnnotations,
  stepResults,
  yamlErrorAnnotation,
} from "../report/annotations.js";
import { type CheckReport, formatCheckReport, renderFailureCause } from "../report/check-summary.js";
import { applyGateToReport, type GateProblem, type GateVerdict } from "../report/gate-report.js";
import { renderNotes } from "../report/messages.js";
import { factsOf } from "./gate-facts.js";
import { changedPathsOf } from "./render-at-sha.js";

export type { GateVerdict };
export { onlyRenderStatusDiffers };

/** The failing steps of a package, one line each: `` mutator `image` exited 1: stderr's first line ``. */
export function failingSteps(pkg: PackageReport): string[] {
  const located = errorResultLocations(pkg);
  return pkg.result.steps
    .filter((s) => s.status.exitCode !== 0 || s.status.executionError)
    .map((s) => {
      const where = s.packagePath === "." ? "" : ` in ${s.packagePath}`;
      const results = located.filter((l) => l.step === s && (l.where || l.field));
      if (results.length > 0 && !s.status.executionError)
        return [
          `${s.kind} \`${s.name}\`${where} exited ${s.status.exitCode}:`,
          ...results.map((l) => `  - ${describeErrorResult(l)}`),
        ].join("\n");
      const why =
        s.status.executionError ??
        s.status.errorResults?.[0]?.message ??
        s.status.results?.find((r) => r.severity === "error")?.message ??
        s.status.stderr?.trim().split("\n")[0] ??
        "";
      return `${s.kind} \`${s.name}\`${where} exited ${s.status.exitCode}${why ? `: ${why}` : ""}`;
    });
}

/**
 * Why a package does not render, for people: the file and line of a file that does not parse (the
 * pipeline did not run), else kpt's innermost cause without its chain, else the error summary.
 */
function renderFailureMessage(pkg: PackageReport): string {
  const invalid = yamlErrorAnnotation(pkg);
  if (invalid)
    return `\`${invalid.path}:${invalid.start_line}\`: ${invalid.message} — the pipeline did not run`;
  return (
    renderFailureCause(pkg.result.error) ?? pkg.result.status.renderStatus?.errorSummary ?? "rendering failed"
  );
}

/** `… and N more` when the package has more error results than the gate lists. */
function moreErrors(pkg: PackageReport, listed: number): string[] {
  const all = pkg.result.steps.reduce(
    (n, step) => n + new Set(stepResults(step).filter((r) => r.severity === "error")).size,
    0,
  );
  return all > listed ? [`… and ${all - listed} more (the check's annotations show them)`] : [];
}

function inPackage(filePath: string, packagePath: string): boolean {
  return packagePath === "" || filePath.startsWith(`${packagePath}/`);
}

/**
 * The files whose content differs from what rendering produces, per package path (innermost rendered
 * package wins), ignoring Kptfile changes that are only step results ({@link onlyRenderStatusDiffers}).
 * `changes` are the file changes that would store the render output (from `renderPackagesAtSha`).
 */
export function contentDrift(packages: PackageReport[], changes: FileChanges): Map<string, string[]> {
  const byDepth = [...packages].sort((a, b) => b.packagePath.length - a.packagePath.length);
  const drift = new Map<string, string[]>();
  for (const changed of changedPathsOf(changes)) {
    const owner = byDepth.find((p) => inPackage(changed, p.packagePath));
    if (!owner) continue;
    const rel = owner.packagePath === "" ? changed : changed.slice(owner.packagePath.length + 1);
    const kptfile = path.basename(rel) === "Kptfile";
    if (kptfile && factsOf(owner).runReportOnly.includes(rel)) continue;
    drift.set(owner.packagePath, [...(drift.get(owner.packagePath) ?? []), changed]);
  }
  return drift;
}

/**
 * Evaluates the gate over rendered packages: any {@link contentDrift} under a package means its content
 * is not what rendering produces. `enforceReadinessGates: false` skips rule 3.
 */
export function evaluateMergeGate(options: {
  packages: PackageReport[];
  changes: FileChanges;
  enforceReadinessGates?: boolean;
}): GateVerdict {
  const problems: GateProblem[] = [];
  const changed = contentDrift(options.packages, options.changes);
  for (const pkg of options.packages) {
    if (!pkg.result.ok) {
      problems.push({
        kind: "render-failed",
        packagePath: pkg.packagePath,
        steps: failingSteps(pkg),
        message: renderFailureMessage(pkg),
      });
      continue;
    }
    const errors = errorResultLocations(pkg);
    if (errors.length > 0)
      problems.push({
        kind: "error-results",
        packagePath: pkg.packagePath,
        results: [
          ...errors.map((l) => `${l.step.kind} \`${l.step.name}\`: ${describeErrorResult(l)}`),
          ...moreErrors(pkg, errors.length),
        ],
      });
    const files = changed.get(pkg.packagePath);
    if (files?.length)
      problems.push({ kind: "not-rendered", packagePath: pkg.packagePath, files: files.sort() });
    if (options.enforceReadinessGates === false) continue;
    for (const gate of factsOf(pkg).unmetGates)
      problems.push({ kind: "readiness", packagePath: pkg.packagePath, ...gate });
  }
  return { passed: problems.length === 0, problems };
}

/**
 * THE `porchlight/render` report of a commit — every path that posts the check (draft push, pull
 * request, re-run, merge group, default-branch push) builds it here, so they always agree on the
 * conclusion for the same content. `changes` are the tree changes that would still be needed to store
 * the render output on top of the reported commit: `renderPackagesAtSha`'s changes when the commit is
 * reported as it is, no changes when the report is about the app's own commit holding that output. Adds the
 * notes every path shares (exec not allowed, annotations over the limit). Pure.
 */
export function gateCheckReport(options: {
  packages: PackageReport[];
  changes: FileChanges;
  enforceReadinessGates?: boolean;
  notes?: string[];
}): { report: CheckReport; verdict: GateVerdict; annotations: CheckAnnotation[] } {
  const notes = [...(options.notes ?? [])];
  const steps = options.packages.flatMap((p) => p.result.steps);
  if (steps.some((step) => step.status.executionError?.includes("allow-exec")))
    notes.push(renderNotes.execNotAllowed());
  const { annotations, omitted } = reportAnnotations(options.packages);
  if (omitted > 0) notes.push(renderNotes.annotationsOmitted(omitted, annotations.length));
  const verdict = evaluateMergeGate({
    packages: options.packages,
    changes: options.changes,
    ...(options.enforceReadinessGates !== undefined
      ? { enforceReadinessGates: options.enforceReadinessGates }
      : {}),
  });
  const report = applyGateToReport(formatCheckReport({ packages: options.packages, notes }), verdict);
  return { report, verdict, annotations };
}
