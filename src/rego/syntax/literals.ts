/** Literals and bodies (OPA's `ast.Parser.parseLiteral`, `parseSome`, `parseEvery`, `with` modifiers). */
import type { Pos } from "../errors.js";
import type { Literal, Term, With } from "./ast.js";
import { CollectionParser } from "./collections.js";

export abstract class LiteralParser extends CollectionParser {
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
}
