/**
 * The merge gate's verdict in words: one Markdown line per problem (for the check summary and the pull
 * request comment), and the check report with the gate applied. The gate itself (which problems a
 * commit has) is `src/lifecycle/merge-gate.ts`. Pure.
 */
import path from "node:path/posix";
import { type CheckReport, truncateSummary } from "./check-summary.js";

/** One reason the gate fails. */
export type GateProblem =
  | { kind: "render-failed"; packagePath: string; steps: string[]; message: string }
  | { kind: "not-rendered"; packagePath: string; files: string[] }
  /** Rendering succeeded (every function exited 0) but a function reported error-severity results. */
  | { kind: "error-results"; packagePath: string; results: string[] }
  | { kind: "readiness"; packagePath: string; conditionType: string; message: string };

/** The gate's decision. */
export interface GateVerdict {
  passed: boolean;
  problems: GateProblem[];
}

const display = (packagePath: string) => (packagePath === "" ? "(repository root)" : packagePath);

/** One Markdown line per problem, for the check summary and the pull request comment. */
export function describeProblem(problem: GateProblem): string {
  const pkg = `\`${display(problem.packagePath)}\``;
  switch (problem.kind) {
    case "render-failed":
      return `- ${pkg}: rendering fails (Rendered=False)${problem.steps.length ? "" : `: ${problem.message}`}${problem.steps.map((s) => `\n  - ${s}`).join("")}`;
    case "not-rendered": {
      const files = problem.files.map((f) => `\`${path.relative(problem.packagePath || ".", f) || f}\``);
      return `- ${pkg}: content differs from what rendering produces (${files.join(", ")}) — rendered output or the Kptfile status was edited by hand; push to the draft branch to re-render`;
    }
    case "error-results":
      return `- ${pkg}: a function reported ${problem.results.length === 1 ? "an error result" : `${problem.results.length} error results`} (it exited 0, so \`kpt fn render\` succeeds, but the package is not what the function expects)${problem.results.map((r) => `\n  - ${r.replace(/\n/g, "\n  ")}`).join("")}`;
    case "readiness":
      return `- ${pkg}: readiness gate \`${problem.conditionType}\` is not met: ${problem.message}`;
  }
}

/**
 * The check report with the gate applied: conclusion `failure` and a "Merge gate" section listing the
 * problems when the gate fails; the base report otherwise (its own conclusion kept).
 */
export function applyGateToReport(report: CheckReport, verdict: GateVerdict): CheckReport {
  if (verdict.passed) return report;
  const kinds = new Set(verdict.problems.map((p) => p.kind));
  const title = kinds.has("render-failed")
    ? report.title
    : kinds.has("error-results")
      ? `Not mergeable: error results in ${[...new Set(verdict.problems.filter((p) => p.kind === "error-results").map((p) => display(p.packagePath)))].join(", ")}`
      : kinds.has("not-rendered")
        ? "Not mergeable: content differs from its render"
        : "Not mergeable: readiness gates not met";
  const section = ["### ⛔ Merge gate", "", ...verdict.problems.map(describeProblem)].join("\n");
  const [head, ...rest] = report.summary.split("\n\n");
  return {
    conclusion: "failure",
    title,
    summary: truncateSummary([head, section, ...rest].join("\n\n")),
  };
}
