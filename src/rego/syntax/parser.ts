/**
 * The Rego parser (OPA's `ast.Parser`): modules (package, imports, rules in v0 and v1 syntax) and queries.
 * Keywords `if`, `contains`, `in`, `every` are on in v1 modules (regoVersion v1 or `import rego.v1`) and
 * per `import future.keywords[.kw]` in v0 ones. Errors are `rego_parse_error`s with file:line:col.
 */
import { type Pos, RegoCompileError } from "../errors.js";
import type { Import, Literal, Module, Rule, Term, With } from "./ast.js";
import { scan, type Token } from "./scanner.js";

const KEYWORDS = ["if", "contains", "in", "every"] as const;

class Parser {
  private i = 0;
  kw = new Set<string>();
  v1 = false;
  /** Parsing a `default` rule's value. */
  inDefault = false;
  constructor(
    readonly file: string,
    readonly toks: Token[],
  ) {}

  get tok(): Token {
    return this.toks[this.i] as Token;
  }
  peek(n = 1): Token {
    return this.toks[Math.min(this.i + n, this.toks.length - 1)] as Token;
  }
  next(): Token {
    const t = this.tok;
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  pos(t: Token = this.tok): Pos {
    return { file: this.file, line: t.line, col: t.col };
  }
  err(msg: string, t: Token = this.tok): never {
    throw new RegoCompileError(this.pos(t), msg, "rego_parse_error");
  }
  isP(text: string, t: Token = this.tok): boolean {
    return t.kind === "punct" && t.text === text;
  }
  isKw(word: string, t: Token = this.tok): boolean {
    return t.kind === "ident" && t.text === word && this.kw.has(word);
  }
  isIdent(word: string, t: Token = this.tok): boolean {
    return t.kind === "ident" && t.text === word;
  }
  expectP(text: string): Token {
    if (!this.isP(text)) this.unexpected(`expecting \`${text}\``);
    return this.next();
  }
  unexpected(hint?: string): never {
    const t = this.tok;
    if (t.kind === "eof") this.err(`unexpected eof token${hint ? `: ${hint}` : ""}`);
    const what =
      t.kind === "punct" ? `${t.text} token` : t.kind === "ident" ? `ident token` : `${t.kind} token`;
    this.err(`unexpected ${what}${hint ? `: ${hint}` : ""}`);
  }

  // ---- module ---------------------------------------------------------------------------------

  module(defaultV1: boolean): Module {
    if (defaultV1) this.enableV1();
    if (!this.isIdent("package")) this.err("package expected");
    const pkgTok = this.next();
    const pkgRef = this.ref(false);
    const pkg = this.refNames(pkgRef, "package");
    const imports: Import[] = [];
    let sawRegoV1 = false;
    let sawFuture = false;
    while (this.isIdent("import")) {
      const it = this.next();
      const path = this.ref(false);
      const names = this.refNames(path, "import");
      let alias: string | undefined;
      if (this.isIdent("as")) {
        this.next();
        if (this.tok.kind !== "ident") this.unexpected();
        alias = this.next().text;
      }
      const head = names[0];
      if (head === "rego") {
        if (names.length !== 2 || names[1] !== "v1") this.err(`invalid import \`${names.join(".")}\``, it);
        if (sawRegoV1 || sawFuture) this.err("this import shadows previous import", it);
        sawRegoV1 = true;
        this.enableV1();
        continue;
      }
      if (head === "future") {
        if (names[1] !== "keywords" || names.length > 3)
          this.err(`invalid import, must be \`future.keywords\``, it);
        if (sawRegoV1) this.err("this import shadows previous import", it);
        sawFuture = true;
        const kw = names[2];
        if (kw === undefined) for (const k of KEYWORDS) this.kw.add(k);
        else if ((KEYWORDS as readonly string[]).includes(kw)) this.kw.add(kw);
        else this.err(`unexpected keyword, must be one of [contains every if in]`, it);
        continue;
      }
      if (head !== "data" && head !== "input")
        this.err(`invalid import path: import path must begin with one of: {data, future, input, rego}`, it);
      imports.push({ path, names, alias, pos: this.pos(it) });
    }
    const rules: Rule[] = [];
    while (this.tok.kind !== "eof") rules.push(...this.rule());
    return { file: this.file, pkg, pkgPos: this.pos(pkgTok), imports, rules, v1: this.v1 };
  }

  enableV1(): void {
    this.v1 = true;
    for (const k of KEYWORDS) this.kw.add(k);
  }

  refNames(t: Term, what: string): string[] {
    const out: string[] = [];
    if (t.t === "var") return [t.name];
    if (t.t !== "ref" || t.head.t !== "var") this.err(`invalid ${what} path`);
    out.push(t.head.name);
    for (const p of t.path) {
      if (p.t !== "scalar" || typeof p.v !== "string") this.err(`invalid ${what} path`);
      out.push(p.v);
    }
    return out;
  }

  /** A ref of names and brackets (package paths, imports, rule heads). */
  ref(allowBrackets = true): Term {
    const t = this.tok;
    if (t.kind !== "ident") this.unexpected();
    this.next();
    const head: Term = { t: "var", name: t.text, pos: this.pos(t) };
    const path: Term[] = [];
    for (;;) {
      if (this.isP(".") && !this.tok.nl) {
        this.next();
        const n = this.tok;
        if (n.kind !== "ident") this.unexpected();
        if (n.ws) this.err("invalid whitespace between . and identifier", n);
        this.next();
        path.push({ t: "scalar", v: n.text, pos: this.pos(n) });
      } else if (this.isP("[") && !this.tok.ws) {
        if (!allowBrackets) {
          this.next();
          const s = this.tok;
          if (s.kind !== "string") this.unexpected();
          this.next();
          path.push({ t: "scalar", v: s.text, pos: this.pos(s) });
          this.expectP("]");
          continue;
        }
        this.next();
        path.push(this.term());
        this.expectP("]");
      } else break;
    }
    return path.length === 0 ? head : { t: "ref", head, path, pos: head.pos };
  }

  // ---- rules ----------------------------------------------------------------------------------

  rule(): Rule[] {
    const start = this.tok;
    let isDefault = false;
    if (this.isIdent("default") && this.peek().kind === "ident") {
      isDefault = true;
      this.next();
    }
    if (this.tok.kind !== "ident") this.unexpected();
    const headRef = this.ref(true);
    const ref: Term[] =
      headRef.t === "var"
        ? [{ t: "scalar", v: headRef.name, pos: headRef.pos }]
        : [
            { t: "scalar", v: (headRef as { head: { name: string } }).head.name, pos: headRef.pos },
            ...(headRef as { path: Term[] }).path,
          ];
    const pos = this.pos(start);
    let args: Term[] | undefined;
    if (this.isP("(") && !this.tok.nl) {
      this.next();
      args = [];
      while (!this.isP(")")) {
        args.push(this.term());
        if (this.isP(",")) this.next();
        else if (!this.isP(")")) this.unexpected("expecting `)`");
      }
      this.next();
    }
    let key: Term | undefined;
    let value: Term | undefined;
    let assign = false;
    if (this.isKw("contains") || (this.isIdent("contains") && !this.tok.nl && this.peek().kind !== "punct")) {
      this.next();
      key = this.term();
    } else if (this.isP("=") || this.isP(":=")) {
      assign = this.next().text === ":=";
      this.inDefault = isDefault;
      try {
        value = this.term();
      } finally {
        this.inDefault = false;
      }
    }
    const rule: Rule = {
      kind: "complete",
      isDefault,
      ref,
      args,
      key,
      value: value ?? { t: "scalar", v: true, pos },
      assign,
      body: [],
      elseChain: [],
      pos,
      noBody: true,
    };
    if (isDefault) {
      if (value === undefined) this.err("default rules must have a value assigned", start);
      if (this.isIdent("in")) this.err("unexpected keyword `in`");
      rule.kind = args ? "func" : "complete";
      this.endOfStatement();
      return [rule];
    }
    const bodies: Literal[][] = [];
    const hadIf = this.isKw("if") || (this.isIdent("if") && !this.tok.nl);
    const b = this.ruleBody(true);
    if (b) {
      bodies.push(b);
      rule.noBody = false;
      // v0 allows several bodies: `p { a } { b }` is two rules.
      while (!this.v1 && this.isP("{") && !this.tok.nl) {
        const more = this.ruleBody(true);
        if (more) bodies.push(more);
      }
    }
    while (this.isIdent("else")) {
      const et = this.next();
      let ev: Term = { t: "scalar", v: true, pos: this.pos(et) };
      if (this.isP("=") || this.isP(":=")) {
        this.next();
        ev = this.term();
      }
      const eb = this.ruleBody(false) ?? [];
      rule.elseChain.push({ value: ev, body: eb, pos: this.pos(et) });
    }
    // Classify.
    const last = ref[ref.length - 1] as Term;
    const lastGround = last.t === "scalar";
    if (args) rule.kind = "func";
    else if (key) rule.kind = "set";
    else if (value === undefined && !hadIf && this.v1 && rule.noBody) {
      if (ref.length === 2 && lastGround)
        this.err("`contains` keyword is required for partial set rules", start);
      this.err("rule must have a body or assignment", start);
    } else if (value === undefined && !hadIf && this.v1 && ref.length > 1 && !lastGround) {
      this.err("`contains` keyword is required for partial set rules", start);
    } else if (value === undefined && !this.v1 && !hadIf && ref.length === 2) {
      // v0: `p[x] { ... }`, `p.a { ... }` and `p["a"]` are partial set rules.
      rule.kind = "set";
      rule.key = last;
      rule.ref = ref.slice(0, -1);
    } else if (!ref.every((r) => r.t === "scalar")) {
      rule.kind = "object";
    } else rule.kind = "complete";
    if (rule.noBody && value === undefined && rule.kind !== "set" && rule.kind !== "func" && !hadIf) {
      this.err("rule must have a body or assignment", start);
    }
    this.endOfStatement();
    if (bodies.length <= 1) {
      rule.body = bodies[0] ?? [];
      return [rule];
    }
    return bodies.map((body, n) => ({ ...rule, body, elseChain: n === 0 ? rule.elseChain : [] }));
  }

  endOfStatement(): void {
    if (this.tok.kind !== "eof" && !this.tok.nl && !this.isP(";")) this.unexpected();
    if (this.isP(";")) this.next();
  }

  /** `if { ... }`, `if literal`, `{ ... }` (v0), or nothing. */
  ruleBody(_first: boolean): Literal[] | undefined {
    if (this.isKw("if") || (this.isIdent("if") && !this.tok.nl)) {
      this.next();
      if (this.isP("{")) {
        const save = this.i;
        try {
          return this.braceBody();
        } catch (e) {
          // `if {"a": 1}[x]`-like literals: retry as one literal.
          this.i = save;
          try {
            return [this.literal()];
          } catch {
            throw e;
          }
        }
      }
      return [this.literal()];
    }
    if (this.isP("{")) {
      if (this.v1) this.err("`if` keyword is required before rule body");
      return this.braceBody();
    }
    return undefined;
  }

  braceBody(): Literal[] {
    this.expectP("{");
    const body = this.literals("}");
    this.expectP("}");
    return body;
  }

  /** Literals separated by `;` or newlines, up to `end` (not consumed). */
  literals(end: string): Literal[] {
    const out: Literal[] = [];
    const atEnd = () => (end === "" ? this.tok.kind === "eof" : this.isP(end));
    while (!atEnd()) {
      if (this.tok.kind === "eof") this.unexpected();
      out.push(this.literal());
      if (this.isP(";")) {
        this.next();
        continue;
      }
      if (atEnd()) break;
      if (!this.tok.nl) this.unexpected(end === "" ? "expecting EOF" : undefined);
    }
    return out;
  }

  // ---- literals -------------------------------------------------------------------------------

  literal(): Literal {
    const start = this.tok;
    const pos = this.pos(start);
    if (
      (this.isIdent("some") && this.peek().kind !== "punct") ||
      (this.isIdent("some") && this.isP("[", this.peek()))
    ) {
      return this.someLiteral(pos);
    }
    if (this.isKw("every")) {
      this.next();
      let value = this.relation(true);
      let key: Term | undefined;
      if (this.isP(",")) {
        this.next();
        key = value;
        value = this.relation(true);
      }
      if (!this.isKw("in")) this.unexpected("expected `in`");
      this.next();
      const coll = this.relation(true);
      const body = this.braceBody();
      return { expr: { k: "every", key, value, coll, body }, negated: false, with: [], pos };
    }
    let negated = false;
    if (
      this.isIdent("not") &&
      !(
        this.peek().kind === "punct" &&
        ([".", "=", ":="].includes(this.peek().text) || (this.peek().text === "[" && !this.peek().ws))
      )
    ) {
      this.next();
      negated = true;
    }
    const l = this.exprTerm(true);
    let lit: Literal;
    if (this.isP(":=") || this.isP("=")) {
      const op = this.next().text;
      const r = this.exprTerm(false);
      lit = { expr: op === ":=" ? { k: "assign", l, r } : { k: "unify", l, r }, negated, with: [], pos };
    } else lit = { expr: { k: "term", term: l }, negated, with: [], pos };
    while (this.isIdent("with")) {
      const wt = this.next();
      const target = this.term();
      if (!this.isIdent("as")) this.unexpected("expected `as`");
      this.next();
      const value = this.term();
      lit.with.push({ target, value, pos: this.pos(wt) } as With);
    }
    return lit;
  }

  someLiteral(pos: Pos): Literal {
    this.next();
    const first = this.relation(true);
    if (this.isKw("in")) {
      this.next();
      const coll = this.relation(true);
      return { expr: { k: "somein", key: undefined, value: first, coll }, negated: false, with: [], pos };
    }
    const vars: Term[] = [first];
    while (this.isP(",")) {
      this.next();
      vars.push(this.relation(true));
      if (this.isKw("in")) {
        if (vars.length !== 2) this.unexpected();
        this.next();
        const coll = this.relation(true);
        return {
          expr: { k: "somein", key: vars[0], value: vars[1] as Term, coll },
          negated: false,
          with: [],
          pos,
        };
      }
    }
    for (const v of vars) if (v.t !== "var") this.err("expected var", this.tok);
    return { expr: { k: "some", vars }, negated: false, with: [], pos };
  }

  // ---- terms ----------------------------------------------------------------------------------

  /** A term with operators, `in` membership (and `k, v in xs` when `keyVal`). */
  exprTerm(keyVal: boolean): Term {
    let lhs = this.relation(true);
    if (keyVal && this.isP(",") && this.kw.has("in")) {
      const save = this.i;
      this.next();
      const mhs = this.relation(true);
      if (this.isKw("in")) {
        this.next();
        const coll = this.relation(true);
        lhs = { t: "member", key: lhs, value: mhs, coll, pos: lhs.pos };
      } else this.i = save;
    }
    while (this.isKw("in")) {
      this.next();
      const coll = this.relation(true);
      lhs = { t: "member", key: undefined, value: lhs, coll, pos: lhs.pos };
    }
    return lhs;
  }

  /** A term (no `in` at the top level, no `k, v`): used inside collections and as rule values. */
  term(allowOr = true): Term {
    let lhs = this.relation(allowOr);
    while (this.isKw("in")) {
      this.next();
      const coll = this.relation(allowOr);
      lhs = { t: "member", key: undefined, value: lhs, coll, pos: lhs.pos };
    }
    return lhs;
  }

  relation(allowOr: boolean): Term {
    let l = this.or(allowOr);
    while (this.tok.kind === "punct" && ["==", "!=", "<", ">", "<=", ">="].includes(this.tok.text)) {
      const op = this.next().text;
      const r = this.or(allowOr);
      l = { t: "binop", op, l, r, pos: l.pos };
    }
    return l;
  }
  or(allowOr: boolean): Term {
    let l = this.and();
    while (allowOr && this.isP("|")) {
      this.next();
      const r = this.and();
      l = { t: "binop", op: "|", l, r, pos: l.pos };
    }
    return l;
  }
  and(): Term {
    let l = this.arith();
    while (this.isP("&")) {
      this.next();
      const r = this.arith();
      l = { t: "binop", op: "&", l, r, pos: l.pos };
    }
    return l;
  }
  arith(): Term {
    let l = this.factor();
    while ((this.isP("+") || this.isP("-")) && !this.tok.nl) {
      const op = this.next().text;
      const r = this.factor();
      l = { t: "binop", op, l, r, pos: l.pos };
    }
    return l;
  }
  factor(): Term {
    let l = this.unary();
    while (this.isP("*") || this.isP("/") || this.isP("%")) {
      const op = this.next().text;
      const r = this.unary();
      l = { t: "binop", op, l, r, pos: l.pos };
    }
    return l;
  }
  unary(): Term {
    if (this.isP("-")) {
      const m = this.next();
      const n = this.tok;
      if (n.kind !== "number")
        this.err(
          this.inDefault
            ? "invalid `unaryexpr` in default value"
            : "unary - can only be used with numeric literals",
          m,
        );
      this.next();
      return this.suffixes({ t: "scalar", v: -Number(n.text), pos: this.pos(m) });
    }
    return this.primary();
  }

  primary(): Term {
    const t = this.tok;
    const pos = this.pos(t);
    switch (t.kind) {
      case "number": {
        this.next();
        const v = Number(t.text);
        if (!Number.isFinite(v)) this.err("number too big", t);
        return this.suffixes({ t: "scalar", v, pos });
      }
      case "string":
        this.next();
        return this.suffixes({ t: "scalar", v: t.text, pos });
      case "ident": {
        this.next();
        if (t.text === "true" || t.text === "false")
          return this.suffixes({ t: "scalar", v: t.text === "true", pos });
        if (t.text === "null") return this.suffixes({ t: "scalar", v: null, pos });
        if (t.text === "set" && this.isP("(") && this.isP(")", this.peek())) {
          this.next();
          this.next();
          return { t: "set", items: [], pos };
        }
        if (this.kw.has(t.text) && !(t.text === "in" && false)) {
          this.err(`unexpected keyword \`${t.text}\``, t);
        }
        return this.suffixes({ t: "var", name: t.text, pos });
      }
      case "punct":
        break;
      default:
        this.unexpected();
    }
    if (this.isP("(")) {
      this.next();
      const inner = this.exprTerm(false);
      this.expectP(")");
      return this.suffixes(inner);
    }
    if (this.isP("[")) {
      this.next();
      if (this.isP("]")) {
        this.next();
        return this.suffixes({ t: "array", items: [], pos });
      }
      let first = this.term(false);
      if (this.isP("|")) {
        const u = this.unionInCollection(first, "]");
        if (u === undefined) {
          this.next();
          const body = this.literals("]");
          this.expectP("]");
          return this.suffixes({ t: "arraycompr", term: first, body, pos });
        }
        first = u;
      }
      const items = [this.continueOr(first)];
      while (this.isP(",")) {
        this.next();
        if (this.isP("]")) break;
        items.push(this.term());
      }
      this.expectP("]");
      return this.suffixes({ t: "array", items, pos });
    }
    if (this.isP("{")) {
      this.next();
      if (this.isP("}")) {
        this.next();
        return this.suffixes({ t: "object", items: [], pos });
      }
      const first = this.term(false);
      if (this.isP(":")) {
        this.next();
        const v = this.term(false);
        if (this.isP("|")) {
          this.next();
          const body = this.literals("}");
          this.expectP("}");
          return this.suffixes({ t: "objcompr", key: first, value: v, body, pos });
        }
        const items: [Term, Term][] = [[first, this.continueOr(v)]];
        while (this.isP(",")) {
          this.next();
          if (this.isP("}")) break;
          const k = this.term();
          this.expectP(":");
          items.push([k, this.term()]);
        }
        this.expectP("}");
        return this.suffixes({ t: "object", items, pos });
      }
      if (this.isP("|")) {
        const u = this.unionInCollection(first, "}");
        if (u === undefined) {
          this.next();
          const body = this.literals("}");
          this.expectP("}");
          return this.suffixes({ t: "setcompr", term: first, body, pos });
        }
        return this.collectionRest(u, pos);
      }
      return this.collectionRest(first, pos);
    }
    this.unexpected();
  }

  /** `[x | y, ...]`: a `|` followed by a term and a comma is a union inside a collection, not a comprehension. */
  unionInCollection(first: Term, _end: string): Term | undefined {
    const save = this.i;
    try {
      this.next();
      const r = this.term(false);
      if (this.isP(",")) return { t: "binop", op: "|", l: first, r, pos: first.pos };
    } catch {
      // not a term: a comprehension body
    }
    this.i = save;
    return undefined;
  }

  collectionRest(first: Term, pos: Pos): Term {
    {
      const items = [this.continueOr(first)];
      while (this.isP(",")) {
        this.next();
        if (this.isP("}")) break;
        items.push(this.term());
      }
      this.expectP("}");
      return this.suffixes({ t: "set", items, pos });
    }
  }

  /** After a collection's first element parsed without `|`, a `|` that is not a comprehension can't occur. */
  continueOr(t: Term): Term {
    return t;
  }

  /** `.name`, `[term]` and call suffixes. */
  suffixes(head: Term): Term {
    let cur = head;
    for (;;) {
      if (this.isP(".") && !this.tok.nl) {
        const dot = this.tok;
        const n = this.peek();
        if (n.kind !== "ident") break;
        this.next();
        if (n.ws) this.err("invalid whitespace between . and identifier", n);
        void dot;
        this.next();
        cur = this.appendPath(cur, { t: "scalar", v: n.text, pos: this.pos(n) });
      } else if (this.isP("[") && !this.tok.ws) {
        this.next();
        const idx = this.exprTerm(false);
        this.expectP("]");
        cur = this.appendPath(cur, idx);
      } else if (
        this.isP("(") &&
        !this.tok.ws &&
        (cur.t === "var" || (cur.t === "ref" && this.isNameRef(cur)))
      ) {
        const fn = cur.t === "var" ? [cur.name] : this.nameRef(cur);
        this.next();
        const args: Term[] = [];
        while (!this.isP(")")) {
          args.push(this.exprTerm(false));
          if (this.isP(",")) this.next();
          else if (!this.isP(")")) this.unexpected("expecting `)`");
        }
        this.next();
        cur = { t: "call", fn, args, pos: cur.pos };
      } else break;
    }
    return cur;
  }

  isNameRef(t: Term): boolean {
    return (
      t.t === "ref" && t.head.t === "var" && t.path.every((p) => p.t === "scalar" && typeof p.v === "string")
    );
  }
  nameRef(t: Term): string[] {
    const r = t as Extract<Term, { t: "ref" }>;
    return [(r.head as { name: string }).name, ...r.path.map((p) => (p as { v: string }).v)];
  }
  appendPath(cur: Term, seg: Term): Term {
    if (cur.t === "ref") return { ...cur, path: [...cur.path, seg] };
    return { t: "ref", head: cur, path: [seg], pos: cur.pos };
  }
}

/** Parses a module. `v1` selects Rego v1 for it (else v0, upgraded by `import rego.v1`). */
export function parseModule(file: string, source: string, v1: boolean): Module {
  const p = new Parser(file, scan(file, source));
  try {
    return p.module(v1);
  } catch (e) {
    if (e instanceof RangeError)
      throw new RegoCompileError(
        { file, line: 1, col: 1 },
        "module is too deeply nested",
        "rego_parse_error",
      );
    throw e;
  }
}

/** Parses a query (literals separated by `;` or newlines); keywords per `v1` (all on) or v0 (future.keywords on). */
export function parseQuery(source: string, v1: boolean): Literal[] {
  const p = new Parser("query", scan("query", source));
  for (const k of KEYWORDS) p.kw.add(k);
  if (v1) p.v1 = true;
  const lits = p.literals("");
  if (p.tok.kind !== "eof") p.unexpected();
  if (lits.length === 0) p.err("empty query");
  return lits;
}
