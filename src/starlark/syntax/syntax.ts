/**
 * Starlark syntax: tokens, source positions, the syntax tree and syntax errors (go.starlark.net/syntax).
 */

/** A source position packed into one number: line * 2^20 + column (1-based; column counts runes). */
export type Pos = number;

const COL = 1048576;

/** Packs a 1-based line and column into a {@link Pos}. */
export function makePos(line: number, col: number): Pos {
  return line * COL + col;
}

/** The 1-based line of a packed position (0 if unknown). */
export function posLine(p: Pos): number {
  return Math.floor(p / COL);
}

/** The 1-based column of a packed position (0 if unknown). */
export function posCol(p: Pos): number {
  return p % COL;
}

/** Formats a position as go.starlark.net does: `file:line:col`, `file:line` or `file`. */
export function formatPos(file: string, p: Pos): string {
  const line = posLine(p);
  const col = posCol(p);
  if (line > 0) return col > 0 ? `${file}:${line}:${col}` : `${file}:${line}`;
  return file;
}

/** A scanner, parser or resolver error at a position (go.starlark.net's syntax.Error / resolve.Error). */
export class StarlarkSyntaxError extends Error {
  constructor(
    readonly file: string,
    readonly pos: Pos,
    readonly msg: string,
  ) {
    super(`${formatPos(file, pos)}: ${msg}`);
    this.name = "StarlarkSyntaxError";
  }
  get line(): number {
    return posLine(this.pos);
  }
  get col(): number {
    return posCol(this.pos);
  }
}

/** All errors the resolver found (reported in source order); `message` is the first. */
export class StarlarkResolveError extends Error {
  constructor(readonly errors: StarlarkSyntaxError[]) {
    super(errors[0]!.message);
    this.name = "StarlarkResolveError";
  }
}

// Tokens (numeric, in go.starlark.net's order where it matters: PLUS..GTGT mirror PLUS_EQ..GTGT_EQ).
const TOKENS = {
  ILLEGAL: 0,
  EOF: 1,
  NEWLINE: 2,
  INDENT: 3,
  OUTDENT: 4,
  IDENT: 5,
  INT: 6,
  FLOAT: 7,
  STRING: 8,
  BYTES: 9,
  PLUS: 10,
  MINUS: 11,
  STAR: 12,
  SLASH: 13,
  SLASHSLASH: 14,
  PERCENT: 15,
  AMP: 16,
  PIPE: 17,
  CIRCUMFLEX: 18,
  LTLT: 19,
  GTGT: 20,
  TILDE: 21,
  DOT: 22,
  COMMA: 23,
  EQ: 24,
  SEMI: 25,
  COLON: 26,
  LPAREN: 27,
  RPAREN: 28,
  LBRACK: 29,
  RBRACK: 30,
  LBRACE: 31,
  RBRACE: 32,
  LT: 33,
  GT: 34,
  GE: 35,
  LE: 36,
  EQL: 37,
  NEQ: 38,
  PLUS_EQ: 39,
  MINUS_EQ: 40,
  STAR_EQ: 41,
  SLASH_EQ: 42,
  SLASHSLASH_EQ: 43,
  PERCENT_EQ: 44,
  AMP_EQ: 45,
  PIPE_EQ: 46,
  CIRCUMFLEX_EQ: 47,
  LTLT_EQ: 48,
  GTGT_EQ: 49,
  STARSTAR: 50,
  AND: 51,
  BREAK: 52,
  CONTINUE: 53,
  DEF: 54,
  ELIF: 55,
  ELSE: 56,
  FOR: 57,
  IF: 58,
  IN: 59,
  LAMBDA: 60,
  LOAD: 61,
  NOT: 62,
  NOT_IN: 63,
  OR: 64,
  PASS: 65,
  RETURN: 66,
  WHILE: 67,
  AS: 68,
  ASYNC: 69,
  AWAIT: 70,
  CLASS: 71,
  DEL: 72,
  EXCEPT: 73,
  FINALLY: 74,
  FROM: 75,
  GLOBAL: 76,
  IMPORT: 77,
  IS: 78,
  NONLOCAL: 79,
  RAISE: 80,
  TRY: 81,
  WITH: 82,
  YIELD: 83,
} as const;

/** Token kinds (numbers typed wide so comparisons do not narrow). */
export const T: { readonly [K in keyof typeof TOKENS]: number } = TOKENS;

/** A token kind (one of {@link T}). */
export type Token = number;

