/** Rules (OPA's `ast.Parser.parseRules`): heads, `default`, bodies, `else` chains, and the rule's kind. */
import type { Pos } from "../errors.js";
import type { Literal, Rule, Term } from "./ast.js";
import { LiteralParser } from "./literals.js";
import type { Token } from "./scanner.js";

/** A rule head as written: `default`, the ref, `(args)`, `contains key` or `= value` / `:= value`. */
interface Head {
  start: Token;
  pos: Pos;
  isDefault: boolean;
  ref: Term[];
  args: Term[] | undefined;
  key: Term | undefined;
  value: Term | undefined;
  assign: boolean;
}

export abstract class RuleParser extends LiteralParser {
  /** One rule statement; a v0 rule with several bodies (`p { a } { b }`) is one rule per body. */
  rule(): Rule[] {
    const h = this.ruleHead();
    const rule: Rule = {
      kind: "complete",
      isDefault: h.isDefault,
      ref: h.ref,
      args: h.args,
      key: h.key,
      value: h.value ?? { t: "scalar", v: true, pos: h.pos },
      assign: h.assign,
      body: [],
      elseChain: [],
      pos: h.pos,
      noBody: true,
    };
    if (h.isDefault) {
      if (h.value === undefined) this.err("default rules must have a value assigned", h.start);
      if (this.isIdent("in")) this.err("unexpected keyword `in`");
      rule.kind = h.args ? "func" : "complete";
      this.endOfStatement();
      return [rule];
    }
    const hadIf = this.isKw("if") || (this.isIdent("if") && !this.tok.nl);
    const bodies = this.ruleBodies(rule);
    this.classify(rule, h, hadIf);
    this.endOfStatement();
    if (bodies.length <= 1) {
      rule.body = bodies[0] ?? [];
      return [rule];
    }
    return bodies.map((body, n) => ({ ...rule, body, elseChain: n === 0 ? rule.elseChain : [] }));
  }

  ruleHead(): Head {
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
    const args = this.isP("(") && !this.tok.nl ? this.ruleArgs() : undefined;
    const h: Head = { start, pos, isDefault, ref, args, key: undefined, value: undefined, assign: false };
    if (this.isKw("contains") || (this.isIdent("contains") && !this.tok.nl && this.peek().kind !== "punct")) {
      this.next();
      h.key = this.term();
    } else if (this.isP("=") || this.isP(":=")) {
      h.assign = this.next().text === ":=";
      this.inDefault = isDefault;
      try {
        h.value = this.term();
      } finally {
        this.inDefault = false;
      }
    }
    return h;
  }

  /** `(a, b)` of a function head. */
  ruleArgs(): Term[] {
    this.next();
    const args: Term[] = [];
    while (!this.isP(")")) {
      args.push(this.term());
      if (this.isP(",")) this.next();
      else if (!this.isP(")")) this.unexpected("expecting `)`");
    }
    this.next();
    return args;
  }

  /** The bodies (v0 allows several) and the `else` chain; sets `rule.noBody` and `rule.elseChain`. */
  ruleBodies(rule: Rule): Literal[][] {
    const bodies: Literal[][] = [];
    const b = this.ruleBody(true);
    if (b) {
      bodies.push(b);
      rule.noBody = false;
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
    return bodies;
  }

  /** The rule's kind (function, partial set, partial object, complete) from its head, as OPA decides it. */
  classify(rule: Rule, h: Head, hadIf: boolean): void {
    const { ref, value, start } = h;
    const last = ref[ref.length - 1] as Term;
    const lastGround = last.t === "scalar";
    if (h.args) rule.kind = "func";
    else if (h.key) rule.kind = "set";
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
  }

  endOfStatement(): void {
    if (this.tok.kind !== "eof" && !this.tok.nl && !this.isP(";")) this.unexpected();
    if (this.isP(";")) this.next();
  }
}
