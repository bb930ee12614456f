/** Helpers on terms and documents the evaluator's layers share. */
import type { RuleNode } from "../compile/rule-tree.js";
import type { Term } from "../syntax/ast.js";
import { equal, RObject, RSet, type Value } from "../values.js";

/** Whether a term is a constant (its value needs no bindings): complete rules with one stop at a first solution. */
export function isGround(t: Term): boolean {
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

export function member(v: Value, c: Value): boolean {
  if (c instanceof RSet) return c.has(v);
  if (Array.isArray(c)) return c.some((e) => equal(e as Value, v));
  if (c instanceof RObject) {
    for (const [, e] of c.entries()) if (equal(e, v)) return true;
    return false;
  }
  return false;
}

export function hasRulesBelow(n: RuleNode): boolean {
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
