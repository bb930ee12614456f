/** The parser's token cursor and error reporting (OPA's `ast.Parser` scanning state). */
import { type Pos, RegoCompileError } from "../errors.js";
import type { Literal } from "./ast.js";
import type { Token } from "./scanner.js";

export abstract class TokenReader {
  protected i = 0;
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

  /** Literals separated by `;` or newlines, up to `end` (not consumed): comprehension and rule bodies. */
  abstract literals(end: string): Literal[];
}
