/**
 * A Rego evaluator following OPA's semantics (Rego v0 — what Gatekeeper templates are written in — and v1),
 * for the `gatekeeper` builtin function and `porchlight rego test`.
 *
 * Embedding API
 * -------------
 * ```ts
 * import * as rego from "./rego/index.js";
 *
 * const policy = rego.compileModules(
 *   [
 *     { path: "template.rego", source: templateRego },      // package k8srequiredlabels
 *     { path: "lib_0.rego", source: libRego },              // package lib.helpers (imported as data.lib.helpers)
 *   ],
 *   { regoVersion: "v0" },
 * );
 * const { value, defined } = policy.evaluate({
 *   query: "data.k8srequiredlabels.violation",
 *   input: { review, parameters },                          // plain JSON-like values
 *   data: { inventory },                                    // base documents under data
 *   budget: { maxSteps: 1e7, timeoutMs: 5000 },
 * });
 * // value: plain JS (sets become arrays sorted in OPA's order), e.g. [{ msg: "..." }]; defined false: undefined
 * ```
 * - {@link compileModules} parses and compiles modules once; the {@link CompiledPolicy} is immutable and
 *   can be evaluated many times (with different input/data). {@link compileModulesCached} memoizes by source.
 * - Errors: {@link RegoCompileError} (parse/compile; `file`, `line`, `col`), {@link RegoEvalError} (a
 *   builtin error in strict mode, conflicting rule outputs, ...), {@link RegoBudgetError} (a budget ran out).
 * - Builtin errors: non-strict by default (OPA's and Gatekeeper's default): a builtin that fails makes its
 *   expression undefined. `strictBuiltinErrors: true` makes it an error (OPA's `--strict-builtin-errors`).
 * - Sandbox: policies see only `input`, `data` and the builtins; no network (`http.send` is not provided),
 *   no filesystem, no environment (`opa.runtime` gives an empty object).
 */
import { compileToPolicy } from "./compile/policy.js";
import type { CompiledPolicy, CompileOptions, RegoModule } from "./types.js";

export { fromJS, toJS, toJSON, toRegoString } from "./convert.js";
export { RegoBudgetError, RegoCompileError, RegoEvalError } from "./errors.js";
export type { Budget } from "./eval/budget.js";
export { DEFAULT_BUDGET } from "./eval/budget.js";
export type {
  CompiledPolicy,
  CompileOptions,
  EvaluateOptions,
  EvaluateResult,
  QueryResult,
  RegoModule,
} from "./types.js";
export { compare, equal, RObject, RSet, type Value } from "./values.js";

/**
 * Parses and compiles Rego modules (OPA's `ast.CompileModules`).
 * @throws RegoCompileError naming the file, line and column, with OPA's wording (e.g.
 *   `template.rego:3:5: rego_parse_error: unexpected } token`).
 */
export function compileModules(modules: readonly RegoModule[], options: CompileOptions = {}): CompiledPolicy {
  return compileToPolicy(modules, options);
}

const policyCache = new Map<string, CompiledPolicy>();
const POLICY_CACHE_LIMIT = 64;

/** {@link compileModules} memoized on the sources and options (a small LRU); errors are not cached. */
export function compileModulesCached(
  modules: readonly RegoModule[],
  options: CompileOptions = {},
): CompiledPolicy {
  const key = JSON.stringify([options.regoVersion ?? "v0", modules.map((m) => [m.path, m.source])]);
  const hit = policyCache.get(key);
  if (hit !== undefined) {
    policyCache.delete(key);
    policyCache.set(key, hit);
    return hit;
  }
  const p = compileModules(modules, options);
  policyCache.set(key, p);
  if (policyCache.size > POLICY_CACHE_LIMIT) policyCache.delete(policyCache.keys().next().value!);
  return p;
}
