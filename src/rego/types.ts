/**
 * The Rego interpreter's public shapes (OPA's `rego` package options and results), below the compiler
 * and the evaluator, which both use them; `index.ts` exports them.
 */
import type { Budget } from "./eval/budget.js";
import type { Value } from "./values.js";

/** One result of a query: each expression's value and the query's named variables. */
export interface QueryResult {
  expressions: Value[];
  bindings: Record<string, Value>;
}

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
