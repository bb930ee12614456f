/** Terms by kind (OPA's topdown `evalTerm`): vars, refs, collections, comprehensions, operators, membership. */

import { toRegoString } from "../convert.js";
import { RegoEvalError } from "../errors.js";
import type { Term } from "../syntax/ast.js";
import { equal, iterate, lookup, RObject, RSet, type Value } from "../values.js";
import { BodyEvaluator } from "./bodies.js";
import { member } from "./helpers.js";
import type { KV } from "./machine.js";

export abstract class TermEvaluator extends BodyEvaluator {
  evalTerm(t: Term, k: KV): boolean {
    switch (t.t) {
      case "scalar":
        return k(t.v);
      case "var":
        return this.evalVar(t, k);
      case "ref":
        return this.evalRef(t, k);
      case "array":
        return this.evalList(t.items, 0, [], (vals) => k(Object.freeze(vals)));
      case "set":
        return this.evalList(t.items, 0, [], (vals) => k(new RSet(vals)));
      case "object":
        return this.evalObject(t, k);
      case "arraycompr":
      case "setcompr":
        return this.evalCollectionCompr(t, k);
      case "objcompr":
        return this.evalObjectCompr(t, k);
      case "call":
        return this.evalCall(t, k);
      case "binop":
        return this.evalTerm(t.l, (a) =>
          this.evalTerm(t.r, (b) => {
            const v = this.binop(t.op, a, b, t.pos);
            return v === undefined ? false : k(v);
          }),
        );
      case "member":
        return this.evalMember(t, k);
    }
  }

  evalVar(t: Extract<Term, { t: "var" }>, k: KV): boolean {
    const v = this.env.get(t.name);
    if (v !== undefined) return k(v);
    if (t.name === "input") return this.ctx.input === undefined ? false : k(this.ctx.input);
    if (t.name === "data") return this.evalData(this.root, [], 0, this.ctx.data, k);
    throw new RegoEvalError(`var ${t.name} is unsafe`, t.pos, "rego_unsafe_var_error");
  }

  evalObject(t: Extract<Term, { t: "object" }>, k: KV): boolean {
    return this.evalList(t.items.flat(), 0, [], (vals) => {
      const o = new RObject();
      for (let i = 0; i < vals.length; i += 2) o.set(vals[i] as Value, vals[i + 1] as Value);
      return k(o);
    });
  }

  /** `[x | body]` and `{x | body}`: every value of the term over the body's solutions. */
  evalCollectionCompr(t: Extract<Term, { t: "arraycompr" | "setcompr" }>, k: KV): boolean {
    const out: Value[] = [];
    const set = new RSet();
    this.scoped(() =>
      this.evalBody(t.body, 0, () =>
        this.evalTerm(t.term, (v) => {
          this.meter.alloc(16);
          if (t.t === "setcompr") set.add(v);
          else out.push(v);
          return false;
        }),
      ),
    );
    return k(t.t === "setcompr" ? set : Object.freeze(out));
  }

  /** `{k: v | body}`: a key generated twice with different values is a conflict. */
  evalObjectCompr(t: Extract<Term, { t: "objcompr" }>, k: KV): boolean {
    const out = new RObject();
    this.scoped(() =>
      this.evalBody(t.body, 0, () =>
        this.evalTerm(t.key, (key) =>
          this.evalTerm(t.value, (v) => {
            const prev = out.get(key);
            if (prev !== undefined && !equal(prev, v)) {
              throw new RegoEvalError(
                `object keys must be unique: value for key \`${toRegoString(key, false)}\` generated multiple times: \`${toRegoString(prev, false)}\` and \`${toRegoString(v, false)}\``,
                t.pos,
                "eval_conflict_error",
              );
            }
            this.meter.alloc(32);
            out.set(key, v);
            return false;
          }),
        ),
      ),
    );
    return k(out);
  }

  /** `x in c` and `k, x in c`. */
  evalMember(t: Extract<Term, { t: "member" }>, k: KV): boolean {
    return this.evalTerm(t.coll, (c) =>
      this.evalTerm(t.value, (v) => {
        if (t.key === undefined) return k(member(v, c));
        return this.evalTerm(t.key, (key) => {
          const found = lookup(c, key);
          return k(found !== undefined && !(c instanceof RSet) && equal(found, v));
        });
      }),
    );
  }

  /** Evaluates a comprehension body in the current environment; its bindings are undone after. */
  scoped(f: () => boolean): void {
    f();
  }

  evalList(items: Term[], i: number, acc: Value[], k: (vals: Value[]) => boolean): boolean {
    if (i === items.length) return k([...acc]);
    return this.evalTerm(items[i] as Term, (v) => {
      acc.push(v);
      try {
        return this.evalList(items, i + 1, acc, k);
      } finally {
        acc.pop();
      }
    });
  }

  evalRef(t: Extract<Term, { t: "ref" }>, k: KV): boolean {
    const head = t.head;
    if (head.t === "var") {
      const local = this.env.get(head.name);
      if (local !== undefined) return this.walkValue(local, t.path, 0, k);
      if (head.name === "input")
        return this.ctx.input === undefined ? false : this.walkValue(this.ctx.input, t.path, 0, k);
      if (head.name === "data") return this.evalData(this.root, t.path, 0, this.ctx.data, k);
      throw new RegoEvalError(`var ${head.name} is unsafe`, head.pos, "rego_unsafe_var_error");
    }
    return this.evalTerm(head, (v) => this.walkValue(v, t.path, 0, k));
  }

  walkValue(v: Value, path: Term[], i: number, k: KV): boolean {
    if (i === path.length) return k(v);
    const seg = path[i] as Term;
    if (this.unbound(seg) || ((seg.t === "array" || seg.t === "object") && this.hasUnbound(seg))) {
      for (const [key, val] of iterate(v)) {
        this.meter.step();
        if (this.unifyValue(seg, key, () => this.walkValue(val, path, i + 1, k))) return true;
      }
      return false;
    }
    return this.evalTerm(seg, (key) => {
      const nv = lookup(v, key);
      return nv === undefined ? false : this.walkValue(nv, path, i + 1, k);
    });
  }
}