const TOKEN_NAMES: string[] = [
  "illegal token",
  "end of file",
  "newline",
  "indent",
  "outdent",
  "identifier",
  "int literal",
  "float literal",
  "string literal",
  "", // bytes literal: go.starlark.net's tokenNames has no entry for it ("got , want ')'")
  "+",
  "-",
  "*",
  "/",
  "//",
  "%",
  "&",
  "|",
  "^",
  "<<",
  ">>",
  "~",
  ".",
  ",",
  "=",
  ";",
  ":",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "<",
  ">",
  ">=",
  "<=",
  "==",
  "!=",
  "+=",
  "-=",
  "*=",
  "/=",
  "//=",
  "%=",
  "&=",
  "|=",
  "^=",
  "<<=",
  ">>=",
  "**",
  "and",
  "break",
  "continue",
  "def",
  "elif",
  "else",
  "for",
  "if",
  "in",
  "lambda",
  "load",
  "not",
  "not in",
  "or",
  "pass",
  "return",
  "while",
  "as",
  "async",
  "await",
  "class",
  "del",
  "except",
  "finally",
  "from",
  "global",
  "import",
  "is",
  "nonlocal",
  "raise",
  "try",
  "with",
  "yield",
];

/** The name of a token as Go's Token.String prints it. */
export function tokenString(t: Token): string {
  return TOKEN_NAMES[t] ?? "?";
}

/** Like {@link tokenString} but quotes punctuation, as Go's %#v of a Token does. */
export function tokenGoString(t: Token): string {
  if (t >= T.PLUS && t <= T.STARSTAR) return `'${TOKEN_NAMES[t]}'`;
  return TOKEN_NAMES[t] ?? "?";
}

/** Keywords and reserved words. */
export const KEYWORDS: ReadonlyMap<string, Token> = new Map([
  ["and", T.AND],
  ["break", T.BREAK],
  ["continue", T.CONTINUE],
  ["def", T.DEF],
  ["elif", T.ELIF],
  ["else", T.ELSE],
  ["for", T.FOR],
  ["if", T.IF],
  ["in", T.IN],
  ["lambda", T.LAMBDA],
  ["load", T.LOAD],
  ["not", T.NOT],
  ["or", T.OR],
  ["pass", T.PASS],
  ["return", T.RETURN],
  ["while", T.WHILE],
  ["as", T.AS],
  ["async", T.ASYNC],
  ["await", T.AWAIT],
  ["class", T.CLASS],
  ["del", T.DEL],
  ["except", T.EXCEPT],
  ["finally", T.FINALLY],
  ["from", T.FROM],
  ["global", T.GLOBAL],
  ["import", T.IMPORT],
  ["is", T.IS],
  ["nonlocal", T.NONLOCAL],
  ["raise", T.RAISE],
  ["try", T.TRY],
  ["with", T.WITH],
  ["yield", T.YIELD],
]);

/** Per-file dialect options (go.starlark.net's syntax.FileOptions); all off by default. */
export interface FileOptions {
  /** allow the `set` built-in */
  set?: boolean;
  /** allow `while` statements */
  while?: boolean;
  /** allow if/for/while statements at top level */
  topLevelControl?: boolean;
  /** allow reassignment of top-level names */
  globalReassign?: boolean;
  /** `load` creates global rather than file-local bindings (deprecated) */
  loadBindsGlobally?: boolean;
  /** allow recursive calls of functions defined in this file */
  recursion?: boolean;
}

// ---- syntax tree ----

/** Binding scopes, as go.starlark.net's resolve.Scope. */
export const Scope = {
  Undefined: 0,
  Local: 1,
  Cell: 2,
  Free: 3,
  Global: 4,
  Predeclared: 5,
  Universal: 6,
} as const;

export const SCOPE_NAMES = ["undefined", "local", "cell", "free", "global", "predeclared", "universal"];

/** The resolver's record of a name: its scope and slot index. */
export interface Binding {
  scope: number;
  index: number;
  /** the first binding use (for locals, free variables and globals) */
  first: Ident | null;
}

/** A function (def or lambda) as resolved: its parameters, locals and free variables. */
export interface ResolvedFunction {
  pos: Pos;
  name: string;
  params: Expr[];
  body: Stmt[];
  hasVarargs: boolean;
  hasKwargs: boolean;
  numKwonlyParams: number;
  locals: Binding[];
  freeVars: Binding[];
}

export interface Ident {
  kind: "Ident";
  pos: Pos;
  name: string;
  binding: Binding | null;
}

export interface Literal {
  kind: "Literal";
  token: Token; // INT, FLOAT, STRING, BYTES
  pos: Pos;
  raw: string;
  /** int: number or bigint; float: number; string and bytes: byte string */
  value: number | bigint | string;
}

export interface ListExpr {
  kind: "ListExpr";
  lbrack: Pos;
  list: Expr[];
  rbrack: Pos;
}

export interface CondExpr {
  kind: "CondExpr";
  ifPos: Pos;
  cond: Expr;
  t: Expr;
  elsePos: Pos;
  f: Expr;
}

export interface IndexExpr {
  kind: "IndexExpr";
  x: Expr;
  lbrack: Pos;
  y: Expr;
  rbrack: Pos;
}

export interface DictEntry {
  kind: "DictEntry";
  key: Expr;
  colon: Pos;
  value: Expr;
}

export interface SliceExpr {
  kind: "SliceExpr";
  x: Expr;
  lbrack: Pos;
  lo: Expr | null;
  hi: Expr | null;
  step: Expr | null;
  rbrack: Pos;
}

