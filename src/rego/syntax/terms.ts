/**
 * Terms (OPA's `ast.Parser.parseTerm` and its precedence levels): membership, relations, `|`, `&`, arithmetic,
 * unary minus, scalars, vars, refs, calls, arrays, objects, sets and comprehensions.
 */
import type { Pos } from "../errors.js";
import type { Term } from "./ast.js";
import { TokenReader } from "./reader.js";
import type { Token } from "./scanner.js";

export abstract class TermParser extends TokenReader {
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
      case "ident":
        this.next();
        return this.identTerm(t, pos);
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
    if (this.isP("[")) return this.arrayTerm(pos);
    if (this.isP("{")) return this.braceTerm(pos);
    this.unexpected();
  }

  /** `true`, `false`, `null`, `set()`, or a var (a keyword is not one). */
  identTerm(t: Token, pos: Pos): Term {
    const text = t.text;
    if (text === "true" || text === "false") return this.suffixes({ t: "scalar", v: text === "true", pos });
    if (text === "null") return this.suffixes({ t: "scalar", v: null, pos });
    if (text === "set" && this.isP("(") && this.isP(")", this.peek())) {
      this.next();
      this.next();
      return { t: "set", items: [], pos };
    }
    if (this.kw.has(text)) this.err(`unexpected keyword \`${text}\``, t);
    return this.suffixes({ t: "var", name: text, pos });
  }

  /** `[...]`: an array or an array comprehension (in collections.ts). */
  abstract arrayTerm(pos: Pos): Term;
  /** `{...}`: an object, a set, or their comprehensions (in collections.ts). */
  abstract braceTerm(pos: Pos): Term;

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
