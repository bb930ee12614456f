/**
 * `gatekeeper` (krm-functions-catalog `functions/go/gatekeeper`, which runs Gatekeeper's `gator test`
 * library): validates the package's resources against the Gatekeeper ConstraintTemplates and
 * constraints found among those same resources (no functionConfig).
 *
 * As the catalog's function does, in this order: every ConstraintTemplate is read and compiled
 * (`./templates.ts`, `./rego-template.ts`, CEL-only ones `./cel.ts`), then every constraint is checked
 * against its template (`./constraints.ts`), then every resource is added to `data.inventory`
 * (`./inventory.ts`); then an audit reviews every resource against every constraint whose `match`
 * selects it (`./match.ts`). Each violation is a result (`./results.ts`). The first invalid template,
 * constraint or resource fails the whole function with one error result and no violations, worded as
 * the catalog words it. The function fails (exit 1) when any result has severity error.
 */
import type { FunctionResult, KrmResource } from "../../../krm/resource-list.js";
import type { BuiltinFunction, BuiltinFunctionOutput } from "../builtin-function.js";
import { toJs } from "../yaml-nodes.js";
import { type CelProgram, compileCel } from "./cel.js";
import { checkConstraint, isConstraint } from "./constraints.js";
import { GatekeeperError } from "./errors.js";
import { buildInventory, type Inventory, type InventoryEntry } from "./inventory.js";
import { constraintMatches } from "./match.js";
import { compileRegoTemplate, type RegoProgram, regoInventory } from "./rego-template.js";
import { resultsStderr, severityOf, sortResults, violationResult } from "./results.js";
import { ADMISSION_TARGET, type ConstraintTemplate, isTemplate, readTemplate } from "./templates.js";

type Json = Record<string, unknown>;

/** Limits of one run: the Rego evaluation time of all reviews together. */
export interface GatekeeperSettings {
  /** Wall-clock time all policy evaluations of one run may take, in milliseconds (default 60 000). */
  timeoutMs: number;
}

const DEFAULT_SETTINGS: GatekeeperSettings = { timeoutMs: 60_000 };

interface CompiledTemplate {
  template: ConstraintTemplate;
  rego?: RegoProgram;
  cel?: CelProgram;
}

interface Constraint {
  object: Json;
  name: string;
  compiled: CompiledTemplate;
}

function plain(resource: KrmResource): Json {
  const value = toJs(resource.contents);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function compileTemplate(template: ConstraintTemplate): CompiledTemplate {
  if (template.rego)
    return { template, rego: compileRegoTemplate(template.name, template.kind, template.rego) };
  try {
    return { template, cel: compileCel(template.cel ?? {}) };
  } catch (err) {
    throw new GatekeeperError(
      `adding template ${JSON.stringify(template.name)}: invalid ConstraintTemplate: ${(err as Error).message}`,
    );
  }
}

/** Templates by name, then constraints by kind and name (a later one of the same name replaces). */
function readPolicies(objects: readonly Json[]): Constraint[] {
  const templates = new Map<string, CompiledTemplate>();
  for (const object of objects) {
    if (!isTemplate(object)) continue;
    const compiled = compileTemplate(readTemplate(object));
    templates.set(compiled.template.name, compiled);
  }
  const byName = new Map<string, ConstraintTemplate>([...templates].map(([k, v]) => [k, v.template]));
  const constraints = new Map<string, Constraint>();
  for (const object of objects) {
    if (!isConstraint(object)) continue;
    const template = checkConstraint(object, byName);
    const name = String((object.metadata as Json).name);
    constraints.set(`${template.kind}/${name}`, { object, name, compiled: templates.get(template.name)! });
  }
  return [...constraints.values()];
}

function parametersOf(constraint: Json): unknown {
  const spec = constraint.spec;
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) return {};
  return Object.hasOwn(spec, "parameters") ? (spec as Json).parameters : {};
}

interface AuditState {
  inventory: Inventory;
  /** `data.inventory` as a Rego value, built once. */
  regoData: unknown;
  deadline: number;
}

function violationsOf(c: Constraint, entry: InventoryEntry, state: AuditState): string[] {
  const { inventory, deadline } = state;
  if (c.compiled.cel) {
    return c.compiled.cel.violations(
      entry.review,
      c.object,
      inventory.namespace(entry.review.namespace ?? ""),
    );
  }
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new Error("policy evaluation exceeded the function's time budget");
  const found = c.compiled.rego!.violations(entry.review, parametersOf(c.object), state.regoData, remaining);
  return found.map((v) => v.msg);
}

function audit(resources: readonly KrmResource[], settings: GatekeeperSettings): FunctionResult[] {
  const objects = resources.map(plain);
  const constraints = readPolicies(objects);
  const inventory = buildInventory(resources);
  const state: AuditState = {
    inventory,
    regoData: constraints.some((c) => c.compiled.rego) ? regoInventory(inventory.data) : undefined,
    deadline: Date.now() + settings.timeoutMs,
  };
  const results: FunctionResult[] = [];
  for (const entry of inventory.entries) {
    for (const c of constraints) {
      if (!constraintMatches(c.object, entry.review, inventory.namespace)) continue;
      let messages: string[];
      try {
        messages = violationsOf(c, entry, state);
      } catch (err) {
        if (err instanceof GatekeeperError) throw err;
        throw new GatekeeperError(`${ADMISSION_TARGET}: ${(err as Error).message}\n`);
      }
      const spec = (c.object.spec ?? {}) as Json;
      const severity = severityOf(spec.enforcementAction);
      for (const message of messages) {
        results.push(violationResult(message, c.name, severity, entry.resource));
      }
    }
  }
  return results;
}

/** The builtin `gatekeeper`, with the given limits (tests, embedders). */
export function createGatekeeperFunction(settings: Partial<GatekeeperSettings> = {}): BuiltinFunction {
  const limits = { ...DEFAULT_SETTINGS, ...settings };
  return {
    name: "gatekeeper",
    catalogVersion: "v0.2.1",
    run(input): BuiltinFunctionOutput {
      let results: FunctionResult[];
      try {
        results = sortResults(audit(input.items, limits));
      } catch (err) {
        if (!(err instanceof GatekeeperError)) throw err;
        results = [{ message: err.message, severity: "error" }];
      }
      const failed = results.some((r) => r.severity === "error");
      return { items: input.items, results, stderr: failed ? resultsStderr(results) : "" };
    },
  };
}

/** The builtin `gatekeeper` with the default limits. */
export const gatekeeper: BuiltinFunction = createGatekeeperFunction();
