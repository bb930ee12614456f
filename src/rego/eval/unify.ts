/** Unification (OPA's topdown `evalUnify`): binding vars against terms and values, destructuring patterns. */
import { RegoEvalError } from "../errors.js";
import type { Term } from "../syntax/ast.js";
import { equal, RObject, type Value } from "../values.js";
import { EvalState, type K, ROOTS } from "./machine.js";

export abstract class Unifier extends EvalState {
  unbound(t: Term): t is Extract<Term, { t: "var" }> {
    return t.t === "var" && !ROOTS.has(t.name) && !this.env.has(t.name);
  }

  /** Whether a pattern term has unbound vars in pattern positions. */
  hasUnbound(t: Term): boolean {
    switch (t.t) {
      case "var":
        return this.unbound(t);
      case "array":
        return t.items.some((i) => this.hasUnbound(i));
      case "object":
        return t.items.some(([, v]) => this.hasUnbound(v));
      default:
        return false;
    }
  }

  bind(name: string, v: Value, k: K): boolean {
    this.env.set(name, v);
    try {
      return k();
    } finally {
      this.env.delete(name);
    }
  }

  unify(a: Term, b: Term, k: K): boolean {
    if (this.unbound(a)) {
      if (this.unbound(b)) throw new RegoEvalError(`var ${b.name} is unsafe`, b.pos, "rego_unsafe_var_error");
      return this.evalTerm(b, (v) =>
        this.env.has(a.name) ? equal(this.env.get(a.name) as Value, v) && k() : this.bind(a.name, v, k),
      );
    }
    if (this.unbound(b))
      return this.evalTerm(a, (v) =>
        this.env.has(b.name) ? equal(this.env.get(b.name) as Value, v) && k() : this.bind(b.name, v, k),
      );
    if (a.t === "array" && b.t === "array") {
      if (a.items.length !== b.items.length) {
        if (this.hasUnbound(a) || this.hasUnbound(b))
          throw new RegoEvalError("mismatch in number of array elements", a.pos);
        return false;
      }
      const go = (i: number): boolean =>
        i === a.items.length ? k() : this.unify(a.items[i] as Term, b.items[i] as Term, () => go(i + 1));
      return go(0);
    }
    if (this.hasUnbound(a)) {
      if ((a.t === "array" && b.t === "object") || (a.t === "object" && b.t === "array")) {
        throw new RegoEvalError(
          "incompatible destructuring patterns: both sides must be arrays or objects with matching structure",
          a.pos,
        );
      }
      return this.evalTerm(b, (v) => this.unifyValue(a, v, k));
    }
    if (this.hasUnbound(b)) return this.evalTerm(a, (v) => this.unifyValue(b, v, k));
    return this.evalTerm(a, (va) => this.evalTerm(b, (vb) => (equal(va, vb) ? k() : false)));
  }

  unifyValue(t: Term, v: Value, k: K): boolean {
    if (t.t === "var") {
      if (ROOTS.has(t.name)) return this.evalTerm(t, (tv) => (equal(tv, v) ? k() : false));
      const cur = this.env.get(t.name);
      if (cur !== undefined) return equal(cur, v) ? k() : false;
      return this.bind(t.name, v, k);
    }
    if (t.t === "array" && this.hasUnbound(t)) {
      if (!Array.isArray(v) || v.length !== t.items.length) return false;
      const go = (i: number): boolean =>
        i === t.items.length ? k() : this.unifyValue(t.items[i] as Term, v[i] as Value, () => go(i + 1));
      return go(0);
    }
    if (t.t === "object" && this.hasUnbound(t)) {
      if (!(v instanceof RObject) || v.size !== t.items.length) return false;
      const go = (i: number): boolean => {
        if (i === t.items.length) return k();
        const [kt, vt] = t.items[i] as [Term, Term];
        return this.evalTerm(kt, (key) => {
          const child = v.get(key);
          return child === undefined ? false : this.unifyValue(vt, child, () => go(i + 1));
        });
      };
      return go(0);
    }
    return this.evalTerm(t, (tv) => (equal(tv, v) ? k() : false));
  }
}
