/**
 * The Starlark parser (go.starlark.net/syntax parse.go): a recursive-descent LL(1) parser producing
 * the syntax tree of {@link ./syntax.js}, stopping at the first error with go.starlark.net's message.
 */
import { Scanner, sourceBytes, type TokenValue } from "./scanner.js";
import {
  type BinaryExpr,
  type CallExpr,
  type Comprehension,
  type DictEntry,
  type Expr,
  type File,
  type FileOptions,
  type ForClause,
  type Ident,
  type IfClause,
  type IfStmt,
  type Literal,
  type LoadStmt,
  type Pos,
  type Stmt,
  T,
  type Token,
  tokenGoString,
  tokenString,
} from "./syntax.js";

// precedence levels (go.starlark.net's preclevels)
const PRECEDENCE: number[] = [];
const PRECLEVELS: Token[][] = [
  [T.OR],
  [T.AND],
  [T.NOT],
  [T.EQL, T.NEQ, T.LT, T.GT, T.LE, T.GE, T.IN, T.NOT_IN],
  [T.PIPE],
  [T.CIRCUMFLEX],
  [T.AMP],
  [T.LTLT, T.GTGT],
  [T.MINUS, T.PLUS],
  [T.STAR, T.PERCENT, T.SLASH, T.SLASHSLASH],
];
for (let i = 0; i < 100; i++) PRECEDENCE[i] = -1;
PRECLEVELS.forEach((toks, level) => {
  for (const t of toks) PRECEDENCE[t] = level;
});

function terminatesExprList(tok: Token): boolean {
  return (
    tok === T.EOF ||
    tok === T.NEWLINE ||
    tok === T.EQ ||
    tok === T.RBRACE ||
    tok === T.RBRACK ||
    tok === T.RPAREN ||
    tok === T.SEMI
  );
}

class Parser {
  tok: Token = T.ILLEGAL;
  readonly val: TokenValue = { raw: "", int: 0, float: 0, str: "", pos: 0 };

  constructor(readonly in_: Scanner) {}

  /** Advances to the next token; returns the position of the previous one. */
  next(): Pos {
    const old = this.val.pos;
    this.tok = this.in_.nextToken(this.val);
    return old;
  }

  errorf(pos: Pos, msg: string): never {
    return this.in_.error(pos, msg);
  }

  consume(t: Token): Pos {
    if (this.tok !== t) {
      this.errorf(this.in_.pos, `got ${tokenGoString(this.tok)}, want ${tokenGoString(t)}`);
    }
    return this.next();
  }

  parseFile(): Stmt[] {
    const stmts: Stmt[] = [];
    while (this.tok !== T.EOF) {
      if (this.tok === T.NEWLINE) {
        this.next();
        continue;
      }
      this.parseStmt(stmts);
    }
    return stmts;
  }

  parseStmt(stmts: Stmt[]): void {
    switch (this.tok) {
      case T.DEF:
        stmts.push(this.parseDefStmt());
        return;
      case T.IF:
        stmts.push(this.parseIfStmt());
        return;
      case T.FOR:
        stmts.push(this.parseForStmt());
        return;
      case T.WHILE:
        stmts.push(this.parseWhileStmt());
        return;
    }
    this.parseSimpleStmt(stmts, true);
  }

  parseDefStmt(): Stmt {
    const defPos = this.next();
    const name = this.parseIdent();
    this.consume(T.LPAREN);
    const params = this.parseParams();
    this.consume(T.RPAREN);
    this.consume(T.COLON);
    const body = this.parseSuite();
    return { kind: "DefStmt", defPos, name, params, body, fn: null };
  }

  parseIfStmt(): Stmt {
    const ifPos = this.next();
    const cond = this.parseTest();
    this.consume(T.COLON);
    const body = this.parseSuite();
    const ifStmt: IfStmt = { kind: "IfStmt", ifPos, cond, trueBody: body, elsePos: 0, falseBody: [] };
    let tail = ifStmt;
    while (this.tok === T.ELIF) {
      const elifPos = this.next();
      const c = this.parseTest();
      this.consume(T.COLON);
      const b = this.parseSuite();
      const elif: IfStmt = {
        kind: "IfStmt",
        ifPos: elifPos,
        cond: c,
        trueBody: b,
        elsePos: 0,
        falseBody: [],
      };
      tail.elsePos = elifPos;
      tail.falseBody = [elif];
      tail = elif;
    }
    if (this.tok === T.ELSE) {
      tail.elsePos = this.next();
      this.consume(T.COLON);
      tail.falseBody = this.parseSuite();
    }
    return ifStmt;
  }

