/** A compiled policy (OPA's `rego.PreparedEvalQuery`): queries evaluated against the compiled modules. */

import { fromJS, toJS } from "../convert.js";
import { Evaluator } from "../eval/evaluator.js";
import type {
  CompiledPolicy,
  CompileOptions,
  EvaluateOptions,
  EvaluateResult,
  QueryResult,
  RegoModule,
} from "../types.js";
import { Compiler } from "./compiler.js";

/** Compiles modules into a policy (see {@link CompiledPolicy}). */
export function compileToPolicy(modules: readonly RegoModule[], options: CompileOptions): CompiledPolicy {
  const c = new Compiler(options);
  for (const m of modules) c.add(m);
  c.finish();
  return new Policy(c);
}

class Policy implements CompiledPolicy {
  readonly packages: readonly string[];
  constructor(readonly c: Compiler) {
    this.packages = [...new Set(c.modules.map((m) => m.pkg.join(".")))];
  }
  query(opts: EvaluateOptions): QueryResult[] {
    const lits = this.c.compileQuery(opts.query);
    const ev = new Evaluator(this.c.root, {
      input: opts.input === undefined ? undefined : fromJS(opts.input),
      data: fromJS(opts.data ?? {}),
      budget: opts.budget,
      strict: opts.strictBuiltinErrors ?? false,
      print: opts.print,
      clock: opts.clock,
    });
    return ev.runQuery(lits.lits, lits.names);
  }
  evaluate(opts: EvaluateOptions): EvaluateResult {
    const rs = this.query(opts);
    const first = rs[0];
    const raw = first?.expressions[0];
    if (raw === undefined) return { value: undefined, defined: false, raw: undefined };
    return { value: toJS(raw), defined: true, raw };
  }
}
