/**
 * The Rego compiler (OPA's `ast.Compiler`, the parts evaluation needs): parses modules, builds the rule tree
 * under `data`, resolves every variable to a local or to a `data`/`input` reference (package rules and
 * imports), resolves calls to rules or builtins, and checks what OPA checks at compile time (conflicting rule
 * kinds, invalid default values, shadowed `input`/`data`, reassigned locals).
 */

import { type Pos, RegoCompileError } from "../errors.js";
import type { Literal, Module, Rule, Term } from "../syntax/ast.js";
import { parseModule, parseQuery } from "../syntax/parser.js";
import type { CompileOptions, RegoModule } from "../types.js";
import { KNOWN_ROOTS, Resolver, Scope } from "./resolver.js";
import { type CRule, RuleNode } from "./rule-tree.js";
import { exprTerms, walkTerm } from "./walk.js";

let nodeIds = 0;

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