  parseForStmt(): Stmt {
    const forPos = this.next();
    const vars = this.parseForLoopVariables();
    this.consume(T.IN);
    const x = this.parseExpr(false);
    this.consume(T.COLON);
    const body = this.parseSuite();
    return { kind: "ForStmt", forPos, vars, x, body };
  }

  parseWhileStmt(): Stmt {
    const whilePos = this.next();
    const cond = this.parseTest();
    this.consume(T.COLON);
    const body = this.parseSuite();
    return { kind: "WhileStmt", whilePos, cond, body };
  }

  parseForLoopVariables(): Expr {
    const v = this.parsePrimaryWithSuffix();
    if (this.tok !== T.COMMA) return v;
    const list: Expr[] = [v];
    while (this.tok === T.COMMA) {
      this.next();
      if (terminatesExprList(this.tok)) break;
      list.push(this.parsePrimaryWithSuffix());
    }
    return { kind: "TupleExpr", lparen: 0, list, rparen: 0 };
  }

  parseSimpleStmt(stmts: Stmt[], consumeNL: boolean): void {
    for (;;) {
      stmts.push(this.parseSmallStmt());
      if (this.tok !== T.SEMI) break;
      this.next();
      if (this.tok === T.NEWLINE || this.tok === T.EOF) break;
    }
    if (this.tok !== T.EOF && consumeNL) this.consume(T.NEWLINE);
  }

  parseSmallStmt(): Stmt {
    switch (this.tok) {
      case T.RETURN: {
        const returnPos = this.next();
        let result: Expr | null = null;
        if (this.tok !== T.EOF && this.tok !== T.NEWLINE && this.tok !== T.SEMI) {
          result = this.parseExpr(false);
        }
        return { kind: "ReturnStmt", returnPos, result };
      }
      case T.BREAK:
      case T.CONTINUE:
      case T.PASS: {
        const token = this.tok;
        const pos = this.next();
        return { kind: "BranchStmt", token, pos };
      }
      case T.LOAD:
        return this.parseLoadStmt();
    }
    const x = this.parseExpr(false);
    switch (this.tok) {
      case T.EQ:
      case T.PLUS_EQ:
      case T.MINUS_EQ:
      case T.STAR_EQ:
      case T.SLASH_EQ:
      case T.SLASHSLASH_EQ:
      case T.PERCENT_EQ:
      case T.AMP_EQ:
      case T.PIPE_EQ:
      case T.CIRCUMFLEX_EQ:
      case T.LTLT_EQ:
      case T.GTGT_EQ: {
        const op = this.tok;
        const opPos = this.next();
        const rhs = this.parseExpr(false);
        return { kind: "AssignStmt", opPos, op, lhs: x, rhs };
      }
    }
    return { kind: "ExprStmt", x };
  }

  parseLoadStmt(): LoadStmt {
    const loadPos = this.next();
    const lparen = this.consume(T.LPAREN);
    if (this.tok !== T.STRING) {
      this.errorf(this.in_.pos, "first operand of load statement must be a string literal");
    }
    const module = this.parsePrimary() as Literal;
    const to: Ident[] = [];
    const from: Ident[] = [];
    while (this.tok !== T.RPAREN && this.tok !== T.EOF) {
      this.consume(T.COMMA);
      if (this.tok === T.RPAREN) break;
      if (this.tok === T.STRING) {
        const lit = this.parsePrimary() as Literal;
        const id: Ident = { kind: "Ident", pos: lit.pos + 1, name: lit.value as string, binding: null };
        to.push(id);
        from.push(id);
      } else if (this.tok === T.IDENT) {
        const id = this.parseIdent();
        to.push(id);
        if (this.tok !== T.EQ) {
          this.errorf(
            this.in_.pos,
            `load operand must be "${id.name}" or ${id.name}="originalname" (want '=' after ${id.name})`,
          );
        }
        this.consume(T.EQ);
        if (this.tok !== T.STRING) {
          this.errorf(
            this.in_.pos,
            `original name of loaded symbol must be quoted: ${id.name}="originalname"`,
          );
        }
        const lit = this.parsePrimary() as Literal;
        from.push({ kind: "Ident", pos: lit.pos + 1, name: lit.value as string, binding: null });
      } else {
        this.errorf(
          this.in_.pos,
          `load operand must be "name" or localname="name" (got ${tokenGoString(this.tok)})`,
        );
      }
    }
    const rparen = this.consume(T.RPAREN);
    if (to.length === 0) this.errorf(lparen, "load statement must import at least 1 symbol");
    return { kind: "LoadStmt", loadPos, module, to, from, rparen };
  }

