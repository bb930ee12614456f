/**
 * A pipeline step's `when` condition (newer kpt): evaluated over the resources the package's pipeline
 * sees; a step whose condition is false does not run and is recorded as `skipped: true` in the
 * Kptfile's `status.renderStatus` (kpt prints `[SKIPPED] "<image>" (celCondition not met)`).
 */
import { nodeToDocument } from "../yaml/to-document.js";
import type { Entry } from "./entries.js";
import type { PipelineStep } from "./function-config.js";
import { stepLabel } from "./step.js";
import type { StepStatus } from "./types.js";

/**
 * Whether the step's `when` expression holds for these entries (`resources` = their objects with
 * typed scalars, in package order).
 * @throws Error `<step>: invalid when condition "<expr>": <problem>` for expressions we cannot evaluate.
 */
export async function whenConditionMet(
  when: string,
  entries: readonly Entry[],
  step: PipelineStep,
): Promise<boolean> {
  // The CEL evaluator is loaded only by packages whose steps have a `when` (start-up stays cheap).
  const { evaluateWhen, WhenConditionError } = await import("./when-condition.js");
  try {
    return evaluateWhen(
      when,
      entries.map((e) => nodeToDocument(e.node).toJS() ?? {}),
    );
  } catch (err) {
    if (!(err instanceof WhenConditionError)) throw err;
    throw new Error(`${stepLabel(step)}: invalid when condition ${JSON.stringify(when)}: ${err.message}`);
  }
}

/** The status kpt records for a step skipped by its `when` condition. */
export function skippedStepStatus(step: PipelineStep, when: string): StepStatus {
  const base: StepStatus = step.fn.image
    ? { image: stepLabel(step), exitCode: 0 }
    : { exec: step.fn.exec, exitCode: 0 };
  return { ...base, when, skipped: true };
}
