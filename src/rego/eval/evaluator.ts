/**
 * Top-down evaluation of Rego (OPA's `topdown`): bodies are evaluated literal by literal in
 * continuation-passing style, so unification and iteration backtrack by returning into the loop that
 * enumerates the next candidate. A continuation returns `true` to stop the enumeration (the first solution
 * of a `not`, an `every` counter-example). Bindings live in one environment per rule or function call and
 * are undone on backtracking. Rule values are computed once per evaluation (and per `with` scope).
 */
import { BUILTINS, type BuiltinCtx, walkPairs } from "../builtins/index.js";
import type { CallTarget, CRule, RuleNode, WithTarget } from "../compile/rule-tree.js";
import { BuiltinError, type Pos, RegoBudgetError, RegoEvalError } from "../errors.js";
import type { Expr, Literal, Term, With } from "../syntax/ast.js";
import type { QueryResult } from "../types.js";
import {
  compare,
  equal,
  formatNumber,
  iterate,
  keyOf,
  lookup,
  RObject,
  RSet,
  toRegoString,
  typeName,
  type Value,
} from "../values.js";
import { type Budget, Meter } from "./budget.js";

type K = () => boolean;
type KV = (v: Value) => boolean;

interface Ctx {
  input: Value | undefined;
  data: Value;
  cache: Map<number, Value | null | undefined>;
  cacheHas: Set<number>;
  overrides: { path: string[]; value: Value }[];
  mocks: Map<string, { target?: CallTarget; value?: Value }>;
  fnCache: Map<string, Value | undefined>;
}

/** Evaluation options. */
export interface EvalOptions {
  input: Value | undefined;
  data: Value;
  budget: Budget | undefined;
  strict: boolean;
  print: ((line: string) => void) | undefined;
  clock?: { now: () => number; checkEvery: number } | undefined;
}

const ROOTS = new Set(["input", "data"]);

export class Evaluator {
  env = new Map<string, Value>();
  ctx: Ctx;
  readonly meter: Meter;
  readonly strict: boolean;
  private readonly inProgress = new Set<number>();
  private readonly bctx: BuiltinCtx;

  constructor(
    readonly root: RuleNode,
    readonly opts: EvalOptions,
  ) {
    this.ctx = {
      input: opts.input,
      data: opts.data,
      cache: new Map(),
      cacheHas: new Set(),
      overrides: [],
      mocks: new Map(),
      fnCache: new Map(),
    };
    this.meter = new Meter(opts.budget, opts.clock?.now, opts.clock?.checkEvery);
    this.strict = opts.strict;
    const started = Date.now();
    this.bctx = { meter: this.meter, strict: opts.strict, now: () => started };
  }

  // ---- queries --------------------------------------------------------------------------------

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

  guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof RangeError) throw new RegoBudgetError("evaluation exceeded the host's stack depth");
      throw e;
    }
  }

  // ---- bodies and literals --------------------------------------------------------------------

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

  // ---- unification ----------------------------------------------------------------------------

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

  // ---- terms ----------------------------------------------------------------------------------

  evalTerm(t: Term, k: KV): boolean {
    switch (t.t) {
      case "scalar":
        return k(t.v);
      case "var": {
        const v = this.env.get(t.name);
        if (v !== undefined) return k(v);
        if (t.name === "input") return this.ctx.input === undefined ? false : k(this.ctx.input);
        if (t.name === "data") return this.evalData(this.root, [], 0, this.ctx.data, k);
        throw new RegoEvalError(`var ${t.name} is unsafe`, t.pos, "rego_unsafe_var_error");
      }
      case "ref":
        return this.evalRef(t, k);
      case "array":
        return this.evalList(t.items, 0, [], (vals) => k(Object.freeze(vals)));
      case "set":
        return this.evalList(t.items, 0, [], (vals) => k(new RSet(vals)));
      case "object": {
        const flat = t.items.flat();
        return this.evalList(flat, 0, [], (vals) => {
          const o = new RObject();
          for (let i = 0; i < vals.length; i += 2) o.set(vals[i] as Value, vals[i + 1] as Value);
          return k(o);
        });
      }
      case "arraycompr": {
        const out: Value[] = [];
        this.scoped(() =>
          this.evalBody(t.body, 0, () =>
            this.evalTerm(t.term, (v) => {
              this.meter.alloc(16);
              out.push(v);
              return false;
            }),
          ),
        );
        return k(Object.freeze(out));
      }
      case "setcompr": {
        const out = new RSet();
        this.scoped(() =>
          this.evalBody(t.body, 0, () =>
            this.evalTerm(t.term, (v) => {
              this.meter.alloc(16);
              out.add(v);
              return false;
            }),
          ),
        );
        return k(out);
      }
      case "objcompr": {
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

  // ---- data and rules -------------------------------------------------------------------------

  override(path: string[]): { value: Value; rest: string[] } | undefined {
    const ovs = this.ctx.overrides;
    for (let j = ovs.length - 1; j >= 0; j--) {
      const o = ovs[j] as { path: string[]; value: Value };
      if (o.path.length <= path.length && o.path.every((p, n) => p === path[n]))
        return { value: o.value, rest: path.slice(o.path.length) };
    }
    return undefined;
  }

  evalData(node: RuleNode, path: Term[], i: number, base: Value | undefined, k: KV): boolean {
    if (this.ctx.overrides.length > 0) {
      const ov = this.override(node.path);
      if (ov) {
        let v: Value | undefined = ov.value;
        for (const r of ov.rest) v = v === undefined ? undefined : lookup(v, r);
        return v === undefined ? false : this.walkValue(v, path, i, k);
      }
    }
    if (node.kind !== undefined) {
      const v = this.nodeValue(node, base);
      return v === undefined ? false : this.walkValue(v, path, i, k);
    }
    if (i === path.length) {
      const v = this.nodeValue(node, base);
      return v === undefined ? false : k(v);
    }
    const seg = path[i] as Term;
    if (this.unbound(seg)) {
      const v = this.nodeValue(node, base);
      return v === undefined ? false : this.walkValue(v, path, i, k);
    }
    return this.evalTerm(seg, (rawKey) => {
      // Under data, a number indexes by its text (data[1] is data["1"]), as regorus does.
      const key = typeof rawKey === "number" ? formatNumber(rawKey) : rawKey;
      if (typeof key === "string") {
        const child = node.children.get(key);
        if (child)
          return this.evalData(child, path, i + 1, base === undefined ? undefined : lookup(base, key), k);
      }
      const bv = base === undefined ? undefined : lookup(base, key);
      return bv === undefined ? false : this.walkValue(bv, path, i + 1, k);
    });
  }

  /** The value of the document at a node: its rules' value, or base data merged with its children. */
  nodeValue(node: RuleNode, base: Value | undefined): Value | undefined {
    if (this.ctx.overrides.length > 0) {
      const ov = this.override(node.path);
      if (ov) {
        let v: Value | undefined = ov.value;
        for (const r of ov.rest) v = v === undefined ? undefined : lookup(v, r);
        return v;
      }
    }
    if (node.kind === "func") {
      const f = node.funcs[0] ?? node.defaults[0];
      return f?.rule.args?.length === 0 ? this.callFunction(node, [], f.rule.pos) : undefined;
    }
    if (this.ctx.cacheHas.has(node.id)) return this.ctx.cache.get(node.id) as Value | undefined;
    let v: Value | undefined;
    if (node.kind !== undefined) v = this.evalRules(node);
    if (node.kind === undefined || node.kind === "object") {
      if (node.children.size > 0 || node.kind === undefined) {
        const o = new RObject();
        if (base instanceof RObject) for (const [bk, bv] of base.entries()) o.set(bk, bv);
        if (v instanceof RObject) for (const [bk, bv] of v.entries()) o.set(bk, bv);
        for (const [name, child] of node.children) {
          const cv = this.nodeValue(child, base === undefined ? undefined : lookup(base, name));
          if (cv !== undefined) {
            const prev = o.get(name);
            if (prev !== undefined && node.kind === "object" && !equal(prev, cv)) {
              throw new RegoEvalError(
                "rule conflicts with the following rule: object keys must be unique",
                undefined,
                "eval_conflict_error",
              );
            }
            o.set(name, cv);
          } else if (
            node.kind === undefined &&
            child.kind === undefined &&
            !child.hasRules &&
            !hasRulesBelow(child)
          ) {
            // keep base only
          }
        }
        if (node.kind === "object" && v === undefined && o.size === 0) v = undefined;
        else if (
          node.kind === undefined &&
          base !== undefined &&
          !(base instanceof RObject) &&
          node.children.size === 0
        )
          v = base;
        else v = o;
      }
    }
    this.ctx.cacheHas.add(node.id);
    this.ctx.cache.set(node.id, v === undefined ? undefined : v);
    return v;
  }

  enterRule<T>(id: number, f: () => T): T {
    if (this.inProgress.has(id))
      throw new RegoEvalError("recursion detected", undefined, "rego_recursion_error");
    this.inProgress.add(id);
    this.meter.enter();
    const savedEnv = this.env;
    try {
      return f();
    } finally {
      this.env = savedEnv;
      this.meter.leave();
      this.inProgress.delete(id);
    }
  }

  evalRules(node: RuleNode): Value | undefined {
    return this.enterRule(node.id, () => {
      switch (node.kind) {
        case "set": {
          if (node.rules.some((cr) => cr.suffix.length > 0)) return this.evalNestedSets(node);
          const out = new RSet();
          for (const cr of node.rules) {
            this.env = new Map();
            this.evalBody(cr.rule.body, 0, () =>
              this.evalTerm(cr.rule.key as Term, (v) => {
                this.meter.alloc(16);
                out.add(v);
                return isGround(cr.rule.key as Term);
              }),
            );
          }
          return out;
        }
        case "object": {
          const out = new RObject();
          let any = false;
          for (const cr of node.rules) {
            this.env = new Map();
            if (cr.suffix.length === 0) continue;
            this.evalBody(cr.rule.body, 0, () =>
              this.evalList(cr.suffix, 0, [], (keys) =>
                this.evalTerm(cr.rule.value, (v) => {
                  any = true;
                  this.insertPath(out, keys, v, cr);
                  return isGround(cr.rule.value) && cr.suffix.every(isGround);
                }),
              ),
            );
          }
          for (const cr of node.rules) {
            if (cr.suffix.length === 0) {
              const v = this.evalComplete(cr);
              if (v instanceof RObject) for (const [kk, vv] of v.entries()) out.set(kk, vv);
            }
          }
          void any;
          return out;
        }
        default: {
          let result: Value | undefined;
          for (const cr of node.rules) {
            const v = this.evalComplete(cr);
            if (v === undefined) continue;
            if (result !== undefined && !equal(result, v)) {
              throw new RegoEvalError(
                cr.rule.ref.length > 1
                  ? "rule conflicts with the following rule: complete rules must not produce multiple outputs"
                  : "complete rules must not produce multiple outputs (rules should not produce multiple outputs)",
                cr.rule.pos,
                "eval_conflict_error",
              );
            }
            result = v;
          }
          if (result === undefined) {
            for (const d of node.defaults) {
              this.env = new Map();
              result = this.first(d.rule.value);
            }
          }
          return result;
        }
      }
    });
  }

  /** `q[a][b] contains x`: an object of sets. */
  evalNestedSets(node: RuleNode): RObject {
    const out = new RObject();
    for (const cr of node.rules) {
      this.env = new Map();
      this.evalBody(cr.rule.body, 0, () =>
        this.evalList(cr.suffix, 0, [], (keys) =>
          this.evalTerm(cr.rule.key as Term, (v) => {
            let cur = out;
            for (let j = 0; j < keys.length - 1; j++) {
              let next = cur.get(keys[j] as Value);
              if (next === undefined) {
                next = new RObject();
                cur.set(keys[j] as Value, next);
              }
              if (!(next instanceof RObject))
                throw new RegoEvalError(
                  "rule conflicts with the following rule",
                  cr.rule.pos,
                  "eval_conflict_error",
                );
              cur = next;
            }
            const lastKey = keys[keys.length - 1] as Value;
            let leaf = cur.get(lastKey);
            if (leaf === undefined) {
              leaf = new RSet();
              cur.set(lastKey, leaf);
            }
            if (!(leaf instanceof RSet))
              throw new RegoEvalError(
                "rule conflicts with the following rule",
                cr.rule.pos,
                "eval_conflict_error",
              );
            this.meter.alloc(16);
            leaf.add(v);
            return false;
          }),
        ),
      );
    }
    return out;
  }

  insertPath(out: RObject, keys: Value[], v: Value, cr: CRule): void {
    let cur = out;
    for (let j = 0; j < keys.length - 1; j++) {
      const key = keys[j] as Value;
      let next = cur.get(key);
      if (next === undefined) {
        next = new RObject();
        cur.set(key, next);
      }
      if (!(next instanceof RObject))
        throw new RegoEvalError("rule conflicts with the following rule", cr.rule.pos, "eval_conflict_error");
      cur = next;
    }
    const last = keys[keys.length - 1] as Value;
    const prev = cur.get(last);
    if (prev !== undefined && !equal(prev, v)) {
      throw new RegoEvalError(
        "object keys must be unique (rules must not produce multiple outputs)",
        cr.rule.pos,
        "eval_conflict_error",
      );
    }
    this.meter.alloc(32);
    cur.set(last, v);
  }

  /** A complete rule definition with its `else` chain: its value, or undefined. */
  evalComplete(cr: CRule): Value | undefined {
    const r = cr.rule;
    const chain = [{ value: r.value, body: r.body }, ...r.elseChain];
    for (const c of chain) {
      this.env = new Map();
      let out: Value | undefined;
      const ground = isGround(c.value);
      this.evalBody(c.body, 0, () =>
        this.evalTerm(c.value, (v) => {
          if (ground) {
            out = v;
            return true;
          }
          if (out !== undefined && !equal(out, v)) {
            throw new RegoEvalError(
              "complete rules must not produce multiple outputs (rules should not produce multiple outputs)",
              r.pos,
              "eval_conflict_error",
            );
          }
          out = v;
          return false;
        }),
      );
      if (out !== undefined) return out;
    }
    return undefined;
  }

  // ---- calls ----------------------------------------------------------------------------------

  evalCall(t: Extract<Term, { t: "call" }>, k: KV): boolean {
    let target = (t as { target?: CallTarget }).target as CallTarget;
    const mockKey = target.kind === "rule" ? `rule:${target.node.id}` : `builtin:${target.name}`;
    const mock = this.ctx.mocks.get(mockKey);
    if (mock) {
      if (mock.value !== undefined) {
        const mv = mock.value;
        return this.evalList(t.args, 0, [], () => k(mv));
      }
      target = mock.target as CallTarget;
    }
    if (target.kind === "unknown")
      throw new RegoEvalError(`could not find function ${target.name}`, t.pos, "rego_type_error");
    if (target.kind === "builtin" && target.name === "print") return this.evalPrint(t, k);
    if (target.kind === "builtin" && target.name === "walk") {
      if (t.args.length !== 1 && t.args.length !== 2)
        throw new RegoEvalError("`walk` expects 1 argument", t.pos, "rego_type_error");
      const out = t.args[1];
      return this.evalTerm(t.args[0] as Term, (v) => {
        for (const pair of walkPairs(v)) {
          this.meter.step();
          if (out ? this.unifyValue(out, pair, () => k(true)) : k(pair)) return true;
        }
        return false;
      });
    }
    let arity: number;
    if (target.kind === "builtin") {
      const b = BUILTINS.get(target.name);
      if (!b) throw new RegoEvalError(`could not find function ${target.name}`, t.pos, "rego_type_error");
      arity = b.arity < 0 ? t.args.length : b.arity;
    } else {
      const f = target.node.funcs[0] ?? target.node.defaults[0];
      if (!f?.rule.args) {
        if (target.node.kind !== undefined && target.node.kind !== "func") {
          throw new RegoEvalError(
            `${target.name} is not a function (could not find function ${target.name})`,
            t.pos,
            "rego_type_error",
          );
        }
        throw new RegoEvalError(`could not find function ${target.name}`, t.pos, "rego_type_error");
      }
      arity = f.rule.args.length;
    }
    const last = t.args[t.args.length - 1];
    if (t.args.length !== arity && (t.args.length !== arity + 1 || last?.t !== "var")) {
      const noun = arity === 1 ? "argument" : "arguments";
      throw new RegoEvalError(`\`${target.name}\` expects ${arity} ${noun}`, t.pos, "rego_type_error");
    }
    const inArgs = t.args.slice(0, arity);
    const outArg = t.args.length > arity ? (t.args[arity] as Term) : undefined;
    const tgt = target;
    return this.evalList(inArgs, 0, [], (vals) => {
      this.meter.step();
      const result =
        tgt.kind === "builtin"
          ? this.callBuiltin(tgt.name, vals, t.pos)
          : this.callFunction(tgt.node, vals, t.pos);
      if (result === undefined) return false;
      if (outArg) return this.unifyValue(outArg, result, () => k(true));
      return k(result);
    });
  }

  callBuiltin(name: string, args: Value[], pos: Pos): Value | undefined {
    const b = BUILTINS.get(name);
    if (!b) throw new RegoEvalError(`could not find function ${name}`, pos, "rego_type_error");
    try {
      return b.fn(args, this.bctx);
    } catch (e) {
      if (e instanceof BuiltinError) {
        if (this.strict) throw new RegoEvalError(`${name}: ${e.message}`, pos, "eval_builtin_error");
        return undefined;
      }
      if (e instanceof RegoEvalError) throw e;
      if (e instanceof RangeError) throw new RegoBudgetError("evaluation exceeded the host's stack depth");
      throw e;
    }
  }

  callFunction(node: RuleNode, args: Value[], pos: Pos): Value | undefined {
    const key = `${node.id}:${keyOf(Object.freeze([...args]))}`;
    if (this.ctx.fnCache.has(key)) return this.ctx.fnCache.get(key);
    this.meter.enter();
    const saved = this.env;
    try {
      let result: Value | undefined;
      for (const cr of node.funcs) {
        const r = cr.rule;
        const chain = [{ value: r.value, body: r.body }, ...r.elseChain];
        for (const c of chain) {
          this.env = new Map();
          let out: Value | undefined;
          const bindArgs = (j: number): boolean => {
            if (j === args.length) {
              return this.evalBody(c.body, 0, () =>
                this.evalTerm(c.value, (v) => {
                  if (out !== undefined && !equal(out, v)) {
                    throw new RegoEvalError(
                      "functions must not produce multiple outputs for same inputs (rules should not produce multiple outputs)",
                      r.pos,
                      "eval_conflict_error",
                    );
                  }
                  out = v;
                  return false;
                }),
              );
            }
            return this.unifyValue((r.args as Term[])[j] as Term, args[j] as Value, () => bindArgs(j + 1));
          };
          bindArgs(0);
          if (out !== undefined) {
            if (result !== undefined && !equal(result, out)) {
              throw new RegoEvalError(
                "functions must not produce multiple outputs for same inputs (rules should not produce multiple outputs)",
                pos,
                "eval_conflict_error",
              );
            }
            result = out;
            break;
          }
        }
      }
      if (result === undefined) {
        for (const d of node.defaults) {
          this.env = new Map();
          result = this.first(d.rule.value);
        }
      }
      this.ctx.fnCache.set(key, result);
      return result;
    } finally {
      this.env = saved;
      this.meter.leave();
    }
  }

  evalPrint(t: Extract<Term, { t: "call" }>, k: KV): boolean {
    const parts: string[] = [];
    for (const a of t.args) {
      const vals: Value[] = [];
      try {
        this.evalTerm(a, (v) => {
          vals.push(v);
          return false;
        });
      } catch (e) {
        if (!(e instanceof RegoEvalError) || e instanceof RegoBudgetError) throw e;
      }
      parts.push(
        vals.length === 0
          ? "<undefined>"
          : vals.map((v) => (v instanceof RSet && v.size === 0 ? "{}" : toRegoString(v))).join(" "),
      );
    }
    this.opts.print?.(`${t.pos.file}:${t.pos.line}: ${parts.join(" ")}`);
    return k(true);
  }

  // ---- operators ------------------------------------------------------------------------------

  binop(op: string, a: Value, b: Value, pos: Pos): Value | undefined {
    switch (op) {
      case "==":
        return equal(a, b);
      case "!=":
        return !equal(a, b);
      case "<":
        return compare(a, b) < 0;
      case ">":
        return compare(a, b) > 0;
      case "<=":
        return compare(a, b) <= 0;
      case ">=":
        return compare(a, b) >= 0;
      default:
        break;
    }
    const name = { "+": "plus", "-": "minus", "*": "mul", "/": "div", "%": "rem", "|": "or", "&": "and" }[
      op
    ] as string;
    return this.callBuiltin(name, [a, b], pos);
  }
}

/** Whether a term is a constant (its value needs no bindings): complete rules with one stop at a first solution. */
function isGround(t: Term): boolean {
  switch (t.t) {
    case "scalar":
      return true;
    case "array":
    case "set":
      return t.items.every(isGround);
    case "object":
      return t.items.every(([k, v]) => isGround(k) && isGround(v));
    default:
      return false;
  }
}

function member(v: Value, c: Value): boolean {
  if (c instanceof RSet) return c.has(v);
  if (Array.isArray(c)) return c.some((e) => equal(e as Value, v));
  if (c instanceof RObject) {
    for (const [, e] of c.entries()) if (equal(e, v)) return true;
    return false;
  }
  return false;
}

function hasRulesBelow(n: RuleNode): boolean {
  if (n.hasRules) return true;
  for (const c of n.children.values()) if (hasRulesBelow(c)) return true;
  return false;
}

/** A copy of `doc` with `value` at `path` (objects created along the way). */
export function setPath(doc: Value | undefined, path: string[], value: Value): Value {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const o = new RObject();
  if (doc instanceof RObject) for (const [k, v] of doc.entries()) o.set(k, v);
  o.set(head, setPath(doc instanceof RObject ? doc.get(head) : undefined, rest, value));
  return o;
}

export { typeName };
