/**
 * The Rego compiler (OPA's `ast.Compiler`, the parts evaluation needs): parses modules, builds the rule tree
 * under `data`, resolves every variable to a local or to a `data`/`input` reference (package rules and
 * imports), resolves calls to rules or builtins, and checks what OPA checks at compile time (conflicting rule
 * kinds, invalid default values, shadowed `input`/`data`, reassigned locals).
 */

import { BUILTINS } from "../builtins/index.js";
import { type Pos, RegoCompileError } from "../errors.js";
import { Evaluator } from "../eval/evaluator.js";
import type { Expr, Literal, Module, Rule, Term } from "../syntax/ast.js";
import { parseModule, parseQuery } from "../syntax/parser.js";
import type {
  CompiledPolicy,
  CompileOptions,
  EvaluateOptions,
  EvaluateResult,
  QueryResult,
  RegoModule,
} from "../types.js";
import { fromJS, toJS } from "../values.js";
import { type CallTarget, type CRule, RuleNode, type WithTarget } from "./rule-tree.js";

let nodeIds = 0;

/** Compiles modules into a policy (see {@link CompiledPolicy}). */
export function compileToPolicy(modules: readonly RegoModule[], options: CompileOptions): CompiledPolicy {
  const c = new Compiler(options);
  for (const m of modules) c.add(m);
  c.finish();
  return new Policy(c);
}

class Policy implements CompiledPolicy {
  readonly packages: readonly string[];
  constructor(readonly c: Compiler) {
    this.packages = [...new Set(c.modules.map((m) => m.pkg.join(".")))];
  }
  query(opts: EvaluateOptions): QueryResult[] {
    const lits = this.c.compileQuery(opts.query);
    const ev = new Evaluator(this.c.root, {
      input: opts.input === undefined ? undefined : fromJS(opts.input),
      data: fromJS(opts.data ?? {}),
      budget: opts.budget,
      strict: opts.strictBuiltinErrors ?? false,
      print: opts.print,
      clock: opts.clock,
    });
    return ev.runQuery(lits.lits, lits.names);
  }
  evaluate(opts: EvaluateOptions): EvaluateResult {
    const rs = this.query(opts);
    const first = rs[0];
    const raw = first?.expressions[0];
    if (raw === undefined) return { value: undefined, defined: false, raw: undefined };
    return { value: toJS(raw), defined: true, raw };
  }
}

const KNOWN_ROOTS = new Set(["data", "input"]);

/** Scope for resolution: declared locals, innermost last. */
class Scope {
  readonly declared = new Set<string>();
  /** Declared names renamed in this scope (`every` variables shadowing outer ones). */
  readonly renames = new Map<string, string>();
  constructor(readonly parent: Scope | undefined) {}
  has(n: string): boolean {
    return this.declared.has(n) || (this.parent?.has(n) ?? false);
  }
  /** The name a declared local is evaluated under. */
  rename(n: string): string {
    if (this.declared.has(n)) return this.renames.get(n) ?? n;
    return this.parent ? this.parent.rename(n) : n;
  }
}

export class Compiler {
  readonly modules: Module[] = [];
  readonly root = new RuleNode([], nodeIds++);
  private wild = 0;
  readonly v1Default: boolean;
  constructor(readonly options: CompileOptions) {
    this.v1Default = options.regoVersion === "v1";
  }

  add(m: RegoModule): void {
    this.modules.push(parseModule(m.path, m.source, this.v1Default));
  }

