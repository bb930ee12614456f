/**
 * kpt's render progress output on stderr: `Package "<name>":`, `[RUNNING] "<image>" on package
 * "<name>"`, `[PASS] "<image>" in 0.1s` / `[FAIL] ...`, the function's results and stderr, its exit
 * code on failure (stderr truncated to 4 lines unless `--truncate-output=false`).
 */
import { normalizeImage } from "../engine/image.js";
import type { RenderEvent, StepReport } from "../engine/types.js";
import type { FunctionResult } from "../krm/resource-list.js";

const MAX_LINES = 4;

function label(name: string, kind: "image" | "exec"): string {
  return kind === "image" ? normalizeImage(name) : name;
}

function stepLabel(step: Omit<StepReport, "status" | "durationMs">, report?: StepReport): string {
  if (report?.status.image) return report.status.image;
  if (report?.status.exec !== undefined) return report.status.exec;
  return label(step.name, step.name.includes(" ") || step.name.startsWith(".") ? "exec" : "image");
}

/** kpt's duration format: `0.1s`, `1.5s`, `1m2.3s`. */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${Number(seconds.toFixed(1))}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${Number((seconds - minutes * 60).toFixed(1))}s`;
}

function resultLine(r: FunctionResult): string {
  const severity = r.severity ?? "info";
  const ref = r.resourceRef;
  const where = ref
    ? ` ${[ref.apiVersion, ref.kind, ref.namespace, ref.name].filter(Boolean).join("/")}`
    : "";
  const field = r.field?.path ? ` field: ${r.field.path}` : "";
  const file = r.file?.path ? ` file: ${r.file.path}` : "";
  return where || field || file
    ? `[${severity}]${where}: ${r.message}${field}${file}`
    : `[${severity}]: ${r.message}`;
}

function stderrLines(stderr: string, truncate: boolean): string[] {
  const lines = stderr.split("\n");
  if (!truncate || lines.length <= MAX_LINES) return lines.map((l) => `    ${l}`);
  const kept = lines.slice(0, MAX_LINES).map((l) => `    ${l}`);
  kept.push(
    `    ...(${lines.length - MAX_LINES} line(s) truncated, use '--truncate-output=false' to disable)`,
  );
  return kept;
}

/** kpt-style progress output: `onEvent` for the engine, `finish` before the summary line. */
export interface RenderPrinter {
  onEvent: (event: RenderEvent) => void;
  /** Ends the last package's block (kpt prints an empty line after a pipeline that succeeded). */
  finish: () => void;
}

/** Creates a printer writing kpt-style lines with `write`. */
export function createRenderPrinter(options: {
  write: (text: string) => void;
  truncate: boolean;
}): RenderPrinter {
  const { write, truncate } = options;
  let current = "";
  let pipelineOk = false;
  const endPackage = (): void => {
    if (pipelineOk) write("\n");
    pipelineOk = false;
  };
  const onEvent = (event: RenderEvent): void => {
    if (event.type === "package-start") {
      endPackage();
      current = event.packageName;
      write(`Package ${JSON.stringify(current)}:\n`);
      return;
    }
    if (event.type === "step-start") {
      const count = event.step.selected ? ` on ${event.step.resourceCount} resource(s)` : "";
      const pkg = event.step.packageName ?? current;
      write(`[RUNNING] ${JSON.stringify(stepLabel(event.step))}${count} on package ${JSON.stringify(pkg)}\n`);
      return;
    }
    const { step } = event;
    const failed = step.status.exitCode !== 0 || step.status.executionError !== undefined;
    write(
      `[${failed ? "FAIL" : "PASS"}] ${JSON.stringify(stepLabel(step, step))} in ${formatDuration(step.durationMs)}\n`,
    );
    const results = step.results ?? [];
    if (results.length > 0) {
      write("  [Results]:\n");
      for (const r of results) write(`    ${resultLine(r)}\n`);
    }
    if (step.status.stderr) {
      write("  Stderr:\n");
      for (const line of stderrLines(step.status.stderr, failed && truncate)) write(`${line}\n`);
    }
    if (failed) write(`  Exit code: ${step.status.exitCode}\n`);
    pipelineOk = !failed;
  };
  return { onEvent, finish: endPackage };
}
