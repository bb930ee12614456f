/**
 * What the `gatekeeper` builtin needs of a Rego evaluator (OPA semantics, Rego v0 unless a module
 * imports `rego.v1`, builtins non-strict as Gatekeeper runs them): parse a module to learn its package
 * and rules, compile a set of modules, and evaluate a rule with an input document and base data.
 */

/** A parsed module's package path (`["lib", "helpers"]` for `package lib.helpers`) and rule names. */
export interface RegoModuleInfo {
  packagePath: string[];
  ruleNames: string[];
}

/** A named Rego source (the name appears in error positions, as OPA's module file names do). */
export interface RegoSource {
  name: string;
  source: string;
}

/** Modules compiled together. */
export interface CompiledPolicy {
  /**
   * The value of the document at `path` below `data` (e.g. `["k8srequiredlabels", "violation"]`), as
   * plain JSON (sets as arrays), or undefined when it is undefined.
   * @throws Error when evaluation fails (a conflict, a budget exceeded).
   */
  evaluate(path: readonly string[], input: unknown, data: Record<string, unknown>): unknown;
}

/** The evaluator, as the builtin uses it. */
export interface PolicyEngine {
  /** @throws Error with OPA's parse error text when the source does not parse. */
  parse(module: RegoSource): RegoModuleInfo;
  /** @throws Error with OPA's compile error text when the modules do not compile together. */
  compile(modules: readonly RegoSource[]): CompiledPolicy;
}
