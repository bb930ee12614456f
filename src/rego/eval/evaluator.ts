/**
 * Top-down evaluation of Rego (OPA's `topdown`): bodies are evaluated literal by literal in
 * continuation-passing style, so unification and iteration backtrack by returning into the loop that
 * enumerates the next candidate. A continuation returns `true` to stop the enumeration (the first solution
 * of a `not`, an `every` counter-example). Bindings live in one environment per rule or function call and
 * are undone on backtracking. Rule values are computed once per evaluation (and per `with` scope).
 */
import type { Literal } from "../syntax/ast.js";
import type { QueryResult } from "../types.js";
import { typeName, type Value } from "../values.js";
import { CallEvaluator } from "./calls.js";

export { setPath } from "./helpers.js";
export type { EvalOptions } from "./machine.js";

/** Evaluates queries against compiled modules (OPA's topdown `Query`). */
export class Evaluator extends CallEvaluator {
  /** Evaluates query literals; returns every result. Throws RegoEvalError / RegoBudgetError. */
  runQuery(lits: Literal[], names: string[]): QueryResult[] {
    const results: QueryResult[] = [];
    const vals: Value[] = [];
    const step = (i: number): boolean => {
      if (i === lits.length) {
        const bindings: Record<string, Value> = {};
        for (const n of names) {
          const v = this.env.get(n);
          if (v !== undefined) bindings[n] = v;
        }
        results.push({ expressions: [...vals], bindings });
        return false;
      }
      const lit = lits[i] as Literal;
      this.meter.step();
      if (lit.expr.k === "term" && !lit.negated && lit.with.length === 0) {
        return this.evalTerm(lit.expr.term, (v) => {
          if (v === false && lits.length > 1) return false;
          vals[i] = v;
          return step(i + 1);
        });
      }
      return this.evalLiteral(lit, () => {
        vals[i] = true;
        return step(i + 1);
      });
    };
    this.guard(() => step(0));
    return results;
  }
}

export { typeName };