  node(path: string[], create = true): RuleNode | undefined {
    let n = this.root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i] as string;
      let c = n.children.get(seg);
      if (c === undefined) {
        if (!create) return undefined;
        c = new RuleNode(path.slice(0, i + 1), nodeIds++);
        n.children.set(seg, c);
      }
      n = c;
    }
    return n;
  }

  finish(): void {
    let id = 0;
    // Place rules.
    for (const m of this.modules) {
      for (const r of m.rules) {
        const name = (r.ref[0] as { v: string }).v;
        if (m.v1 && (name === "input" || name === "data")) this.fail(r.pos, `${name} cannot be shadowed`);
        let g = 0;
        while (
          g < r.ref.length &&
          (r.ref[g] as Term).t === "scalar" &&
          typeof (r.ref[g] as { v: unknown }).v === "string"
        )
          g++;
        if (r.kind === "complete" && g < r.ref.length) {
          // `p[1] = x`: a non-string ground key — treat as object rule.
          r.kind = "object";
        }
        const ground = r.ref.slice(0, g).map((t) => (t as { v: string }).v);
        const node = this.node([...m.pkg, ...ground]) as RuleNode;
        const cr: CRule = { rule: r, module: m, suffix: r.ref.slice(g), id: id++ };
        if (r.isDefault) {
          this.checkDefault(r);
          node.defaults.push(cr);
          this.setKind(node, r.kind === "func" ? "func" : "complete", r.pos);
          continue;
        }
        if (r.kind === "func") node.funcs.push(cr);
        else node.rules.push(cr);
        this.setKind(node, r.kind, r.pos);
      }
    }
    // Resolve bodies.
    for (const m of this.modules) {
      const globals = this.globalsOf(m);
      for (const r of m.rules) this.resolveRule(r, m, globals);
    }
    this.checkConflicts(this.root);
  }

  setKind(node: RuleNode, kind: CRule["rule"]["kind"], pos: Pos): void {
    if (node.kind !== undefined && node.kind !== kind) {
      const both = new Set([node.kind, kind]);
      if (!(both.has("object") && both.has("complete")))
        this.fail(pos, `rule conflicts with the following rule`);
    }
    node.kind = node.kind === "object" ? "object" : kind;
  }

  checkConflicts(n: RuleNode): void {
    if (
      (n.kind === "complete" || n.kind === "set" || n.kind === "func") &&
      [...n.children.values()].some((c) => c.hasRules || c.children.size > 0)
    ) {
      const r = (n.rules[0] ?? n.funcs[0] ?? n.defaults[0]) as CRule;
      if (r && n.kind !== "complete") this.fail(r.rule.pos, `rule conflicts with the following rule`);
    }
    for (const c of n.children.values()) this.checkConflicts(c);
  }

  checkDefault(r: Rule): void {
    const bad = (t: Term): string | undefined => {
      switch (t.t) {
        case "scalar":
          return undefined;
        case "var":
          return "var";
        case "ref":
          return "ref";
        case "call":
          return "call";
        case "binop":
          return ["==", "!=", "<", ">", "<=", ">="].includes(t.op)
            ? "boolexpr"
            : ["|", "&"].includes(t.op)
              ? "binexpr"
              : "arithexpr";
        case "member":
          return "membership";
        case "array":
        case "set":
          for (const i of t.items) {
            const b = bad(i);
            if (b) return b;
          }
          return undefined;
        case "object":
          for (const [k, v] of t.items) {
            const b = bad(k) ?? bad(v);
            if (b) return b;
          }
          return undefined;
        default:
          return undefined;
      }
    };
    const b = bad(r.value);
    if (b && !(b === "var" && r.args)) {
      this.fail(
        r.value.pos,
        `invalid \`${b}\` in default value${b === "membership" ? ": unexpected keyword `in`" : ""}`,
      );
    }
  }

  fail(pos: Pos, msg: string, kind = "rego_compile_error"): never {
    throw new RegoCompileError(pos, msg, kind);
  }

  /** Names visible as globals in a module: its package's rules, imports, data and input. */
  globalsOf(m: Module): Map<string, Term> {
    const g = new Map<string, Term>();
    const pos = m.pkgPos;
    const dataRef = (path: string[]): Term => ({
      t: "ref",
      head: { t: "var", name: "data", pos },
      path: path.map((p) => ({ t: "scalar", v: p, pos })),
      pos,
    });
    for (const imp of m.imports) {
      const alias = imp.alias ?? (imp.names[imp.names.length - 1] as string);
      const [root, ...rest] = imp.names;
      const t: Term =
        rest.length === 0
          ? { t: "var", name: root as string, pos }
          : {
              t: "ref",
              head: { t: "var", name: root as string, pos },
              path: rest.map((p) => ({ t: "scalar", v: p, pos })),
              pos,
            };
      g.set(alias, t);
    }
    const pkgNode = this.node(m.pkg) as RuleNode;
    for (const name of pkgNode.children.keys())
      if (!KNOWN_ROOTS.has(name)) g.set(name, dataRef([...m.pkg, name]));
    return g;
  }

  resolveRule(r: Rule, m: Module, globals: Map<string, Term>): void {
    const scope = new Scope(undefined);
    const res = new Resolver(this, m, globals);
    if (r.args) {
      for (const a of r.args) res.declarePattern(a, scope);
      r.args = r.args.map((a) => res.term(a, scope));
    }
    r.body = res.body(r.body, scope);
    r.ref = r.ref.map((t, i) => (i === 0 ? t : res.term(t, scope)));
    if (r.key) r.key = res.term(r.key, scope);
    r.value = r.isDefault ? res.term(r.value, scope) : res.term(r.value, scope);
    for (const e of r.elseChain) {
      const s2 = new Scope(undefined);
      if (r.args) for (const a of r.args) res.declarePattern(a, s2);
      e.body = res.body(e.body, s2);
      e.value = res.term(e.value, s2);
    }
  }

  compileQuery(q: string): { lits: Literal[]; names: string[] } {
    const lits = parseQuery(q, true);
    const m: Module = {
      file: "query",
      pkg: [],
      pkgPos: { file: "query", line: 1, col: 1 },
      imports: [],
      rules: [],
      v1: true,
    };
    const res = new Resolver(this, m, new Map());
    const scope = new Scope(undefined);
    const out = res.body(lits, scope);
    const names = new Set<string>();
    const visit = (t: Term) => {
      walkTerm(t, (x) => {
        if (x.t === "var" && !x.name.startsWith("_") && !KNOWN_ROOTS.has(x.name)) names.add(x.name);
      });
    };
    for (const l of out) for (const t of exprTerms(l.expr)) visit(t);
    return { lits: out, names: [...names] };
  }

  nextWild(): string {
    return `_$${this.wild++}`;
  }
}

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
function termNames(t: Term): string[] | undefined {
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

/** Resolves names in rule bodies and queries. */
class Resolver {
  constructor(
    readonly c: Compiler,
    readonly m: Module,
    readonly globals: Map<string, Term>,
  ) {}

  /** Declares the vars of an assignment/`some` pattern in `scope`. */
  declarePattern(t: Term, scope: Scope): void {
    walkTerm(t, (x) => {
      if (x.t === "var" && x.name !== "_") {
        scope.declared.add(x.name);
      }
    });
  }

  body(lits: Literal[], scope: Scope): Literal[] {
    const out: Literal[] = [];
    const assigned = new Set<string>();
    for (const l of lits) out.push(this.literal(l, scope, assigned));
    return out;
  }

  literal(l: Literal, scope: Scope, assigned: Set<string>): Literal {
    const e = l.expr;
    const w = l.with.map((x) => {
      const res = this.withTarget(x.target, x.value);
      return { ...x, value: res.kind === "fn" && res.replacement ? x.value : this.term(x.value, scope), res };
    });
    let expr: Expr;
    switch (e.k) {
      case "term":
        expr = { k: "term", term: this.term(e.term, scope) };
        break;
      case "unify":
        expr = { k: "unify", l: this.term(e.l, scope), r: this.term(e.r, scope) };
        break;
      case "assign": {
        const r = this.term(e.r, scope);
        walkTerm(e.l, (x) => {
          if (x.t === "var") {
            if (this.m.v1 && (x.name === "input" || x.name === "data"))
              this.c.fail(x.pos, `${x.name} cannot be shadowed`);
            if (
              x.name !== "_" &&
              (assigned.has(x.name) || (scope.has(x.name) && scope.declared.has(x.name)))
            ) {
              this.c.fail(
                x.pos,
                `var \`${x.name}\` used before definition below (var ${x.name} assigned above)`,
              );
            }
          }
        });
        this.declarePattern(e.l, scope);
        walkTerm(e.l, (x) => {
          if (x.t === "var") assigned.add(x.name);
        });
        expr = { k: "assign", l: this.term(e.l, scope), r };
        break;
      }
      case "some":
        for (const v of e.vars) this.declarePattern(v, scope);
        expr = { k: "some", vars: e.vars.map((v) => this.term(v, scope)) };
        break;
      case "somein": {
        const coll = this.term(e.coll, scope);
        if (e.key) this.declarePattern(e.key, scope);
        this.declarePattern(e.value, scope);
        expr = {
          k: "somein",
          key: e.key ? this.term(e.key, scope) : undefined,
          value: this.term(e.value, scope),
          coll,
        };
        break;
      }
      case "every": {
        const coll = this.term(e.coll, scope);
        const inner = new Scope(scope);
        if (e.key) this.declarePattern(e.key, inner);
        this.declarePattern(e.value, inner);
        for (const n of inner.declared) inner.renames.set(n, `${n}$${this.c.nextWild()}`);
        expr = {
          k: "every",
          key: e.key ? this.term(e.key, inner) : undefined,
          value: this.term(e.value, inner),
          coll,
          body: this.body(e.body, inner),
        };
        break;
      }
    }
    return { ...l, expr, with: w };
  }

  term(t: Term, scope: Scope): Term {
    switch (t.t) {
      case "scalar":
        return t;
      case "var": {
        if (t.name === "_") return { t: "var", name: this.c.nextWild(), pos: t.pos };
        if (scope.has(t.name)) {
          if (KNOWN_ROOTS.has(t.name)) return { t: "var", name: `${t.name}$local`, pos: t.pos };
          const n = scope.rename(t.name);
          return n === t.name ? t : { t: "var", name: n, pos: t.pos };
        }
        const g = this.globals.get(t.name);
        if (g !== undefined) return g;
        return t;
      }
      case "ref": {
        const head = this.term(t.head, scope);
        const path = t.path.map((p) => this.term(p, scope));
        if (head.t === "ref") return { t: "ref", head: head.head, path: [...head.path, ...path], pos: t.pos };
        return { t: "ref", head, path, pos: t.pos };
      }
      case "array":
        return { ...t, items: t.items.map((i) => this.term(i, scope)) };
      case "set":
        return { ...t, items: t.items.map((i) => this.term(i, scope)) };
      case "object":
        return {
          ...t,
          items: t.items.map(([k, v]) => [this.term(k, scope), this.term(v, scope)] as [Term, Term]),
        };
      case "arraycompr":
      case "setcompr": {
        const inner = new Scope(scope);
        const body = this.body(t.body, inner);
        return { ...t, term: this.term(t.term, inner), body };
      }
      case "objcompr": {
        const inner = new Scope(scope);
        const body = this.body(t.body, inner);
        return { ...t, key: this.term(t.key, inner), value: this.term(t.value, inner), body };
      }
      case "binop":
        return { ...t, l: this.term(t.l, scope), r: this.term(t.r, scope) };
      case "member":
        return {
          ...t,
          key: t.key ? this.term(t.key, scope) : undefined,
          value: this.term(t.value, scope),
          coll: this.term(t.coll, scope),
        };
      case "call": {
        const args = t.args.map((a) => this.term(a, scope));
        const target = this.resolveCall(t.fn, scope, t.pos);
        const out = { ...t, args } as Term & { target?: CallTarget };
        out.target = target;
        return out;
      }
    }
  }

  /** What a `with` target names: input, a data path, or a function to mock. */
  withTarget(t: Term, value: Term): WithTarget {
    const names = termNames(t);
    if (!names) this.c.fail(t.pos, "with keyword target must reference existing input, data, or a function");
    if (names[0] === "input") return { kind: "input", path: names.slice(1) };
    const fnKey = (target: CallTarget): string | undefined =>
      target.kind === "rule" && target.node.funcs.length > 0
        ? `rule:${target.node.id}`
        : target.kind === "builtin"
          ? `builtin:${target.name}`
          : undefined;
    const replacement = (): CallTarget | undefined => {
      const vn = termNames(value);
      if (!vn) return undefined;
      const r = this.resolveCall(vn, new Scope(undefined), value.pos);
      return fnKey(r) !== undefined ? r : undefined;
    };
    let dataPath: string[] | undefined;
    if (names[0] === "data") dataPath = names.slice(1);
    else {
      const g = this.globals.get(names[0] as string);
      if (g && g.t === "ref" && g.head.t === "var" && g.head.name === "data")
        dataPath = [...g.path.map((p) => (p as { v: string }).v), ...names.slice(1)];
      else if (g && g.t === "ref" && g.head.t === "var" && g.head.name === "input")
        return { kind: "input", path: [...g.path.map((p) => (p as { v: string }).v), ...names.slice(1)] };
    }
    if (dataPath) {
      const node = this.c.node(dataPath, false);
      if (node && node.funcs.length > 0)
        return { kind: "fn", key: `rule:${node.id}`, replacement: replacement() };
      return { kind: "data", path: dataPath };
    }
    const target = this.resolveCall(names, new Scope(undefined), t.pos);
    const key = fnKey(target);
    if (key === undefined)
      this.c.fail(t.pos, "with keyword target must reference existing input, data, or a function");
    return { kind: "fn", key, replacement: replacement() };
  }

  private aliases: Map<string, Term> | undefined;
  /** Import aliases: for calls they win over the module's own rules of the same name (as regorus resolves). */
  importAliases(): Map<string, Term> {
    if (this.aliases) return this.aliases;
    const pos = this.m.pkgPos;
    this.aliases = new Map();
    for (const imp of this.m.imports) {
      const alias = imp.alias ?? (imp.names[imp.names.length - 1] as string);
      const [root, ...rest] = imp.names;
      if (root !== "data" || rest.length === 0) continue;
      this.aliases.set(alias, {
        t: "ref",
        head: { t: "var", name: "data", pos },
        path: rest.map((p) => ({ t: "scalar", v: p, pos })),
        pos,
      });
    }
    return this.aliases;
  }

  resolveCall(fn: string[], _scope: Scope, _pos: Pos): CallTarget {
    const name = fn.join(".");
    let path: string[] | undefined;
    const head = fn[0] as string;
    if (head === "data") path = fn.slice(1);
    else {
      const g = this.importAliases().get(head) ?? this.globals.get(head);
      if (g !== undefined && g.t === "ref" && g.head.t === "var" && g.head.name === "data") {
        path = [...g.path.map((p) => (p as { v: string }).v), ...fn.slice(1)];
      } else if (g === undefined && fn.length === 1) {
        path = undefined;
      }
    }
    if (path !== undefined) {
      const node = this.c.node(path, false);
      if (node && (node.funcs.length > 0 || node.defaults.some((d) => d.rule.kind === "func")))
        return { kind: "rule", node, name };
      if (node) return { kind: "rule", node, name };
    }
    if (BUILTINS.has(name)) return { kind: "builtin", name };
    return { kind: "unknown", name };
  }
}