  parseSuite(): Stmt[] {
    if (this.tok === T.NEWLINE) {
      this.next();
      this.consume(T.INDENT);
      const stmts: Stmt[] = [];
      while (this.tok !== T.OUTDENT && this.tok !== T.EOF) this.parseStmt(stmts);
      this.consume(T.OUTDENT);
      return stmts;
    }
    const stmts: Stmt[] = [];
    this.parseSimpleStmt(stmts, true);
    return stmts;
  }

  parseIdent(): Ident {
    if (this.tok !== T.IDENT) this.errorf(this.in_.pos, "not an identifier");
    const id: Ident = { kind: "Ident", pos: this.val.pos, name: this.val.raw, binding: null };
    this.next();
    return id;
  }

  parseParams(): Expr[] {
    const params: Expr[] = [];
    while (this.tok !== T.RPAREN && this.tok !== T.COLON && this.tok !== T.EOF) {
      if (params.length > 0) this.consume(T.COMMA);
      if (this.tok === T.RPAREN) break;
      if (this.tok === T.STAR || this.tok === T.STARSTAR) {
        const op = this.tok;
        const opPos = this.next();
        let x: Expr | null = null;
        if (op === T.STARSTAR || this.tok === T.IDENT) x = this.parseIdent();
        params.push({ kind: "UnaryExpr", opPos, op, x });
        continue;
      }
      const id = this.parseIdent();
      if (this.tok === T.EQ) {
        const opPos = this.next();
        const dflt = this.parseTest();
        params.push({ kind: "BinaryExpr", x: id, opPos, op: T.EQ, y: dflt });
        continue;
      }
      params.push(id);
    }
    return params;
  }

  parseExpr(inParens: boolean): Expr {
    const x = this.parseTest();
    if (this.tok !== T.COMMA) return x;
    const list = this.parseExprs([x], inParens);
    return { kind: "TupleExpr", lparen: 0, list, rparen: 0 };
  }

  parseExprs(exprs: Expr[], allowTrailingComma: boolean): Expr[] {
    while (this.tok === T.COMMA) {
      const pos = this.next();
      if (terminatesExprList(this.tok)) {
        if (!allowTrailingComma) this.errorf(pos, "unparenthesized tuple with trailing comma");
        break;
      }
      exprs.push(this.parseTest());
    }
    return exprs;
  }

  parseTest(): Expr {
    if (this.tok === T.LAMBDA) return this.parseLambda(true);
    const x = this.parseTestPrec(0);
    if (this.tok === T.IF) {
      const ifPos = this.next();
      const cond = this.parseTestPrec(0);
      if (this.tok !== T.ELSE) this.errorf(ifPos, "conditional expression without else clause");
      const elsePos = this.next();
      const f = this.parseTest();
      return { kind: "CondExpr", ifPos, cond, t: x, elsePos, f };
    }
    return x;
  }

  parseTestNoCond(): Expr {
    if (this.tok === T.LAMBDA) return this.parseLambda(false);
    return this.parseTestPrec(0);
  }

  parseLambda(allowCond: boolean): Expr {
    const lambdaPos = this.next();
    let params: Expr[] = [];
    if (this.tok !== T.COLON) params = this.parseParams();
    this.consume(T.COLON);
    const body = allowCond ? this.parseTest() : this.parseTestNoCond();
    return { kind: "LambdaExpr", lambdaPos, params, body, fn: null };
  }

  parseTestPrec(prec: number): Expr {
    if (prec >= PRECLEVELS.length) return this.parsePrimaryWithSuffix();
    if (this.tok === T.NOT && prec === PRECEDENCE[T.NOT]) {
      const opPos = this.next();
      const x = this.parseTestPrec(prec);
      return { kind: "UnaryExpr", opPos, op: T.NOT, x };
    }
    return this.parseBinopExpr(prec);
  }

