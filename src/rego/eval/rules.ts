/**
 * Rule values (OPA's topdown `evalVirtual`: partial sets, partial objects, complete rules with `else` and
 * defaults), computed once per scope; recursion is an error.
 */
import type { CRule, RuleNode } from "../compile/rule-tree.js";
import { RegoEvalError } from "../errors.js";
import type { Term } from "../syntax/ast.js";
import { equal, RObject, RSet, type Value } from "../values.js";
import { DataEvaluator } from "./data.js";
import { isGround } from "./helpers.js";

export abstract class RuleEvaluator extends DataEvaluator {
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
      if (node.kind === "set") return this.evalSetRules(node);
      if (node.kind === "object") return this.evalObjectRules(node);
      return this.evalCompleteRules(node);
    });
  }

  /** `p contains x` (`p[x]`): the set of every rule's keys; with a path (`p[a] contains x`) nested sets. */
  evalSetRules(node: RuleNode): Value {
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

  /** `p[k] := v` rules, and complete rules whose values are objects merged in. */
  evalObjectRules(node: RuleNode): Value {
    const out = new RObject();
    for (const cr of node.rules) {
      this.env = new Map();
      if (cr.suffix.length === 0) continue;
      this.evalBody(cr.rule.body, 0, () =>
        this.evalList(cr.suffix, 0, [], (keys) =>
          this.evalTerm(cr.rule.value, (v) => {
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
    return out;
  }

  /** Complete rules: one value (two different values conflict), else the default. */
  evalCompleteRules(node: RuleNode): Value | undefined {
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
}
