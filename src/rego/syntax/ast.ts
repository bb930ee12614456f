/** The Rego abstract syntax tree (OPA's `ast.Module`, `ast.Rule`, `ast.Expr`, `ast.Term`). */
import type { Pos } from "../errors.js";
import type { Value } from "../values.js";

export type Term =
  | { t: "scalar"; v: Value; pos: Pos }
  | { t: "var"; name: string; pos: Pos }
  /** `head.a[b]...`: head a var or any term; path segments are terms (dotted names are string scalars). */
  | { t: "ref"; head: Term; path: Term[]; pos: Pos }
  | { t: "array"; items: Term[]; pos: Pos }
  | { t: "object"; items: [Term, Term][]; pos: Pos }
  | { t: "set"; items: Term[]; pos: Pos }
  | { t: "arraycompr"; term: Term; body: Literal[]; pos: Pos }
  | { t: "setcompr"; term: Term; body: Literal[]; pos: Pos }
  | { t: "objcompr"; key: Term; value: Term; body: Literal[]; pos: Pos }
  /** A call: `fn` is the function's name as written (`startswith`, `data.lib.f`, `lib.f`). */
  | { t: "call"; fn: string[]; args: Term[]; pos: Pos }
  /** Infix operators: arithmetic, comparison, `|` `&`, and `in` (membership, `key` set for `k, v in xs`). */
  | { t: "binop"; op: string; l: Term; r: Term; pos: Pos }
  | { t: "member"; key: Term | undefined; value: Term; coll: Term; pos: Pos };

export interface With {
  target: Term;
  value: Term;
  pos: Pos;
}

export type Expr =
  | { k: "term"; term: Term }
  | { k: "unify"; l: Term; r: Term }
  | { k: "assign"; l: Term; r: Term }
  | { k: "some"; vars: Term[] }
  | { k: "somein"; key: Term | undefined; value: Term; coll: Term }
  | { k: "every"; key: Term | undefined; value: Term; coll: Term; body: Literal[] };

export interface Literal {
  expr: Expr;
  negated: boolean;
  with: With[];
  pos: Pos;
}

export type RuleKind = "complete" | "set" | "object" | "func";

/** One rule definition (an `else` chain hangs on its first body). */
export interface Rule {
  kind: RuleKind;
  isDefault: boolean;
  /** Head ref: first segment the name (string scalar), then the path terms. */
  ref: Term[];
  args: Term[] | undefined;
  /** Partial set element (`contains x`, v0 `p[x]`). */
  key: Term | undefined;
  /** Value (`= v`, `:= v`), `true` when absent. */
  value: Term;
  /** Whether the head used `:=`. */
  assign: boolean;
  body: Literal[];
  elseChain: { value: Term; body: Literal[]; pos: Pos }[];
  pos: Pos;
  /** Whether the rule was written without a body (`p = 1`, `default p = 1`). */
  noBody: boolean;
}

export interface Import {
  path: Term;
  /** path as names: ["data", "lib", "x"] */
  names: string[];
  alias: string | undefined;
  pos: Pos;
}

export interface Module {
  file: string;
  pkg: string[];
  pkgPos: Pos;
  imports: Import[];
  rules: Rule[];
  /** Whether Rego v1 rules apply (regoVersion v1 or `import rego.v1`). */
  v1: boolean;
}
