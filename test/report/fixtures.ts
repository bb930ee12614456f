import type { RenderResult, StepReport } from "../../src/engine/types.js";
import type { FunctionResult } from "../../src/krm/resource-list.js";
import type { PackageReport } from "../../src/report/annotations.js";

export const enc = (s: string) => new TextEncoder().encode(s);

/** A step record as the engine reports it. */
export function step(options: {
  name: string;
  kind?: StepReport["kind"];
  packagePath?: string;
  exitCode?: number;
  results?: FunctionResult[];
  durationMs?: number;
  stderr?: string;
  executionError?: string;
}): StepReport {
  return {
    packagePath: options.packagePath ?? ".",
    kind: options.kind ?? "mutator",
    name: options.name,
    durationMs: options.durationMs ?? 12,
    resourceCount: 1,
    status: {
      image: options.name,
      exitCode: options.exitCode ?? 0,
      ...(options.results ? { results: options.results } : {}),
      ...(options.stderr ? { stderr: options.stderr } : {}),
      ...(options.executionError ? { executionError: options.executionError } : {}),
    },
  };
}

/** A package report with the given steps; `files` are the rendered files. */
export function pkgReport(options: {
  packagePath: string;
  steps: StepReport[];
  files: Record<string, string>;
  ok?: boolean;
  stored?: boolean;
}): PackageReport {
  const ok = options.ok ?? options.steps.every((s) => s.status.exitCode === 0);
  const files = new Map(Object.entries(options.files).map(([k, v]) => [k, enc(v)]));
  const result: RenderResult = {
    ok,
    files: options.stored === false ? undefined : files,
    status: {
      conditions: [
        { type: "Rendered", status: ok ? "True" : "False", reason: ok ? "RenderSuccess" : "RenderFailed" },
      ],
    },
    steps: options.steps,
    ...(ok ? {} : { error: "pkg.render: pkg .:\n\tpipeline.run: already handled error" }),
  };
  return { packagePath: options.packagePath, result, inputFiles: files };
}
