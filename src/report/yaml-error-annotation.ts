/**
 * The annotation of a package whose render failed because a file is not valid YAML, at the file and
 * line kpt's error names.
 */
import path from "node:path/posix";
import type { CheckAnnotation } from "../github/port.js";
import type { PackageReport } from "./package-report.js";

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
