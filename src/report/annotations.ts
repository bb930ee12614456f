/**
 * Function results → GitHub check-run annotations (Checks API `output.annotations[]`): one per result
 * that names a file, at the line of its resource or field in the rendered file.
 */
import path from "node:path/posix";
import type { PackageFiles, RenderResult, StepReport } from "../engine/types.js";
import type { CheckAnnotation } from "../github/port.js";
import type { FunctionResult } from "../krm/resource-list.js";
import { locateInYaml } from "./yaml-position.js";

/** One rendered package as the reports see it. */
export interface PackageReport {
  /** Repository-relative path of the package root (`""` for the repository root). */
  packagePath: string;
  result: RenderResult;
  /** The package's files as pushed (used to locate lines when nothing was stored). */
  inputFiles: PackageFiles;
}

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

/** Every result of every step of every package, in step order. */
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

/** Annotation for one result, or `undefined` when the result names no file (it belongs in the summary). */
export function toAnnotation(pkg: PackageReport, located: LocatedResult): CheckAnnotation | undefined {
  const { result, step } = located;
  if (!result.file?.path) return undefined;
  const files = pkg.result.files ?? pkg.inputFiles;
  const rel = resolveFile(step, result.file.path, files);
  const bytes = files.get(rel) ?? pkg.inputFiles.get(rel);
  const position = bytes
    ? locateInYaml({
        text: new TextDecoder().decode(bytes),
        index: result.file.index,
        resourceRef: result.resourceRef,
        fieldPath: result.field?.path,
      })
    : undefined;
  const line = Math.max(1, position?.line ?? 1);
  const annotation: CheckAnnotation = {
    path: pkg.packagePath ? path.join(pkg.packagePath, rel) : rel,
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

/** `<file>: yaml: line N: <reason>` in kpt's render error chain (a resource file that does not parse). */
const RESOURCE_YAML =
  /(?:^|[\s:])([^\s:"][^:\n"]*): (?:MalformedYAMLError: )?yaml: (?:line (\d+): )?([^\n]+)/;
/** `error reading Kptfile at "<dir>": yaml: line N: <reason>` (a Kptfile that does not parse). */
const KPTFILE_YAML = /error reading Kptfile at "([^"]*)": yaml: (?:line (\d+): )?([^\n]+)/;

/**
 * The annotation of a package that failed because a file is not valid YAML, at that file and line
 * (kpt's messages name them: `<file>: yaml: line 5: did not find expected key`, `error reading Kptfile at
 * "<dir>": yaml: line 3: ...`). `undefined` when the render did not fail that way.
 */
export function yamlErrorAnnotation(pkg: PackageReport): CheckAnnotation | undefined {
  const error = pkg.result.ok ? undefined : pkg.result.error;
  if (!error) return undefined;
  const kptfile = KPTFILE_YAML.exec(error);
  const resource = kptfile ? undefined : RESOURCE_YAML.exec(error);
  const match = kptfile ?? resource;
  if (!match) return undefined;
  const [, where = "", lineText, reason = ""] = match;
  const dir = where.replace(/^\.\/?/, "");
  const rel = kptfile ? path.join(dir, "Kptfile") : path.normalize(where);
  const line = Math.max(1, Number(lineText ?? 1));
  return {
    path: pkg.packagePath ? path.join(pkg.packagePath, rel) : rel,
    start_line: line,
    end_line: line,
    annotation_level: "failure",
    title: kptfile ? "Invalid Kptfile" : "Invalid YAML",
    message: `yaml: ${lineText ? `line ${lineText}: ` : ""}${reason}`,
  };
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
 * The error-severity results of a package's steps (`results` and kpt's `errorResults`, once each), with
 * the file and line their annotation points at.
 */
export function errorResultLocations(pkg: PackageReport): ErrorResultLocation[] {
  const out: ErrorResultLocation[] = [];
  for (const step of pkg.result.steps) {
    const seen = new Set<FunctionResult>();
    for (const result of stepResults(step)) {
      if (result.severity !== "error" || seen.has(result)) continue;
      seen.add(result);
      const annotation = toAnnotation(pkg, { packagePath: pkg.packagePath, step, result });
      out.push({
        step,
        result,
        where: annotation ? `${annotation.path}:${annotation.start_line}` : undefined,
        field: result.field?.path,
      });
    }
  }
  return out;
}

/** One Markdown line for a located error result: `` `app/ns.yaml:4` field `metadata.name`: message ``. */
export function describeErrorResult(located: ErrorResultLocation): string {
  const ref = located.result.resourceRef;
  const resource = ref ? ` ${[ref.kind, ref.namespace, ref.name].filter(Boolean).join("/")}` : "";
  const where = located.where ? `\`${located.where}\`${resource}` : resource.trim() || "no file";
  const field = located.field ? ` field \`${located.field}\`` : "";
  return `${where}${field}: ${(located.result.message || "(no message)").replace(/\r?\n/g, " ")}`;
}

/** All annotations of a render: files that do not parse first, then function results in step order. */
export function buildAnnotations(packages: PackageReport[]): CheckAnnotation[] {
  const byPath = new Map(packages.map((p) => [p.packagePath, p]));
  const out: CheckAnnotation[] = [];
  for (const pkg of packages) {
    const invalid = yamlErrorAnnotation(pkg);
    if (invalid) out.push(invalid);
  }
  for (const located of allResults(packages)) {
    const pkg = byPath.get(located.packagePath);
    const annotation = pkg && toAnnotation(pkg, located);
    if (annotation) out.push(annotation);
  }
  return out;
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
