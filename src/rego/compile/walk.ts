/** Walking terms and expressions (OPA's `ast.WalkTerms`, the parts the compiler needs). */
import type { Expr, Term } from "../syntax/ast.js";

/** The terms directly in an expression. */
export function exprTerms(e: Expr): Term[] {
  switch (e.k) {
    case "term":
      return [e.term];
    case "unify":
    case "assign":
      return [e.l, e.r];
    case "some":
      return e.vars;
    case "somein":
      return [...(e.key ? [e.key] : []), e.value, e.coll];
    case "every":
      return [];
  }
}

/** The names of a var or a ref of names (`a`, `a.b.c`), else undefined. */
export function termNames(t: Term): string[] | undefined {
  if (t.t === "var") return [t.name];
  if (
    t.t === "ref" &&
    t.head.t === "var" &&
    t.path.every((p) => p.t === "scalar" && typeof p.v === "string")
  ) {
    return [t.head.name, ...t.path.map((p) => (p as { v: string }).v)];
  }
  return undefined;
}

/** Visits a term and its sub-terms (not comprehension bodies). */
export function walkTerm(t: Term, f: (t: Term) => void): void {
  f(t);
  switch (t.t) {
    case "ref":
      walkTerm(t.head, f);
      for (const p of t.path) walkTerm(p, f);
      break;
    case "array":
    case "set":
      for (const i of t.items) walkTerm(i, f);
      break;
    case "object":
      for (const [k, v] of t.items) {
        walkTerm(k, f);
        walkTerm(v, f);
      }
      break;
    case "call":
      for (const a of t.args) walkTerm(a, f);
      break;
    case "binop":
      walkTerm(t.l, f);
      walkTerm(t.r, f);
      break;
    case "member":
      if (t.key) walkTerm(t.key, f);
      walkTerm(t.value, f);
      walkTerm(t.coll, f);
      break;
    default:
      break;
  }
}
