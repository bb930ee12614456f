/**
 * The Kptfile `status` types (kpt's `api/kptfile/v1` `Status`, `RenderStatus`, `PipelineStepResult`,
 * `Condition`): what the render engine writes into the root Kptfile.
 */
import type { FunctionResult } from "../krm/resource-list.js";

/** One pipeline step's record, as kpt writes it under `status.renderStatus.{mutation,validation}Steps`. */
export interface StepStatus {
  /** Fully qualified image (`ghcr.io/kptdev/krm-functions-catalog/<name>:latest` for short names) … */
  image?: string;
  /** … or the exec command, exactly as in the Kptfile. */
  exec?: string;
  stderr?: string;
  exitCode: number;
  results?: FunctionResult[];
  errorResults?: FunctionResult[];
  executionError?: string;
  /** The step's `when` expression (newer kpt records it for every step that has one). */
  when?: string;
  /** True when `when` was false and the function did not run (kpt: `[SKIPPED] ... (celCondition not met)`). */
  skipped?: boolean;
}

/** `status.renderStatus` in upstream kpt's Kptfile schema. */
export interface RenderStatus {
  mutationSteps?: StepStatus[];
  validationSteps?: StepStatus[];
  /** e.g. `ghcr.io/kptdev/krm-functions-catalog/set-labels:latest: exit code 1`. */
  errorSummary?: string;
}

/** One entry of `status.conditions` (kpt: `type: Rendered`, reason `RenderSuccess` / `RenderFailed`). */
export interface KptfileCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason?: string;
  message?: string;
}

/** The Kptfile `status` the engine writes into the root Kptfile. */
export interface KptfileStatus {
  conditions: KptfileCondition[];
  renderStatus?: RenderStatus;
}
