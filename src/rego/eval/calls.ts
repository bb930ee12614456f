/** Calls (OPA's topdown `evalCall`): builtins, user functions, mocks from `with`, `print`, `walk`, operators. */
import { BUILTINS, walkPairs } from "../builtins/index.js";
import type { CallTarget, RuleNode } from "../compile/rule-tree.js";
import { toRegoString } from "../convert.js";
import { BuiltinError, type Pos, RegoBudgetError, RegoEvalError } from "../errors.js";
import type { Term } from "../syntax/ast.js";
import { compare, equal, keyOf, RSet, type Value } from "../values.js";
import type { KV } from "./machine.js";
import { RuleEvaluator } from "./rules.js";

export abstract class CallEvaluator extends RuleEvaluator {
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
    if (target.kind === "builtin" && target.name === "walk") return this.evalWalk(t, k);
    const arity = this.arity(target, t);
    const last = t.args[t.args.length - 1];
    if (t.args.length !== arity && (t.args.length !== arity + 1 || last?.t !== "var")) {
      const noun = arity === 1 ? "argument" : "arguments";
      throw new RegoEvalError(`\`${target.name}\` expects ${arity} ${noun}`, t.pos, "rego_type_error");
    }
    const outArg = t.args.length > arity ? (t.args[arity] as Term) : undefined;
    const tgt = target;
    return this.evalList(t.args.slice(0, arity), 0, [], (vals) => {
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

  /** `walk(x)` enumerates `[path, value]` pairs; `walk(x, out)` unifies each with `out`. */
  evalWalk(t: Extract<Term, { t: "call" }>, k: KV): boolean {
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

  /** The number of inputs a builtin or user function takes; a name that is no function is a type error. */
  arity(target: Exclude<CallTarget, { kind: "unknown" }>, t: Extract<Term, { t: "call" }>): number {
    if (target.kind === "builtin") {
      const b = BUILTINS.get(target.name);
      if (!b) throw new RegoEvalError(`could not find function ${target.name}`, t.pos, "rego_type_error");
      return b.arity < 0 ? t.args.length : b.arity;
    }
    const f = target.node.funcs[0] ?? target.node.defaults[0];
    if (f?.rule.args) return f.rule.args.length;
    if (target.node.kind !== undefined && target.node.kind !== "func") {
      throw new RegoEvalError(
        `${target.name} is not a function (could not find function ${target.name})`,
        t.pos,
        "rego_type_error",
      );
    }
    throw new RegoEvalError(`could not find function ${target.name}`, t.pos, "rego_type_error");
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
