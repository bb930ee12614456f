/**
 * Whether a step's function may not be idempotent, as the function runtimes know it: the builtin catalog
 * functions are idempotent (a property test holds them to it); an `exec` program, a container image or
 * a Starlark script is code from outside porchlight and may not be. The composition root binds this to
 * the render engine the use-cases receive.
 */
import type { StepReport } from "../engine/types.js";
import { BuiltinRegistry, functionNameOf } from "./builtin/registry.js";

const builtins = new BuiltinRegistry();

/** True when rendering `step`'s output again might change it (`exec`, a non-builtin image, Starlark). */
export function mayNotBeIdempotent(step: Pick<StepReport, "name" | "fnType">): boolean {
  if (step.fnType === "exec") return true;
  return functionNameOf(step.name) === "starlark" || builtins.resolve(step.name) === undefined;
}
