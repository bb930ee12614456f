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
import { compileToPolicy } from "./compile/compiler.js";
import type { Budget } from "./eval/budget.js";
import type { QueryResult } from "./eval/evaluator.js";
import type { Value } from "./values.js";

export { RegoBudgetError, RegoCompileError, RegoEvalError } from "./errors.js";
export type { Budget } from "./eval/budget.js";
export { DEFAULT_BUDGET } from "./eval/budget.js";
export type { QueryResult } from "./eval/evaluator.js";
export {
  compare,
  equal,
  fromJS,
  RObject,
  RSet,
  toJS,
  toJSON,
  toRegoString,
  type Value,
} from "./values.js";

/** One Rego module: `path` names it in error messages and `print` lines (e.g. `template.rego`). */
export interface RegoModule {
  path: string;
  source: string;
}

/** How modules are parsed. */
export interface CompileOptions {
  /**
   * "v0" (default; OPA before 1.0 and Gatekeeper: bodies without `if`, `contains`/`in`/`every`/`if` are
   * keywords only after `import future.keywords...` or `import rego.v1`), or "v1" (OPA 1.0: `if` and
   * `contains` required, all keywords on).
   */
  regoVersion?: "v0" | "v1";
}

/** One evaluation. */
export interface EvaluateOptions {
  /** A Rego query: a ref (`data.k8srequiredlabels.violation`), an expression, or several joined by `;`. */
  query: string;
  /** The input document (JSON-like JS; Maps/Sets allowed); absent: `input` is undefined. */
  input?: unknown;
  /** Base documents under `data` (JSON-like JS), merged with the modules' rules. */
  data?: unknown;
  /** Limits; defaults {@link DEFAULT_BUDGET}. */
  budget?: Budget;
  /** A builtin error fails the query (true) or makes the expression undefined (false, default). */
  strictBuiltinErrors?: boolean;
  /** Receives `print()` output lines, `<file>:<line>: <args>` (default: dropped). */
  print?: (line: string) => void;
  /** Clock for the time budget and `time.now_ns` (tests): `now()` in ms, read every `checkEvery` steps. */
  clock?: { now: () => number; checkEvery: number };
}

/** The value of a single-expression query. */
export interface EvaluateResult {
  /** Plain JS (see {@link toJS}); `undefined` when not defined. */
  value: unknown;
  /** Whether the query produced a value (OPA's undefined is `false` here, not an error). */
  defined: boolean;
  /** The same value as a Rego value (sets and non-string keys kept); `undefined` when not defined. */
  raw: Value | undefined;
}

/** Compiled modules, ready to evaluate queries against (immutable, reusable). */
export interface CompiledPolicy {
  /**
   * Evaluates a one-expression query (typically a ref such as `data.pkg.violation`) and returns its value.
   * When the query has several results (a ref with variables), the first is returned.
   * @throws RegoCompileError when the query does not parse/compile; RegoEvalError / RegoBudgetError.
   */
  evaluate(opts: EvaluateOptions): EvaluateResult;
  /**
   * Evaluates a query and returns every result: for each, the values of its expressions and the bindings
   * of its named variables (OPA's `rego.ResultSet`). Empty when undefined.
   */
  query(opts: EvaluateOptions): QueryResult[];
  /** Packages the modules declare, e.g. `["k8srequiredlabels", "lib.helpers"]`. */
  readonly packages: readonly string[];
}

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
