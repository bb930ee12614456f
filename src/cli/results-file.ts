/**
 * kpt's `--results-dir` output: `results.yaml`, a `kpt.dev/v1` `FunctionResultList` with one item per
 * function run (image or exec, stderr, exit code, every result), the overall exit code first.
 */

import type { StepReport } from "../engine/types.js";
import { goMarshal } from "../kptfile/go-marshal.js";
import type { FunctionResult } from "../krm/resource-list.js";

function resultObject(r: FunctionResult): Record<string, unknown> {
  const out: Record<string, unknown> = { message: r.message };
  if (r.severity) out.severity = r.severity;
  if (r.resourceRef) {
    const ref: Record<string, unknown> = {};
    for (const key of ["apiVersion", "kind", "name", "namespace"] as const) {
      if (r.resourceRef[key]) ref[key] = r.resourceRef[key];
    }
    out.resourceRef = ref;
  }
  if (r.field?.path) {
    const field: Record<string, unknown> = { path: r.field.path };
    if (r.field.currentValue !== undefined) field.currentValue = r.field.currentValue;
    if (r.field.proposedValue !== undefined) field.proposedValue = r.field.proposedValue;
    out.field = field;
  }
  if (r.file && (r.file.path || r.file.index)) {
    const file: Record<string, unknown> = {};
    if (r.file.path) file.path = r.file.path;
    if (r.file.index) file.index = r.file.index;
    out.file = file;
  }
  if (r.tags && Object.keys(r.tags).length > 0) out.tags = r.tags;
  return out;
}

/** The text of `results.yaml` for the steps that ran. */
export function resultsFileText(steps: readonly StepReport[], exitCode: number): string {
  const items = steps.map((step) => {
    const item: Record<string, unknown> = {};
    if (step.status.image) item.image = step.status.image;
    if (step.status.exec !== undefined) item.exec = step.status.exec;
    if (step.status.stderr) item.stderr = step.status.stderr;
    item.exitCode = step.status.exitCode;
    const results = step.results ?? [];
    if (results.length > 0) item.results = results.map(resultObject);
    return item;
  });
  const list: Record<string, unknown> = {
    apiVersion: "kpt.dev/v1",
    kind: "FunctionResultList",
    metadata: { name: "fnresults" },
    exitCode,
  };
  if (items.length > 0) list.items = items;
  return goMarshal(list);
}
