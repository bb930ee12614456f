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
  return step.label ?? label(step.name, step.fnType ?? "image");
}

/**
 * kpt's duration: Go's `time.Duration.String()` of the run time truncated to 100 ms (`0s`, `100ms`,
 * `1.2s`, `1m2.3s`).
 */
export function formatDuration(ms: number): string {
  const truncated = Math.floor(ms / 100) * 100;
  if (truncated === 0) return "0s";
  if (truncated < 1000) return `${truncated}ms`;
  const minutes = Math.floor(truncated / 60_000);
  const seconds = (truncated - minutes * 60_000) / 1000;
  const secText = `${Number(seconds.toFixed(1))}s`;
  if (minutes === 0) return secText;
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}h${minutes % 60}m${secText}` : `${minutes}m${secText}`;
}

/** A result as kpt prints it (the SDK's `ResultItem.String()`): `[info] v1/ConfigMap/ns/name spec.x: message`. */
export function resultLine(r: FunctionResult): string {
  const ref = r.resourceRef;
  const id = ref ? [ref.apiVersion, ref.kind, ref.namespace, ref.name].filter(Boolean).join("/") : "";
  let line = `[${r.severity ?? "info"}]`;
  if (id) line += ` ${id}`;
  if (r.field?.path) line += ` ${r.field.path}`;
  return `${line}: ${r.message}`;
}

/** kpt's multi-line block: 4-space indented lines, truncated to 4 lines unless disabled. */
function indentedLines(lines: string[], truncate: boolean): string[] {
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
      // kpt fn eval names no package.
      const pkg = event.step.packageName ?? current;
      const where = pkg ? ` on package ${JSON.stringify(pkg)}` : "";
      write(`[RUNNING] ${JSON.stringify(stepLabel(event.step))}${count}${where}\n`);
      return;
    }
    const { step } = event;
    if (step.status.skipped) {
      write(`[SKIPPED] ${JSON.stringify(stepLabel(step, step))} (celCondition not met)\n`);
      pipelineOk = true;
      return;
    }
    const failed = step.status.exitCode !== 0 || step.status.executionError !== undefined;
    write(
      `[${failed ? "FAIL" : "PASS"}] ${JSON.stringify(stepLabel(step, step))} in ${formatDuration(step.durationMs)}\n`,
    );
    const results = step.results ?? [];
    if (results.length > 0) {
      write("  [Results]:\n");
      for (const line of indentedLines(results.map(resultLine), truncate)) write(`${line}\n`);
    }
    if (step.status.stderr) {
      write("  Stderr:\n");
      for (const line of indentedLines(step.status.stderr.split("\n"), failed && truncate))
        write(`${line}\n`);
    }
    if (failed) write(`  Exit code: ${step.status.exitCode}\n`);
    pipelineOk = !failed;
  };
  return { onEvent, finish: endPackage };
}