  parseBinopExpr(prec: number): Expr {
    let x = this.parseTestPrec(prec + 1);
    for (let first = true; ; first = false) {
      if (this.tok === T.NOT) {
        this.next();
        if (this.tok !== T.IN) this.errorf(this.in_.pos, `got ${tokenGoString(this.tok)}, want in`);
        this.tok = T.NOT_IN;
      }
      const opprec = PRECEDENCE[this.tok]!;
      if (opprec < prec) return x;
      if (!first && opprec === PRECEDENCE[T.EQL]) {
        this.errorf(
          this.in_.pos,
          `${tokenString((x as BinaryExpr).op)} does not associate with ${tokenString(this.tok)} (use parens)`,
        );
      }
      const op = this.tok;
      const opPos = this.next();
      const y = this.parseTestPrec(opprec + 1);
      x = { kind: "BinaryExpr", x, opPos, op, y };
    }
  }

  parsePrimaryWithSuffix(): Expr {
    let x = this.parsePrimary();
    for (;;) {
      switch (this.tok) {
        case T.DOT: {
          const dot = this.next();
          const name = this.parseIdent();
          x = { kind: "DotExpr", x, dot, name };
          break;
        }
        case T.LBRACK:
          x = this.parseSliceSuffix(x);
          break;
        case T.LPAREN:
          x = this.parseCallSuffix(x);
          break;
        default:
          return x;
      }
    }
  }

  parseSliceSuffix(x: Expr): Expr {
    const lbrack = this.next();
    let lo: Expr | null = null;
    let hi: Expr | null = null;
    let step: Expr | null = null;
    if (this.tok !== T.COLON) {
      const y = this.parseExpr(false);
      if (this.tok === T.RBRACK) {
        const rbrack = this.next();
        return { kind: "IndexExpr", x, lbrack, y, rbrack };
      }
      lo = y;
    }
    if (this.tok === T.COLON) {
      this.next();
      if (this.tok !== T.COLON && this.tok !== T.RBRACK) hi = this.parseTest();
    }
    if (this.tok === T.COLON) {
      this.next();
      if (this.tok !== T.RBRACK) step = this.parseTest();
    }
    const rbrack = this.consume(T.RBRACK);
    return { kind: "SliceExpr", x, lbrack, lo, hi, step, rbrack };
  }

  parseCallSuffix(fn: Expr): CallExpr {
    const lparen = this.consume(T.LPAREN);
    let rparen: Pos;
    let args: Expr[] = [];
    if (this.tok === T.RPAREN) {
      rparen = this.next();
    } else {
      args = this.parseArgs();
      rparen = this.consume(T.RPAREN);
    }
    return { kind: "CallExpr", fn, lparen, args, rparen };
  }

  parseArgs(): Expr[] {
    const args: Expr[] = [];
    while (this.tok !== T.RPAREN && this.tok !== T.EOF) {
      if (args.length > 0) this.consume(T.COMMA);
      if (this.tok === T.RPAREN) break;
      if (this.tok === T.STAR || this.tok === T.STARSTAR) {
        const op = this.tok;
        const opPos = this.next();
        const x = this.parseTest();
        args.push({ kind: "UnaryExpr", opPos, op, x });
        continue;
      }
      let x = this.parseTest();
      if (this.tok === T.EQ) {
        if (x.kind !== "Ident") this.errorf(this.in_.pos, "keyword argument must have form name=expr");
        const opPos = this.next();
        const y = this.parseTest();
        x = { kind: "BinaryExpr", x, opPos, op: T.EQ, y };
      }
      args.push(x);
    }
    return args;
  }