export interface ForClause {
  kind: "ForClause";
  forPos: Pos;
  vars: Expr;
  inPos: Pos;
  x: Expr;
}

export interface IfClause {
  kind: "IfClause";
  ifPos: Pos;
  cond: Expr;
}

export interface Comprehension {
  kind: "Comprehension";
  curly: boolean;
  lbrack: Pos;
  body: Expr | DictEntry;
  clauses: (ForClause | IfClause)[];
  rbrack: Pos;
}

export interface TupleExpr {
  kind: "TupleExpr";
  lparen: Pos; // 0 if unparenthesized
  list: Expr[];
  rparen: Pos;
}

export interface DictExpr {
  kind: "DictExpr";
  lbrace: Pos;
  list: DictEntry[];
  rbrace: Pos;
}

export interface UnaryExpr {
  kind: "UnaryExpr";
  opPos: Pos;
  op: Token;
  x: Expr | null; // null only for a bare `*` parameter
}

export interface BinaryExpr {
  kind: "BinaryExpr";
  x: Expr;
  opPos: Pos;
  op: Token;
  y: Expr;
}

export interface DotExpr {
  kind: "DotExpr";
  x: Expr;
  dot: Pos;
  name: Ident;
}

export interface CallExpr {
  kind: "CallExpr";
  fn: Expr;
  lparen: Pos;
  args: Expr[];
  rparen: Pos;
}

export interface LambdaExpr {
  kind: "LambdaExpr";
  lambdaPos: Pos;
  params: Expr[];
  body: Expr;
  fn: ResolvedFunction | null;
}

export interface ParenExpr {
  kind: "ParenExpr";
  lparen: Pos;
  x: Expr;
  rparen: Pos;
}

export type Expr =
  | Ident
  | Literal
  | ListExpr
  | CondExpr
  | IndexExpr
  | SliceExpr
  | Comprehension
  | TupleExpr
  | DictExpr
  | UnaryExpr
  | BinaryExpr
  | DotExpr
  | CallExpr
  | LambdaExpr
  | ParenExpr;

export interface ExprStmt {
  kind: "ExprStmt";
  x: Expr;
}

export interface BranchStmt {
  kind: "BranchStmt";
  token: Token; // BREAK, CONTINUE, PASS
  pos: Pos;
}

export interface IfStmt {
  kind: "IfStmt";
  ifPos: Pos;
  cond: Expr;
  trueBody: Stmt[];
  elsePos: Pos;
  falseBody: Stmt[];
}

export interface AssignStmt {
  kind: "AssignStmt";
  opPos: Pos;
  op: Token;
  lhs: Expr;
  rhs: Expr;
}

export interface DefStmt {
  kind: "DefStmt";
  defPos: Pos;
  name: Ident;
  params: Expr[];
  body: Stmt[];
  fn: ResolvedFunction | null;
}

export interface ForStmt {
  kind: "ForStmt";
  forPos: Pos;
  vars: Expr;
  x: Expr;
  body: Stmt[];
}

export interface WhileStmt {
  kind: "WhileStmt";
  whilePos: Pos;
  cond: Expr;
  body: Stmt[];
}

export interface ReturnStmt {
  kind: "ReturnStmt";
  returnPos: Pos;
  result: Expr | null;
}

export interface LoadStmt {
  kind: "LoadStmt";
  loadPos: Pos;
  module: Literal;
  to: Ident[];
  from: Ident[];
  rparen: Pos;
}

export type Stmt =
  | ExprStmt
  | BranchStmt
  | IfStmt
  | AssignStmt
  | DefStmt
  | ForStmt
  | WhileStmt
  | ReturnStmt
  | LoadStmt;

/** A parsed file; `locals`/`globals` are filled in by the resolver. */
export interface File {
  path: string;
  stmts: Stmt[];
  options: FileOptions;
  locals: Binding[];
  globals: Binding[];
}

/** The start position of an expression (go.starlark.net's syntax.Start). */
export function startPos(e: Expr | DictEntry): Pos {
  switch (e.kind) {
    case "Ident":
      return e.pos;
    case "Literal":
      return e.pos;
    case "ListExpr":
      return e.lbrack;
    case "CondExpr":
      return startPos(e.t);
    case "IndexExpr":
    case "SliceExpr":
    case "DotExpr":
      return startPos(e.x);
    case "BinaryExpr":
      return startPos(e.x);
    case "Comprehension":
      return e.lbrack;
    case "TupleExpr":
      return e.lparen || (e.list.length > 0 ? startPos(e.list[0]!) : 0);
    case "DictExpr":
      return e.lbrace;
    case "UnaryExpr":
      return e.opPos;
    case "CallExpr":
      return startPos(e.fn);
    case "LambdaExpr":
      return e.lambdaPos;
    case "ParenExpr":
      return e.lparen;
    case "DictEntry":
      return startPos(e.key);
  }
}

/** Removes enclosing parentheses. */
export function unparen(e: Expr): Expr {
  while (e.kind === "ParenExpr") e = e.x;
  return e;
}
