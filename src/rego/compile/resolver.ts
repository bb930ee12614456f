/**
 * Name resolution (OPA's compiler stages `rewriteLocalVars`, `resolveRefs`, `rewriteWithModifiers`): every var
 * to a local (renamed where `every` shadows), a package rule, an import or `input`/`data`; calls to rules or
 * builtins; `with` targets. Compile errors through the host (the compiler).
 */
import { BUILTINS } from "../builtins/index.js";
import type { Pos } from "../errors.js";
import type { Expr, Literal, Module, Term } from "../syntax/ast.js";
import type { CallTarget, RuleNode, WithTarget } from "./rule-tree.js";
import { termNames, walkTerm } from "./walk.js";

export const KNOWN_ROOTS = new Set(["data", "input"]);

/** What the resolver asks of the compiler: errors, fresh wildcard names, rule-tree lookups. */
export interface ResolveHost {
  fail(pos: Pos, msg: string, kind?: string): never;
  nextWild(): string;
  node(path: string[], create?: boolean): RuleNode | undefined;
}

export /** Scope for resolution: declared locals, innermost last. */
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

export /** Resolves names in rule bodies and queries. */
class Resolver {
  constructor(
    readonly c: ResolveHost,
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
      case "assign":
        expr = this.assign(e, scope, assigned);
        break;
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
      case "every":
        expr = this.every(e, scope);
        break;
    }
    return { ...l, expr, with: w };
  }

  /** `x := v`: declares the pattern's vars; shadowing `input`/`data` (v1) or reassigning a local fails. */
  assign(e: Extract<Expr, { k: "assign" }>, scope: Scope, assigned: Set<string>): Expr {
    const r = this.term(e.r, scope);
    walkTerm(e.l, (x) => {
      if (x.t === "var") {
        if (this.m.v1 && (x.name === "input" || x.name === "data"))
          this.c.fail(x.pos, `${x.name} cannot be shadowed`);
        if (x.name !== "_" && (assigned.has(x.name) || (scope.has(x.name) && scope.declared.has(x.name)))) {
          this.c.fail(x.pos, `var \`${x.name}\` used before definition below (var ${x.name} assigned above)`);
        }
      }
    });
    this.declarePattern(e.l, scope);
    walkTerm(e.l, (x) => {
      if (x.t === "var") assigned.add(x.name);
    });
    return { k: "assign", l: this.term(e.l, scope), r };
  }

  /** `every k, v in xs { ... }`: its vars live in an inner scope, renamed apart from outer ones. */
  every(e: Extract<Expr, { k: "every" }>, scope: Scope): Expr {
    const coll = this.term(e.coll, scope);
    const inner = new Scope(scope);
    if (e.key) this.declarePattern(e.key, inner);
    this.declarePattern(e.value, inner);
    for (const n of inner.declared) inner.renames.set(n, `${n}$${this.c.nextWild()}`);
    return {
      k: "every",
      key: e.key ? this.term(e.key, inner) : undefined,
      value: this.term(e.value, inner),
      coll,
      body: this.body(e.body, inner),
    };
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