  parsePrimary(): Expr {
    switch (this.tok) {
      case T.IDENT:
        return this.parseIdent();
      case T.INT:
      case T.FLOAT:
      case T.STRING:
      case T.BYTES: {
        const token = this.tok;
        const value = token === T.INT ? this.val.int : token === T.FLOAT ? this.val.float : this.val.str;
        const raw = this.val.raw;
        const pos = this.next();
        return { kind: "Literal", token, pos, raw, value };
      }
      case T.LBRACK:
        return this.parseList();
      case T.LBRACE:
        return this.parseDict();
      case T.LPAREN: {
        const lparen = this.next();
        if (this.tok === T.RPAREN) {
          const rparen = this.next();
          return { kind: "TupleExpr", lparen, list: [], rparen };
        }
        const e = this.parseExpr(true);
        const rparen = this.consume(T.RPAREN);
        return { kind: "ParenExpr", lparen, x: e, rparen };
      }
      case T.MINUS:
      case T.PLUS:
      case T.TILDE: {
        const op = this.tok;
        const opPos = this.next();
        const x = this.parsePrimaryWithSuffix();
        return { kind: "UnaryExpr", opPos, op, x };
      }
    }
    return this.errorf(this.val.pos, `got ${tokenGoString(this.tok)}, want primary expression`);
  }

  parseList(): Expr {
    const lbrack = this.next();
    if (this.tok === T.RBRACK) {
      const rbrack = this.next();
      return { kind: "ListExpr", lbrack, list: [], rbrack };
    }
    const x = this.parseTest();
    if (this.tok === T.FOR) return this.parseComprehensionSuffix(lbrack, x, T.RBRACK);
    let list = [x];
    if (this.tok === T.COMMA) list = this.parseExprs(list, true);
    const rbrack = this.consume(T.RBRACK);
    return { kind: "ListExpr", lbrack, list, rbrack };
  }

  parseDict(): Expr {
    const lbrace = this.next();
    if (this.tok === T.RBRACE) {
      const rbrace = this.next();
      return { kind: "DictExpr", lbrace, list: [], rbrace };
    }
    const x = this.parseDictEntry();
    if (this.tok === T.FOR) return this.parseComprehensionSuffix(lbrace, x, T.RBRACE);
    const list = [x];
    while (this.tok === T.COMMA) {
      this.next();
      if (this.tok === T.RBRACE) break;
      list.push(this.parseDictEntry());
    }
    const rbrace = this.consume(T.RBRACE);
    return { kind: "DictExpr", lbrace, list, rbrace };
  }

  parseDictEntry(): DictEntry {
    const key = this.parseTest();
    const colon = this.consume(T.COLON);
    const value = this.parseTest();
    return { kind: "DictEntry", key, colon, value };
  }

  parseComprehensionSuffix(lbrack: Pos, body: Expr | DictEntry, endBrace: Token): Comprehension {
    const clauses: (ForClause | IfClause)[] = [];
    while (this.tok !== endBrace) {
      if (this.tok === T.FOR) {
        const forPos = this.next();
        const vars = this.parseForLoopVariables();
        const inPos = this.consume(T.IN);
        const x = this.parseTestPrec(0);
        clauses.push({ kind: "ForClause", forPos, vars, inPos, x });
      } else if (this.tok === T.IF) {
        const ifPos = this.next();
        const cond = this.parseTestNoCond();
        clauses.push({ kind: "IfClause", ifPos, cond });
      } else {
        this.errorf(
          this.in_.pos,
          `got ${tokenGoString(this.tok)}, want '${tokenString(endBrace)}', for, or if`,
        );
      }
    }
    const rbrack = this.next();
    return { kind: "Comprehension", curly: endBrace === T.RBRACE, lbrack, body, clauses, rbrack };
  }
}

/**
 * Parses a Starlark file. `src` is text (a JS string or UTF-8 bytes). Throws {@link StarlarkSyntaxError}
 * at the first scanner or parser error.
 */
export function parseFile(filename: string, src: string | Uint8Array, options: FileOptions = {}): File {
  return parseBytes(filename, sourceBytes(src), options);
}

/** Like {@link parseFile} for source already in byte-string form. */
export function parseBytes(filename: string, bytes: string, options: FileOptions = {}): File {
  const p = new Parser(new Scanner(filename, bytes));
  p.next();
  const stmts = p.parseFile();
  return { path: filename, stmts, options, locals: [], globals: [] };
}

/** Parses a single expression (a comma-separated list is a tuple). */
export function parseExprBytes(filename: string, bytes: string): Expr {
  const p = new Parser(new Scanner(filename, bytes));
  p.next();
  const e = p.parseExpr(false);
  if (p.tok === T.NEWLINE) p.next();
  if (p.tok !== T.EOF) p.errorf(p.in_.pos, `got ${tokenGoString(p.tok)} after expression, want EOF`);
  return e;
}
