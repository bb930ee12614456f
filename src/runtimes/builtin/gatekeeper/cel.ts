/**
 * ConstraintTemplates whose only code is `engine: K8sNativeValidation` (Gatekeeper's CEL engine, the
 * ValidatingAdmissionPolicy language), evaluated with @bufbuild/cel (the CEL implementation the `when`
 * conditions use) and the CEL strings extension. Bound as Gatekeeper binds them: `object`,
 * `oldObject` (null: a render reviews objects, not updates), `params` (the constraint),
 * `request` (`kind`, `name`, `namespace`), `namespaceObject`, and `variables.params` (the
 * constraint's `spec.parameters`), `variables.anyObject` (the object) plus the source's own
 * `variables`, evaluated in order. `matchConditions` that are false skip the object. A validation
 * whose expression is false is a violation worded by its `messageExpression`, else `message`, else
 * `failed expression: <expression>`; one that fails to evaluate is a violation naming the error.
 */
import { type CelEnv, celEnv, isCelError, parse, plan } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { compileRe2 } from "../../../krm/re2.js";
import type { Review } from "./inventory.js";

type Json = Record<string, unknown>;
type Planned = ReturnType<typeof plan>;

let env: CelEnv | undefined;
function celEnvironment(): CelEnv {
  env ??= celEnv({ funcs: strings, re2: { compile: (pattern) => compileRe2(pattern) } });
  return env;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** JSON as CEL sees it: integers are CEL ints (bigint), other numbers doubles. */
function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  return value;
}

interface NamedExpression {
  name: string;
  expression: string;
}

interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
}

/** A CEL template's compiled source. */
export interface CelProgram {
  /** The violation messages for one review of a constraint. */
  violations(review: Review, constraint: Json, namespaceObject: unknown): string[];
}

function compileExpression(expression: string): Planned {
  return plan(celEnvironment(), parse(expression));
}

function strings_(list: unknown, fields: string[]): Array<Record<string, string>> {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((entry) => {
    const out: Record<string, string> = {};
    for (const f of fields) if (typeof entry[f] === "string") out[f] = entry[f] as string;
    return out;
  });
}

function evaluate(program: Planned, bindings: Record<string, unknown>): { value?: unknown; error?: string } {
  try {
    const value = program(bindings as never);
    if (isCelError(value)) return { error: value.message };
    return { value };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Compiles a `K8sNativeValidation` source (`validations`, `variables`, `matchConditions`).
 * @throws Error naming the expression that does not parse.
 */
export function compileCel(source: Json): CelProgram {
  const compile = (expression: string) => {
    try {
      return compileExpression(expression);
    } catch (err) {
      throw new Error(`CEL expression ${JSON.stringify(expression)}: ${(err as Error).message}`);
    }
  };
  const variables = (strings_(source.variables, ["name", "expression"]) as unknown as NamedExpression[]).map(
    (v) => ({ name: v.name, program: compile(v.expression) }),
  );
  const conditions = (
    strings_(source.matchConditions ?? source.matchCondition, [
      "name",
      "expression",
    ]) as unknown as NamedExpression[]
  ).map((c) => compile(c.expression));
  const validations = (
    strings_(source.validations, ["expression", "message", "messageExpression"]) as unknown as Validation[]
  ).map((v) => ({
    ...v,
    program: compile(v.expression),
    messageProgram: v.messageExpression ? compile(v.messageExpression) : undefined,
  }));
  return {
    violations: (review, constraint, namespaceObject) =>
      celViolations({ variables, conditions, validations }, { review, constraint, namespaceObject }),
  };
}

/** The compiled parts of a source. */
interface CompiledSource {
  variables: Array<{ name: string; program: Planned }>;
  conditions: Array<Planned>;
  validations: Array<
    Validation & {
      program: Planned;
      messageProgram: Planned | undefined;
    }
  >;
}

/** Gatekeeper's K8sNativeValidation evaluation of one review: the messages of the validations that fail. */
function celViolations(
  compiled: CompiledSource,
  {
    review,
    constraint,
    namespaceObject,
  }: {
    review: Parameters<CelProgram["violations"]>[0];
    constraint: Parameters<CelProgram["violations"]>[1];
    namespaceObject: Parameters<CelProgram["violations"]>[2];
  },
): string[] {
  const spec = isObject(constraint.spec) ? constraint.spec : {};
  const vars: Record<string, unknown> = {
    params: toCel(spec.parameters ?? null),
    anyObject: toCel(review.object),
  };
  const bindings: Record<string, unknown> = {
    object: vars.anyObject,
    oldObject: null,
    params: toCel(constraint),
    request: toCel({ kind: review.kind, name: review.name, namespace: review.namespace ?? "" }),
    namespaceObject: toCel(namespaceObject ?? null),
    variables: vars,
  };
  for (const v of compiled.variables) {
    const result = evaluate(v.program, bindings);
    if (result.error === undefined) vars[v.name] = result.value;
  }
  if (compiled.conditions.some((c) => evaluate(c, bindings).value === false)) return [];
  const out: string[] = [];
  for (const v of compiled.validations) {
    const result = evaluate(v.program, bindings);
    if (result.error !== undefined) {
      out.push(`expression '${v.expression}' resulted in error: ${result.error}`);
      continue;
    }
    if (result.value !== false) continue;
    const custom = v.messageProgram ? evaluate(v.messageProgram, bindings).value : undefined;
    out.push(
      typeof custom === "string" && custom !== ""
        ? custom
        : (v.message ?? `failed expression: ${v.expression.trim()}`),
    );
  }
  return out;
}
