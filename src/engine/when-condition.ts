/**
 * A pipeline step's `when` condition (newer kpt: the step runs only when the CEL expression over the
 * package's `resources` is true, otherwise it is recorded as skipped), evaluated with @bufbuild/cel,
 * a maintained CEL implementation that passes the cel-spec conformance tests (kpt uses cel-go). The
 * strings extension's `lowerAscii()` / `upperAscii()`, which kpt's Kubernetes libraries bring, are
 * added.
 */
import { CelScalar, celMethod, isCelError, run } from "@bufbuild/cel";

/** A `when` expression that cannot be parsed or evaluated; the message names the problem. */
export class WhenConditionError extends Error {}

const STRING_EXTENSIONS = [
  celMethod("lowerAscii", CelScalar.STRING, [], CelScalar.STRING, function () {
    return this.replace(/[A-Z]/g, (c) => c.toLowerCase());
  }),
  celMethod("upperAscii", CelScalar.STRING, [], CelScalar.STRING, function () {
    return this.replace(/[a-z]/g, (c) => c.toUpperCase());
  }),
];

/** A resource as CEL sees it: integers are CEL ints (bigint), other numbers doubles. */
function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  }
  return value;
}

/**
 * Evaluates a step's `when` expression with `resources` bound to the given plain resource objects.
 * @returns whether the step should run.
 * @throws WhenConditionError when the expression does not parse, fails (an unknown function, a type
 *   error) or is not a bool.
 */
export function evaluateWhen(expression: string, resources: readonly unknown[]): boolean {
  const value = run(expression, { resources: toCel(resources) as never }, { funcs: STRING_EXTENSIONS });
  if (isCelError(value)) throw new WhenConditionError(value.message);
  if (typeof value !== "boolean")
    throw new WhenConditionError(`expression ${JSON.stringify(expression)} does not evaluate to a bool`);
  return value;
}
