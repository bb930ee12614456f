/**
 * Render results → the `porchlight/render` check run's conclusion, title and Markdown summary:
 * per package a table of its pipeline steps (function, exit code, number of results, duration),
 * the error chain when rendering failed, and every result that names no file (those that do become
 * annotations). Pure: no I/O.
 */
import type { StepReport } from "../engine/types.js";
import type { CheckConclusion } from "../github/port.js";
import type { FunctionResult } from "../krm/resource-list.js";
import { type PackageReport, stepResults } from "./annotations.js";

/** GitHub's limit for `output.summary` (characters). */
export const SUMMARY_LIMIT = 65_535;

/** What the check run shows. */
export interface CheckReport {
  conclusion: CheckConclusion;
  title: string;
  summary: string;
}

function displayPath(packagePath: string): string {
  return packagePath === "" ? "(repository root)" : packagePath;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function resultLine(result: FunctionResult): string {
  const ref = result.resourceRef;
  const where = ref ? ` (${[ref.kind, ref.namespace, ref.name].filter(Boolean).join("/")})` : "";
  const field = result.field?.path ? ` field \`${result.field.path}\`` : "";
  return `- **${result.severity ?? "info"}**${where}${field}: ${result.message.replace(/\r?\n/g, " ")}`;
}

function fence(text: string): string {
  const body = text.length > 4000 ? `${text.slice(0, 4000)}\n… (truncated)` : text;
  return ["```", body.replace(/```/g, "ʼʼʼ"), "```"].join("\n");
}

const KPT_OPS = /^(?:pkg\.render|pipeline\.run|pkg\.Subpackages|fn\.render)(?:: pkg [^:\n]*)?:\s*/;

/**
 * What went wrong, without kpt's error chain (`pkg.render: pkg ./db:\n\tpipeline.run: ...`): the innermost
 * cause, which names the package or file itself. `undefined` for kpt's `already handled error` (a function
 * failed, and its step says why) or when there is no error.
 */
export function renderFailureCause(error: string | undefined): string | undefined {
  if (!error) return undefined;
  let cause = error.trim();
  for (let previous = ""; previous !== cause; ) {
    previous = cause;
    cause = cause.replace(KPT_OPS, "");
  }
  return cause === "already handled error" || cause === "" ? undefined : cause;
}

/** The package a chain names (`pkg.render: pkg ./db:` → `./db`), when it is a subpackage. */
function chainPackage(error: string | undefined): string | undefined {
  const named = [...(error ?? "").matchAll(/pkg\.render: pkg ([^:\n]*)/g)].map((m) => m[1]).at(-1);
  return named === undefined || named === "." ? undefined : named;
}

function stepFailed(step: StepReport): boolean {
  return step.status.exitCode !== 0 || Boolean(step.status.executionError);
}

function hasErrorResults(step: StepReport): boolean {
  return stepResults(step).some((r) => r.severity === "error");
}

function stepRow(step: StepReport): string {
  const results = stepResults(step).length;
  const pkg = step.packagePath === "." ? "" : ` (${step.packagePath})`;
  const mark = stepFailed(step) || hasErrorResults(step) ? "❌" : "✅";
  return `| ${mark} | ${step.kind}${pkg} | \`${cell(step.name)}\` | ${step.status.exitCode} | ${results} | ${formatDuration(step.durationMs)} |`;
}

function packageSection(pkg: PackageReport): string[] {
  const { result } = pkg;
  const clean = result.ok && !result.steps.some(hasErrorResults);
  const lines = [`### ${clean ? "✅" : "❌"} \`${displayPath(pkg.packagePath)}\``, ""];
  if (result.steps.length === 0)
    lines.push(
      result.ok ? "No pipeline steps." : "The pipeline did not run: the package could not be read.",
      "",
    );
  else {
    lines.push("| | Step | Function | Exit code | Results | Duration |", "|---|---|---|---|---|---|");
    for (const step of result.steps) lines.push(stepRow(step));
    lines.push("");
  }
  for (const step of result.steps) {
    const problems = [
      step.status.executionError,
      step.status.exitCode !== 0 ? step.status.stderr : undefined,
    ];
    const text = problems.filter((p): p is string => Boolean(p?.trim())).join("\n");
    if (text)
      lines.push(`**${step.kind} \`${step.name}\`** (${step.packagePath}):`, "", fence(text.trim()), "");
  }
  const unfiled = result.steps.flatMap((s) => stepResults(s).filter((r) => !r.file?.path));
  if (unfiled.length > 0) {
    lines.push("Results without a file:", "", ...unfiled.map(resultLine), "");
  }
  if (!result.ok) {
    if (result.status.renderStatus?.errorSummary)
      lines.push(`Error: ${result.status.renderStatus.errorSummary}`, "");
    const cause = renderFailureCause(result.error);
    const sub = chainPackage(result.error);
    if (cause && sub) lines.push(`In subpackage \`${sub}\`:`, "", fence(cause), "");
    else if (cause) lines.push(fence(cause), "");
    lines.push(result.files ? "The package was stored with its Kptfile status." : "Nothing was stored.", "");
  }
  return lines;
}

/** Cuts `text` to at most `limit` characters, ending with a visible note. */
export function truncateSummary(text: string, limit = SUMMARY_LIMIT): string {
  if (text.length <= limit) return text;
  const note = "\n\n… (summary truncated: GitHub allows 65535 characters)";
  return text.slice(0, limit - note.length) + note;
}

/**
 * Conclusion (`failure` when any package failed), title and summary for the rendered packages.
 * `extra` lines (e.g. "no change, nothing committed") are appended before truncation.
 */
export function formatCheckReport(options: { packages: PackageReport[]; notes?: string[] }): CheckReport {
  const { packages } = options;
  const failed = packages.filter((p) => !p.result.ok);
  const results = packages.flatMap((p) => p.result.steps.flatMap(stepResults));
  const failedSteps = packages.flatMap((p) => p.result.steps).filter(stepFailed).length;
  const errors = results.filter((r) => r.severity === "error").length;
  const warnings = results.filter((r) => r.severity === "warning" || r.severity === "warn").length;
  const tally = [
    failedSteps ? `${failedSteps} failed step${failedSteps === 1 ? "" : "s"}` : "",
    errors ? `${errors} error${errors === 1 ? "" : "s"}` : "",
    warnings ? `${warnings} warning${warnings === 1 ? "" : "s"}` : "",
  ].filter(Boolean);
  const names = (list: PackageReport[]) => list.map((p) => displayPath(p.packagePath)).join(", ");
  const plural = packages.length === 1 ? "" : "s";
  const title =
    (failed.length > 0
      ? `Render failed: ${names(failed)}`
      : `Rendered ${packages.length} package${plural}: ${names(packages)}`) +
    (tally.length ? ` (${tally.join(", ")})` : "");
  const lines = [`## porchlight/render`, ""];
  for (const pkg of packages) lines.push(...packageSection(pkg));
  if (options.notes?.length) lines.push(...options.notes.map((n) => `> ${n}`), "");
  return {
    conclusion: failed.length > 0 ? "failure" : "success",
    title: title.length > 250 ? `${title.slice(0, 249)}…` : title,
    summary: truncateSummary(lines.join("\n").trimEnd()),
  };
}
