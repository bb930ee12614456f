/**
 * The catalog's `gatekeeper` results: one per violation, `<msg>\nviolatedConstraint: <name>`, the
 * severity from the constraint's `enforcementAction` (`dryrun` info, `warn` warning, anything else
 * error), the reviewed resource's reference and file; sorted as the function sorts them (file path,
 * file index, severity, then reference and message); and the stderr it prints when it fails (kyaml's
 * `Result.Error()`: `[severity] apiVersion/kind/namespace/name field: message`, empty parts left out, blank-line
 * separated).
 */
import type { FunctionResult, KrmResource, ResultSeverity } from "../../../krm/resource-list.js";
import { fileOf, resourceRef } from "../yaml-nodes.js";

/** The severity the catalog's function gives an enforcement action. */
export function severityOf(enforcementAction: unknown): ResultSeverity {
  if (enforcementAction === "dryrun") return "info";
  if (enforcementAction === "warn") return "warning";
  return "error";
}

/** One violation as a result on the reviewed resource. */
export function violationResult(
  message: string,
  constraintName: string,
  severity: ResultSeverity,
  resource: KrmResource,
): FunctionResult {
  const result: FunctionResult = {
    message: `${message}\nviolatedConstraint: ${constraintName}`,
    severity,
    resourceRef: resourceRef(resource),
  };
  const file = fileOf(resource);
  if (file) result.file = file;
  return result;
}

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** The Go `%s` of the result's reference, field and message the function sorts ties by. */
function sortKey(r: FunctionResult): string {
  const ref = r.resourceRef ?? {};
  return (
    `resource-ref:{{${ref.apiVersion ?? ""} ${ref.kind ?? ""}} {${ref.name ?? ""} ${ref.namespace ?? ""}}},` +
    `field:{  },message:${r.message}`
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts results as the catalog's `sortResultItems` does (stable). */
export function sortResults(results: FunctionResult[]): FunctionResult[] {
  return results
    .map((r) => ({ r, key: sortKey(r) }))
    .sort(
      (a, b) =>
        compareText(a.r.file?.path ?? "", b.r.file?.path ?? "") ||
        (a.r.file?.index ?? 0) - (b.r.file?.index ?? 0) ||
        (SEVERITY_RANK[a.r.severity ?? ""] ?? 3) - (SEVERITY_RANK[b.r.severity ?? ""] ?? 3) ||
        compareText(a.key, b.key),
    )
    .map((x) => x.r);
}

/** kyaml's `Result.Error()`: what the function prints to stderr when a result is an error. */
export function resultsStderr(results: readonly FunctionResult[]): string {
  return results
    .map((r) => {
      const ref = r.resourceRef ?? {};
      const id = [ref.apiVersion, ref.kind, ref.namespace, ref.name].filter((s) => s).join("/");
      return `[${r.severity ?? ""}] ${id} ${r.field?.path ?? ""}: ${r.message}`;
    })
    .join("\n\n");
}
