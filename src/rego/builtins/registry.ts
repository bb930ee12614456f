/** The builtin registry and argument helpers shared by the builtin files. */

import { toRegoString } from "../convert.js";
import { BuiltinError } from "../errors.js";
import type { Meter } from "../eval/budget.js";
import { RObject, RSet, typeName, type Value } from "../values.js";

/** What a builtin may use from the evaluation. */
export interface BuiltinCtx {
  meter: Meter;
  strict: boolean;
  now: () => number;
}

export interface Builtin {
  /** number of arguments; -1 variadic */
  arity: number;
  fn: (args: Value[], ctx: BuiltinCtx) => Value | undefined;
}

/** Every builtin by name (`startswith`, `object.get`, ...). */
export const BUILTINS = new Map<string, Builtin>();

/** Registers a builtin. */
export function def(name: string, arity: number, fn: Builtin["fn"]): void {
  BUILTINS.set(name, { arity, fn });
}

/** A type error in regorus's and OPA's words. */
export function typeErr(name: string, i: number, want: string, got: Value, verb = "expects"): BuiltinError {
  return new BuiltinError(
    `\`${name}\` ${verb} ${want} argument. Got \`${toRegoString(got, false)}\` instead (operand ${i + 1} must be ${want} but got ${typeName(got)})`,
  );
}

export function str(name: string, args: Value[], i: number): string {
  const v = args[i] as Value;
  if (typeof v !== "string") throw typeErr(name, i, "string", v);
  return v;
}
export function num(name: string, args: Value[], i: number): number {
  const v = args[i] as Value;
  if (typeof v !== "number") throw typeErr(name, i, "numeric", v);
  return v;
}
export function int(name: string, args: Value[], i: number): number {
  const v = num(name, args, i);
  if (!Number.isInteger(v))
    throw new BuiltinError(
      `\`${name}\` expects integer argument. operand ${i + 1} must be integer number but got floating-point number`,
    );
  return v;
}
export function arr(name: string, args: Value[], i: number): readonly Value[] {
  const v = args[i] as Value;
  if (!Array.isArray(v)) throw typeErr(name, i, "array", v);
  return v;
}
export function set(name: string, args: Value[], i: number): RSet {
  const v = args[i] as Value;
  if (!(v instanceof RSet)) throw typeErr(name, i, "set", v);
  return v;
}
export function objArg(name: string, args: Value[], i: number): RObject {
  const v = args[i] as Value;
  if (!(v instanceof RObject)) throw typeErr(name, i, "object", v);
  return v;
}
/** Elements of an array or set. */
export function coll(name: string, args: Value[], i: number, verb = "requires"): Value[] {
  const v = args[i] as Value;
  if (Array.isArray(v)) return v as Value[];
  if (v instanceof RSet) return [...v.values()];
  throw typeErr(name, i, "array/set", v, verb);
}

/** Rounds a floating-point result as OPA's decimal arithmetic would print it (0.1 + 0.2 is 0.3). */
export function tidy(n: number): number {
  if (Number.isInteger(n) || !Number.isFinite(n)) return n;
  return Number.parseFloat(n.toPrecision(15));
}
