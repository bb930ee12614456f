/** Bodies and literals (OPA's topdown `evalExpr`, `evalNot`, `evalWith`, `some ... in`, `every`). */
import type { WithTarget } from "../compile/rule-tree.js";
import { RegoEvalError } from "../errors.js";
import type { Expr, Literal, Term, With } from "../syntax/ast.js";
import { iterate, RObject, RSet, type Value } from "../values.js";
import { setPath } from "./helpers.js";
import type { Ctx, K } from "./machine.js";
import { Unifier } from "./unify.js";

export abstract class BodyEvaluator extends Unifier {
  evalBody(lits: Literal[], i: number, k: K): boolean {
    if (i === lits.length) return k();
    this.meter.step();
    return this.evalLiteral(lits[i] as Literal, () => this.evalBody(lits, i + 1, k));
  }

  evalLiteral(lit: Literal, k: K): boolean {
    if (lit.with.length > 0) return this.evalWith(lit, k);
    return this.evalPlainLiteral(lit, k);
  }

  evalPlainLiteral(lit: Literal, k: K): boolean {
    if (lit.negated) {
      const found = this.evalExpr(lit.expr, () => true);
      return found ? false : k();
    }
    return this.evalExpr(lit.expr, k);
  }

  evalExpr(e: Expr, k: K): boolean {
    switch (e.k) {
      case "term":
        return this.evalTerm(e.term, (v) => (v === false ? false : k()));
      case "unify":
        return this.unify(e.l, e.r, k);
      case "assign":
        return this.unify(e.l, e.r, k);
      case "some":
        return k();
      case "somein":
        return this.evalTerm(e.coll, (c) => {
          if (!(Array.isArray(c) || c instanceof RObject || c instanceof RSet)) {
            if (this.strict)
              throw new RegoEvalError("`some .. in collection` expects array/set/object.", e.coll.pos);
            return false;
          }
          let mismatch = false;
          let found = false;
          const k2 = () => {
            found = true;
            return k();
          };
          for (const [key, val] of iterate(c)) {
            this.meter.step();
            if (e.value.t === "array" && Array.isArray(val) && val.length !== e.value.items.length)
              mismatch = true;
            const r = e.key
              ? this.unifyValue(e.key, key, () => this.unifyValue(e.value, val, k2))
              : this.unifyValue(e.value, val, k2);
            if (r) return true;
          }
          // regorus: a pattern that matches no element because of its length is an error (strict mode).
          if (mismatch && !found && this.strict)
            throw new RegoEvalError("mismatch in number of array elements", e.value.pos);
          return false;
        });
      case "every":
        return this.evalTerm(e.coll, (c) => {
          if (!(Array.isArray(c) || c instanceof RObject || c instanceof RSet)) return false;
          for (const [key, val] of iterate(c)) {
            this.meter.step();
            const ok = e.key
              ? this.unifyValue(e.key, key, () =>
                  this.unifyValue(e.value, val, () => this.evalBody(e.body, 0, () => true)),
                )
              : this.unifyValue(e.value, val, () => this.evalBody(e.body, 0, () => true));
            if (!ok) return false;
          }
          return k();
        });
    }
  }

  evalWith(lit: Literal, k: K): boolean {
    const outer = this.ctx;
    const inner: Ctx = {
      ...outer,
      cache: new Map(),
      cacheHas: new Set(),
      overrides: [...outer.overrides],
      mocks: new Map(outer.mocks),
      fnCache: new Map(),
    };
    for (const w of lit.with) {
      const res = (w as With & { res?: WithTarget }).res;
      if (res === undefined) throw new RegoEvalError("invalid `with` target", w.pos);
      if (res.kind === "fn") {
        if (res.replacement) inner.mocks.set(res.key, { target: res.replacement });
        else {
          const v = this.first(w.value);
          if (v === undefined) return false;
          inner.mocks.set(res.key, { value: v });
        }
        continue;
      }
      const v = this.first(w.value);
      if (v === undefined) return false;
      if (res.kind === "input") inner.input = setPath(inner.input, res.path, v);
      else {
        inner.data = setPath(inner.data, res.path, v) as Value;
        inner.overrides.push({ path: res.path, value: v });
      }
    }
    this.ctx = inner;
    try {
      return this.evalPlainLiteral({ ...lit, with: [] }, () => {
        this.ctx = outer;
        try {
          return k();
        } finally {
          this.ctx = inner;
        }
      });
    } finally {
      this.ctx = outer;
    }
  }

  /** The first value of a term, or undefined. */
  first(t: Term): Value | undefined {
    let out: Value | undefined;
    this.evalTerm(t, (v) => {
      out = v;
      return true;
    });
    return out;
  }
}
