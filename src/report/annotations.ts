/**
 * Function results → GitHub check-run annotations (Checks API `output.annotations[]`): one per result
 * that names a file, at the line of its resource or field in the rendered file.
 */
import path from "node:path/posix";
import type { PackageFiles, RenderResult, StepReport } from "../engine/types.js";
import type { CheckAnnotation } from "../github/port.js";
import type { FunctionResult } from "../krm/resource-list.js";
import type { PackageAnnotations, PackageReport } from "./package-report.js";
import { yamlErrorAnnotation } from "./yaml-error-annotation.js";
import { locateInParsed, type ParsedYaml, parseForLocate } from "./yaml-position.js";

export type { PackageAnnotations, PackageReport } from "./package-report.js";
export { yamlErrorAnnotation } from "./yaml-error-annotation.js";

/** A render result that may carry its {@link PackageAnnotations} (the render pool's results do). */
export type AnnotatedRenderResult = RenderResult & { annotations?: PackageAnnotations };

/** Error-severity results listed (and located) per package in the gate; the annotations show them all. */
export const MAX_LISTED_ERRORS = 50;

/** A result together with where it came from. */
export interface LocatedResult {
  packagePath: string;
  step: StepReport;
  result: FunctionResult;
}

/** GitHub's maximum of annotations per create/update request. */
export const ANNOTATIONS_PER_REQUEST = 50;

/**
 * Most annotations one check run gets (10 requests). Beyond that the summary says how many were left
 * out: a function reporting thousands of results must not cost hundreds of API calls.
 */
export const MAX_ANNOTATIONS = 500;

const LEVELS = { error: "failure", warning: "warning", warn: "warning", info: "notice" } as const;

/** Severity → `annotation_level` (error → failure, warning → warning, info or none → notice). */
export function annotationLevel(result: FunctionResult): CheckAnnotation["annotation_level"] {
  return LEVELS[result.severity ?? "info"] ?? "notice";
}

/**
 * Every result of one step, in the function's order: the engine's `results` when given, else the Kptfile
 * status' `results` plus `errorResults` (kpt files a failed step's results under `errorResults`).
 */
export function stepResults(step: StepReport): FunctionResult[] {
  return step.results ?? [...(step.status.results ?? []), ...(step.status.errorResults ?? [])];
}

/** Every result of every step of every package, in step order. @public (not used yet) */
export function allResults(packages: PackageReport[]): LocatedResult[] {
  const out: LocatedResult[] = [];
  for (const pkg of packages) {
    for (const step of pkg.result.steps) {
      for (const result of stepResults(step)) out.push({ packagePath: pkg.packagePath, step, result });
    }
  }
  return out;
}

/**
 * The package-relative file a result names: a result from a subpackage step (`./db`) may name its file
 * relative to that subpackage; the first candidate that exists wins.
 */
