/** What the reports read of a render: one rendered package, and the annotations located for it. */
import type { PackageFiles, RenderResult } from "../engine/types.js";
import type { CheckAnnotation } from "../github/port.js";

/** One rendered package as the reports see it. */
export interface PackageReport {
  /** Repository-relative path of the package root (`""` for the repository root). */
  packagePath: string;
  result: RenderResult;
  /** The package's files as pushed (used to locate lines when nothing was stored). */
  inputFiles: PackageFiles;
}

/**
 * One package's annotations, located where it was rendered (a render worker, within its budgets), with
 * paths relative to the package: the file that does not parse (if the render failed that way), the
 * first results that name a file, how many results name one in all, and where the first
 * error-severity results point (`file:line` relative to the package, `""` when they name no file).
 */
export interface PackageAnnotations {
  invalid?: CheckAnnotation;
  results: CheckAnnotation[];
  total: number;
  errorsAt: string[];
}
