/**
 * A ConstraintTemplate's Rego compiled with porchlight's Rego evaluator (`src/rego/`), checked as
 * Gatekeeper checks it when the template is added (a `violation` rule, libs under `package lib.*`,
 * imports of `data.lib.*` and `future.keywords`/`rego.v1` only, no `data` read but `data.lib.*` and
 * `data.inventory`), and evaluated as Gatekeeper's audit
 * does: `data.<package>.violation` with `input = {review, parameters}` and `data.inventory`, builtins
 * non-strict. Each template compiles on its own, so templates that share a package name or a lib do
 * not collide (Gatekeeper gives each a package of its own).
 */
import { type CompiledPolicy, compileModulesCached, fromJS } from "../../../rego/index.js";
import { GatekeeperError } from "./errors.js";
import type { Review } from "./inventory.js";
import { allowedDataRef, dataRefs } from "./rego-refs.js";
import { ADMISSION_TARGET, type RegoCode } from "./templates.js";

/** `data.inventory` converted once for every evaluation of a run (the evaluator takes it as is). */
export function regoInventory(data: unknown): unknown {
  return fromJS(data);
}

/** One `violation` of a template: its message and details. */
export interface RegoViolation {
  msg: string;
  details: unknown;
}

/** A compiled template's Rego. */
export interface RegoProgram {
  /**
   * The violations for one review; `inventory` as {@link regoInventory} made it.
   * @throws Error when evaluation fails (a conflict, the time or step budget).
   */
  violations(review: Review, parameters: unknown, inventory: unknown, timeoutMs: number): RegoViolation[];
}

const VIOLATION_RULE = /^[ \t]*violation\s*(\[|\{|=|:=|\(|contains\b|if\b)/m;
const BAD_IMPORT = /^[ \t]*import[ \t]+(?!data\.lib\.|future\.keywords\b|rego\.v1\b)(\S+)/m;

const PACKAGE = /^[ \t]*package[ \t]+([^\s#]+)/m;

/** The package path a module declares (`lib.helpers`), as written. */
function packageOf(source: string): string {
  return PACKAGE.exec(source)?.[1] ?? "";
}

function entryName(kind: string): string {
  return `templates["${ADMISSION_TARGET}"]["${kind}"]`;
}

function libName(kind: string, index: number): string {
  return `libs.${ADMISSION_TARGET}.${kind}["lib_${index}"]`;
}

function compile(kind: string, code: RegoCode): CompiledPolicy {
  const entry = entryName(kind);
  const modules = [
    { path: entry, source: code.rego },
    ...code.libs.map((source, i) => ({ path: libName(kind, i), source })),
  ];
  return compileModulesCached(modules, { regoVersion: "v0" });
}

/** What Gatekeeper's rewriter refuses in a template's Rego, as it words it, or undefined. */
function gatekeeperProblem(kind: string, code: RegoCode): string | undefined {
  if (!VIOLATION_RULE.test(code.rego))
    return "invalid rego: invalid module: missing required rules: [violation]";
  const badLib = code.libs.map(packageOf).find((p) => !p.startsWith("lib."));
  if (badLib !== undefined) return `invalid lib prefix: path data.${badLib} not found in lib prefixes`;
  const modules = [code.rego, ...code.libs];
  if (modules.some((source) => BAD_IMPORT.test(source))) return "invalid import: bad import";
  for (const [i, source] of modules.entries()) {
    const disallowed = dataRefs(source).filter((ref) => !allowedDataRef(ref));
    if (disallowed.length === 0) continue;
    const module = i === 0 ? entryName(kind) : libName(kind, i - 1);
    const list = disallowed.map((ref) => `disallowed ref ${ref}\n`).join("");
    return `invalid data references: check refs failed on module ${module}: errors (${disallowed.length}):\n${list}`;
  }
  return undefined;
}

/**
 * Compiles and checks a template's Rego.
 * @throws GatekeeperError worded as the catalog's function (`adding template "<name>": ...`).
 */
export function compileRegoTemplate(name: string, kind: string, code: RegoCode): RegoProgram {
  const fail = (message: string) =>
    new GatekeeperError(`adding template ${JSON.stringify(name)}: invalid ConstraintTemplate: ${message}`);
  if (code.rego.trim() === "")
    throw fail(`1 error occurred: ${entryName(kind)}:0: rego_parse_error: empty module`);
  let policy: CompiledPolicy;
  try {
    policy = compile(kind, code);
  } catch (err) {
    throw fail((err as Error).message);
  }
  const problem = gatekeeperProblem(kind, code);
  if (problem) throw fail(problem);
  const entryPackage = packageOf(code.rego);
  const query = `data.${entryPackage}.violation`;
  return {
    violations(review, parameters, inventory, timeoutMs) {
      const result = policy.evaluate({
        query,
        input: { review, parameters },
        data: { inventory },
        budget: { timeoutMs },
        strictBuiltinErrors: false,
      });
      if (!result.defined || !Array.isArray(result.value)) return [];
      // Gatekeeper keeps a set of {msg, details}: violations differing in other keys only are one.
      const out = new Map<string, RegoViolation>();
      for (const r of result.value as unknown[]) {
        if (r === null || typeof r !== "object" || !("msg" in r)) continue;
        const { msg, details } = r as { msg: unknown; details?: unknown };
        const violation = {
          msg: typeof msg === "string" ? msg : JSON.stringify(msg),
          details: details ?? {},
        };
        out.set(JSON.stringify([violation.msg, violation.details]), violation);
      }
      return [...out.values()];
    },
  };
}