function resolveFile(step: StepReport, file: string, files: PackageFiles): string {
  const normalized = path.normalize(file).replace(/^\.\//, "");
  const inSub = path.normalize(path.join(step.packagePath, normalized));
  if (step.packagePath !== "." && files.has(inSub)) return inSub;
  return normalized;
}

function stepLabel(step: StepReport): string {
  return `${step.kind} ${step.name}`;
}

/** Parses each file of a package at most once for locating results (positions reused). */
type ParseCache = Map<string, ParsedYaml | undefined>;

/**
 * Annotation for one result (path relative to the package), or `undefined` when the result names no
 * file (it belongs in the summary). `cache` keeps each file's parse for the package's other results.
 */
function toAnnotation(
  files: PackageFiles,
  inputFiles: PackageFiles,
  located: Omit<LocatedResult, "packagePath">,
  cache: ParseCache,
): CheckAnnotation | undefined {
  const { result, step } = located;
  if (!result.file?.path) return undefined;
  const rel = resolveFile(step, result.file.path, files);
  if (!cache.has(rel)) {
    const bytes = files.get(rel) ?? inputFiles.get(rel);
    cache.set(rel, bytes ? parseForLocate(new TextDecoder().decode(bytes)) : undefined);
  }
  const parsed = cache.get(rel);
  const position = parsed
    ? locateInParsed(parsed, {
        index: result.file.index,
        resourceRef: result.resourceRef,
        fieldPath: result.field?.path,
      })
    : undefined;
  const line = Math.max(1, position?.line ?? 1);
  const annotation: CheckAnnotation = {
    path: rel,
    start_line: line,
    end_line: Math.max(line, position?.endLine ?? line),
    annotation_level: annotationLevel(result),
    message: result.message || "(no message)",
    title: stepLabel(step),
  };
  if (
    position?.column !== undefined &&
    position.endColumn !== undefined &&
    annotation.start_line === annotation.end_line
  ) {
    annotation.start_column = position.column;
    annotation.end_column = Math.max(position.column, position.endColumn);
  }
  if (result.field?.path) annotation.raw_details = `field: ${result.field.path}`;
  return annotation;
}

/** The first {@link MAX_LISTED_ERRORS} error-severity results of each step of a package, once each. */
function listedErrors(result: RenderResult): { step: StepReport; result: FunctionResult }[] {
  const out: { step: StepReport; result: FunctionResult }[] = [];
  for (const step of result.steps) {
    const seen = new Set<FunctionResult>();
    for (const r of stepResults(step)) {
      if (r.severity !== "error" || seen.has(r)) continue;
      seen.add(r);
      if (out.length < MAX_LISTED_ERRORS) out.push({ step, result: r });
    }
  }
  return out;
}

/**
 * Locates one package's annotations: only the first `max` results that name a file are built (each
 * file parsed once); the rest are only counted. Runs in the render worker after the render.
 */
export function locatePackageAnnotations(
  result: RenderResult,
  inputFiles: PackageFiles,
  max = MAX_ANNOTATIONS,
): PackageAnnotations {
  const files = result.files ?? inputFiles;
  const cache: ParseCache = new Map();
  const out: PackageAnnotations = { results: [], total: 0, errorsAt: [] };
  const invalid = yamlErrorAnnotation({ packagePath: "", result, inputFiles });
  if (invalid) out.invalid = invalid;
  for (const step of result.steps) {
    for (const r of stepResults(step)) {
      if (!r.file?.path) continue;
      out.total++;
      if (out.results.length >= max) continue;
      const annotation = toAnnotation(files, inputFiles, { step, result: r }, cache);
      if (annotation) out.results.push(annotation);
    }
  }
  for (const listed of listedErrors(result)) {
    const a = toAnnotation(files, inputFiles, listed, cache);
    out.errorsAt.push(a ? `${a.path}:${a.start_line}` : "");
  }
  return out;
}

/** The package's located annotations: those its render worker sent, else located now. */
function locatedOf(pkg: PackageReport, max = MAX_ANNOTATIONS): PackageAnnotations {
  return (
    (pkg.result as AnnotatedRenderResult).annotations ??
    locatePackageAnnotations(pkg.result, pkg.inputFiles, max)
  );
}

/** An error-severity result where a reader finds it: the step, `file:line` (repository-relative) and field. */
export interface ErrorResultLocation {
  step: StepReport;
  result: FunctionResult;
  /** `app/ns.yaml:4` when the result names a file, else undefined. */
  where: string | undefined;
  field: string | undefined;
}

/**
 * The error-severity results of a package's steps (`results` and kpt's `errorResults`, once each; the
 * first {@link MAX_LISTED_ERRORS}), with the file and line their annotation points at.
 */
export function errorResultLocations(pkg: PackageReport): ErrorResultLocation[] {
  const { errorsAt } = locatedOf(pkg);
  return listedErrors(pkg.result).map(({ step, result }, i) => {
    const at = errorsAt[i];
    return {
      step,
      result,
      where: at ? (pkg.packagePath ? path.join(pkg.packagePath, at) : at) : undefined,
      field: result.field?.path,
    };
  });
}

/** One Markdown line for a located error result: `` `app/ns.yaml:4` field `metadata.name`: message ``. */
export function describeErrorResult(located: ErrorResultLocation): string {
  const ref = located.result.resourceRef;
  const resource = ref ? ` ${[ref.kind, ref.namespace, ref.name].filter(Boolean).join("/")}` : "";
  const where = located.where ? `\`${located.where}\`${resource}` : resource.trim() || "no file";
  const field = located.field ? ` field \`${located.field}\`` : "";
  return `${where}${field}: ${(located.result.message || "(no message)").replace(/\r?\n/g, " ")}`;
}

/** `annotation` with its path inside the package at `packagePath`. */
function inPackage(packagePath: string, annotation: CheckAnnotation): CheckAnnotation {
  return packagePath ? { ...annotation, path: path.join(packagePath, annotation.path) } : annotation;
}

/**
 * The annotations of a render, at most `max`: files that do not parse first, then function results in
 * step order. Each package's are those its render worker located, or located here (renders on the
 * main thread: the CLI, tests). `omitted` counts the results left out.
 */
export function reportAnnotations(
  packages: PackageReport[],
  max = MAX_ANNOTATIONS,
): { annotations: CheckAnnotation[]; omitted: number } {
  const located = packages.map((pkg) => ({ pkg, found: locatedOf(pkg, max) }));
  const all: CheckAnnotation[] = [];
  let total = 0;
  for (const { pkg, found } of located) {
    if (!found.invalid) continue;
    all.push(inPackage(pkg.packagePath, found.invalid));
    total++;
  }
  for (const { pkg, found } of located) {
    total += found.total;
    for (const a of found.results) if (all.length < max) all.push(inPackage(pkg.packagePath, a));
  }
  return { annotations: all, omitted: total - all.length };
}

/** Every annotation of a render (see {@link reportAnnotations}, which builds only those sent). */
export function buildAnnotations(packages: PackageReport[]): CheckAnnotation[] {
  return reportAnnotations(packages, Number.POSITIVE_INFINITY).annotations;
}

/** Keeps the first `max` annotations; `omitted` counts the rest. */
export function limitAnnotations(
  annotations: CheckAnnotation[],
  max = MAX_ANNOTATIONS,
): { annotations: CheckAnnotation[]; omitted: number } {
  return { annotations: annotations.slice(0, max), omitted: Math.max(0, annotations.length - max) };
}

/** Splits annotations into request-sized batches (at most {@link ANNOTATIONS_PER_REQUEST} each). */
export function batchAnnotations(
  annotations: CheckAnnotation[],
  size = ANNOTATIONS_PER_REQUEST,
): CheckAnnotation[][] {
  const batches: CheckAnnotation[][] = [];
  for (let i = 0; i < annotations.length; i += size) batches.push(annotations.slice(i, i + size));
  return batches;
}
