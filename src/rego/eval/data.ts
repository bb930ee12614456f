/** The data document (OPA's topdown `evalTree`): base documents merged with rule values, `with` overrides. */
import type { RuleNode } from "../compile/rule-tree.js";
import { formatNumber } from "../convert.js";
import { RegoEvalError } from "../errors.js";
import type { Term } from "../syntax/ast.js";
import { equal, lookup, RObject, type Value } from "../values.js";
import { hasRulesBelow } from "./helpers.js";
import type { KV } from "./machine.js";
import { TermEvaluator } from "./terms.js";

export abstract class DataEvaluator extends TermEvaluator {
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
}
