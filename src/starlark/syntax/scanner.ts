/**
 * The Starlark lexical scanner (go.starlark.net/syntax scan.go): tokens, indentation, string and
 * number literals, with go.starlark.net's error messages. Input is a byte string (UTF-8 as latin1).
 */

import { decodeRune, encodeRune, isLetter, type Rune, toBytes } from "../internal/utf8.js";
import { KEYWORDS, makePos, type Pos, StarlarkSyntaxError, T, type Token } from "./syntax.js";

/** The value of the current token. */
export interface TokenValue {
  raw: string;
  int: number | bigint;
  float: number;
  str: string;
  pos: Pos;
}

/** Normalizes a bigint to a JS number when it is a safe integer. */
export function normInt(b: bigint): number | bigint {
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

const isdigit = (c: number) => c >= 0x30 && c <= 0x39;
const isodigit = (c: number) => c >= 0x30 && c <= 0x37;
const isbdigit = (c: number) => c === 0x30 || c === 0x31;
const isxdigit = (c: number) => isdigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

function isIdentStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x80 && isLetter(c));
}

function isIdent(c: number): boolean {
  return isdigit(c) || isIdentStart(c);
}

const UNESC: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
};

function hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Unquotes a Starlark string or bytes literal (raw text including prefix and quotes) into its byte
 * string value. Throws an Error whose message is go.starlark.net's.
 */
export function unquote(quoted: string): { s: string; isByte: boolean } {
  let raw = false;
  let isByte = false;
  if (quoted.startsWith("r")) {
    raw = true;
    quoted = quoted.slice(1);
  }
  if (quoted.startsWith("b")) {
    isByte = true;
    quoted = quoted.slice(1);
  }
  if (quoted.length < 2) throw new Error("string literal too short");
  const q = quoted[0];
  if ((q !== '"' && q !== "'") || q !== quoted[quoted.length - 1]) {
    throw new Error("string literal has invalid quotes");
  }
  if (quoted.length >= 6 && quoted[1] === q && quoted[2] === q && quoted.slice(0, 3) === quoted.slice(-3)) {
    quoted = quoted.slice(3, -3);
  } else {
    quoted = quoted.slice(1, -1);
  }
  if (raw ? !quoted.includes("\r") : !quoted.includes("\\") && !quoted.includes("\r")) {
    return { s: quoted, isByte };
  }
  let buf = "";
  let i = 0;
  const n = quoted.length;
  while (i < n) {
    const c = quoted[i]!;
    if (c === "\r") {
      buf += "\n";
      i += quoted[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (c !== "\\" || raw) {
      buf += c;
      i++;
      continue;
    }
    if (i + 1 >= n) throw new Error("truncated escape sequence \\");
    const e = quoted[i + 1]!;
    if (e === "\n") {
      i += 2;
      continue;
    }
    if (UNESC[e] !== undefined) {
      buf += UNESC[e];
      i += 2;
      continue;
    }
    if (e >= "0" && e <= "7") {
      let v = e.charCodeAt(0) - 48;
      i += 2;
      for (let k = 1; k < 3; k++) {
        if (i >= n || quoted[i]! < "0" || quoted[i]! > "7") break;
        v = v * 8 + (quoted.charCodeAt(i) - 48);
        i++;
      }
      if (!isByte && v > 127) {
        throw new Error(
          `non-ASCII octal escape \\${v.toString(8)} (use \\u${hex4(v)} for the UTF-8 encoding of U+${hex4(v)})`,
        );
      }
      if (v >= 256) throw new Error(`invalid escape sequence \\${v.toString(8).padStart(3, "0")}`);
      buf += String.fromCharCode(v);
      continue;
    }
    if (e === "x") {
      if (n - i < 4) throw new Error(`truncated escape sequence ${quoted.slice(i)}`);
      const h = quoted.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) throw new Error(`invalid escape sequence ${quoted.slice(i, i + 4)}`);
      const v = Number.parseInt(h, 16);
      if (!isByte && v > 127) {
        throw new Error(
          `non-ASCII hex escape ${quoted.slice(i, i + 4)} (use \\u${hex4(v)} for the UTF-8 encoding of U+${hex4(v)})`,
        );
      }
      buf += String.fromCharCode(v);
      i += 4;
      continue;
    }
    if (e === "u" || e === "U") {
      const sz = e === "U" ? 10 : 6;
      if (n - i < sz) throw new Error(`truncated escape sequence ${quoted.slice(i)}`);
      const h = quoted.slice(i + 2, i + sz);
      if (!/^[0-9a-fA-F]+$/.test(h)) throw new Error(`invalid escape sequence ${quoted.slice(i, i + sz)}`);
      const v = Number.parseInt(h, 16);
      if (v > 0x10ffff) {
        throw new Error(
          `code point out of range: ${quoted.slice(i, i + sz)} (max \\U${v.toString(16).padStart(8, "0")})`,
        );
      }
      if (v >= 0xd800 && v < 0xe000) throw new Error(`invalid Unicode code point U+${hex4(v)}`);
      buf += encodeRune(v);
      i += sz;
      continue;
    }
    throw new Error(`invalid escape sequence \\${e}`);
  }
  return { s: buf, isByte };
}

/** A scanner over one file's bytes. */
export class Scanner {
  private readonly src: string;
  private i = 0;
  private line: number;
  private col: number;
  private depth = 0;
  private readonly indentstk: number[] = [0];
  private dents = 0;
  private lineStart = true;
  private tokStart = 0;
  private readonly rune: Rune = { r: 0, size: 0 };

  constructor(
    readonly file: string,
    src: string,
    firstLine = 1,
    firstCol = 1,
  ) {
    this.src = src;
    this.line = firstLine;
    this.col = firstCol;
  }

  /** The current input position (after the lookahead token). */
  get pos(): Pos {
    return makePos(this.line, this.col);
  }

  error(pos: Pos, msg: string): never {
    throw new StarlarkSyntaxError(this.file, pos, msg);
  }

  private peekRune(): number {
    const i = this.i;
    if (i >= this.src.length) return 0;
    const c = this.src.charCodeAt(i);
    if (c < 0x80) return c === 13 ? 10 : c;
    return decodeRune(this.src, i, this.rune).r;
  }

  private readRune(): number {
    const src = this.src;
    if (this.i >= src.length) this.error(this.pos, "internal scanner error: readRune at EOF");
    let c = src.charCodeAt(this.i);
    if (c < 0x80) {
      this.i++;
      if (c === 13) {
        if (this.i < src.length && src.charCodeAt(this.i) === 10) this.i++;
        c = 10;
      }
      if (c === 10) {
        this.line++;
        this.col = 1;
      } else {
        this.col++;
      }
      return c;
    }
    decodeRune(src, this.i, this.rune);
    this.i += this.rune.size;
    this.col++;
    return this.rune.r;
  }

  private startToken(val: TokenValue): void {
    this.tokStart = this.i;
    val.raw = "";
    val.pos = this.pos;
  }

  private endToken(val: TokenValue): void {
    if (val.raw === "") val.raw = this.src.slice(this.tokStart, this.i);
  }

  /** Scans the next token into `val` and returns its kind. */
  nextToken(val: TokenValue): Token {
    for (;;) {
      let c: number;
      let blank = false;
      const savedLineStart = this.lineStart;
      if (this.lineStart) {
        this.lineStart = false;
        let col = 0;
        for (;;) {
          c = this.peekRune();
          if (c === 0x20) {
            col++;
            this.readRune();
          } else if (c === 0x09) {
            col += 8 - ((this.col - 1) % 8);
            this.readRune();
          } else {
            break;
          }
        }
        if (c === 0x23 || c === 10 || c === 0) blank = true;
        if (!blank && this.depth === 0) {
          const stk = this.indentstk;
          const cur = stk[stk.length - 1]!;
          if (col > cur) {
            this.dents++;
            stk.push(col);
          } else if (col < cur) {
            while (stk.length > 0 && col < stk[stk.length - 1]!) {
              this.dents--;
              stk.pop();
            }
            if (col !== stk[stk.length - 1]) {
              this.error(this.pos, "unindent does not match any outer indentation level");
            }
          }
        }
      }

      if (this.dents !== 0) {
        this.startToken(val);
        this.endToken(val);
        if (this.dents < 0) {
          this.dents++;
          return T.OUTDENT;
        }
        this.dents--;
        return T.INDENT;
      }

      c = this.peekRune();
      while (c === 0x20 || c === 0x09) {
        this.readRune();
        c = this.peekRune();
      }

      if (c === 0x23) {
        // comment: consume up to newline (not included)
        while (c !== 0 && c !== 10) {
          this.readRune();
          c = this.peekRune();
        }
      }

      if (c === 10) {
        this.lineStart = true;
        if (this.depth > 0 || blank) {
          this.readRune();
          continue;
        }
        this.startToken(val);
        this.readRune();
        val.raw = "\n";
        return T.NEWLINE;
      }

      if (c === 0) {
        if (this.indentstk.length > 1) {
          if (savedLineStart) {
            this.dents = 1 - this.indentstk.length;
            this.indentstk.length = 1;
            continue;
          }
          this.lineStart = true;
          this.startToken(val);
          val.raw = "\n";
          return T.NEWLINE;
        }
        this.startToken(val);
        this.endToken(val);
        return T.EOF;
      }

      if (c === 0x5c) {
        // line continuation
        this.readRune();
        if (this.peekRune() !== 10) this.error(this.pos, "stray backslash in program");
        this.readRune();
        continue;
      }

      this.startToken(val);

      if (c === 0x2c) {
        this.readRune();
        this.endToken(val);
        return T.COMMA;
      }

      if (c === 0x22 || c === 0x27) return this.scanString(val, c);

      if (isIdentStart(c)) {
        const src = this.src;
        const n1 = src[this.i + 1];
        if ((c === 0x72 || c === 0x62) && (n1 === '"' || n1 === "'")) {
          this.readRune();
          return this.scanString(val, this.peekRune());
        }
        if (c === 0x72 && n1 === "b" && (src[this.i + 2] === '"' || src[this.i + 2] === "'")) {
          this.readRune();
          this.readRune();
          return this.scanString(val, this.peekRune());
        }
        while (isIdent(c)) {
          this.readRune();
          c = this.peekRune();
        }
        this.endToken(val);
        return KEYWORDS.get(val.raw) ?? T.IDENT;
      }

      switch (c) {
        case 0x5b:
        case 0x28:
        case 0x7b:
          this.depth++;
          this.readRune();
          this.endToken(val);
          return c === 0x5b ? T.LBRACK : c === 0x28 ? T.LPAREN : T.LBRACE;
        case 0x5d:
        case 0x29:
        case 0x7d:
          if (this.depth === 0) this.error(this.pos, `unexpected '${String.fromCharCode(c)}'`);
          this.depth--;
          this.readRune();
          this.endToken(val);
          return c === 0x5d ? T.RBRACK : c === 0x29 ? T.RPAREN : T.RBRACE;
      }

      if (isdigit(c) || c === 0x2e) return this.scanNumber(val, c);

      const tok = this.scanPunct(c);
      this.endToken(val);
      return tok;
    }
  }

  private scanPunct(c: number): Token {
    const start = this.pos;
    switch (c) {
      case 0x3d: // =
      case 0x3c: // <
      case 0x3e: // >
      case 0x21: // !
      case 0x2b: // +
      case 0x2d: // -
      case 0x25: // %
      case 0x2f: // /
      case 0x26: // &
      case 0x7c: // |
      case 0x5e: {
        // ^
        this.readRune();
        if (this.peekRune() === 0x3d) {
          this.readRune();
          switch (c) {
            case 0x3c:
              return T.LE;
            case 0x3e:
              return T.GE;
            case 0x3d:
              return T.EQL;
            case 0x21:
              return T.NEQ;
            case 0x2b:
              return T.PLUS_EQ;
            case 0x2d:
              return T.MINUS_EQ;
            case 0x2f:
              return T.SLASH_EQ;
            case 0x25:
              return T.PERCENT_EQ;
            case 0x26:
              return T.AMP_EQ;
            case 0x7c:
              return T.PIPE_EQ;
            case 0x5e:
              return T.CIRCUMFLEX_EQ;
          }
        }
        switch (c) {
          case 0x3d:
            return T.EQ;
          case 0x3c:
            if (this.peekRune() === 0x3c) {
              this.readRune();
              if (this.peekRune() === 0x3d) {
                this.readRune();
                return T.LTLT_EQ;
              }
              return T.LTLT;
            }
            return T.LT;
          case 0x3e:
            if (this.peekRune() === 0x3e) {
              this.readRune();
              if (this.peekRune() === 0x3d) {
                this.readRune();
                return T.GTGT_EQ;
              }
              return T.GTGT;
            }
            return T.GT;
          case 0x21:
            return this.error(start, "unexpected input character '!'");
          case 0x2b:
            return T.PLUS;
          case 0x2d:
            return T.MINUS;
          case 0x2f:
            if (this.peekRune() === 0x2f) {
              this.readRune();
              if (this.peekRune() === 0x3d) {
                this.readRune();
                return T.SLASHSLASH_EQ;
              }
              return T.SLASHSLASH;
            }
            return T.SLASH;
          case 0x25:
            return T.PERCENT;
          case 0x26:
            return T.AMP;
          case 0x7c:
            return T.PIPE;
          default:
            return T.CIRCUMFLEX;
        }
      }
      case 0x3a:
        this.readRune();
        return T.COLON;
      case 0x3b:
        this.readRune();
        return T.SEMI;
      case 0x7e:
        this.readRune();
        return T.TILDE;
      case 0x2a:
        this.readRune();
        if (this.peekRune() === 0x2a) {
          this.readRune();
          return T.STARSTAR;
        }
        if (this.peekRune() === 0x3d) {
          this.readRune();
          return T.STAR_EQ;
        }
        return T.STAR;
    }
    const ch = String.fromCodePoint(c);
    // Messages are byte strings (UTF-8), as the source is.
    return this.error(this.pos, `unexpected input character ${toBytes(goQuoteRune(ch))}`);
  }

  private scanString(val: TokenValue, quote: number): Token {
    const start = this.pos;
    const src = this.src;
    const triple =
      this.i + 2 < src.length &&
      src.charCodeAt(this.i) === quote &&
      src.charCodeAt(this.i + 1) === quote &&
      src.charCodeAt(this.i + 2) === quote;
    this.readRune();
    if (!triple) {
      for (;;) {
        if (this.i >= src.length) this.error(val.pos, "unexpected EOF in string");
        const c = this.readRune();
        if (c === quote) break;
        if (c === 10) this.error(val.pos, "unexpected newline in string");
        if (c === 0x5c) {
          if (this.i >= src.length) this.error(val.pos, "unexpected EOF in string");
          this.readRune();
        }
      }
    } else {
      this.readRune();
      this.readRune();
      let quoteCount = 0;
      for (;;) {
        if (this.i >= src.length) this.error(val.pos, "unexpected EOF in string");
        const c = this.readRune();
        if (c === quote) {
          quoteCount++;
          if (quoteCount === 3) break;
        } else {
          quoteCount = 0;
        }
        if (c === 0x5c) {
          if (this.i >= src.length) this.error(val.pos, "unexpected EOF in string");
          this.readRune();
        }
      }
    }
    let raw = src.slice(this.tokStart, this.i);
    if (raw.includes("\r")) raw = raw.replace(/\r\n?/g, "\n");
    val.raw = raw;
    let res: { s: string; isByte: boolean };
    try {
      res = unquote(raw);
    } catch (err) {
      this.error(start, (err as Error).message);
    }
    val.str = res.s;
    return res.isByte ? T.BYTES : T.STRING;
  }

  private scanNumber(val: TokenValue, c: number): Token {
    const start = this.pos;
    let fraction = false;
    let exponent = false;
    if (c === 0x2e) {
      this.readRune();
      c = this.peekRune();
      if (!isdigit(c)) {
        this.endToken(val);
        return T.DOT;
      }
      fraction = true;
    } else if (c === 0x30) {
      this.readRune();
      c = this.peekRune();
      if (c === 0x2e) {
        fraction = true;
      } else if (c === 0x78 || c === 0x58) {
        this.readRune();
        c = this.peekRune();
        if (!isxdigit(c)) this.error(start, "invalid hex literal");
        while (isxdigit(c)) {
          this.readRune();
          c = this.peekRune();
        }
      } else if (c === 0x6f || c === 0x4f) {
        this.readRune();
        c = this.peekRune();
        if (!isodigit(c)) this.error(this.pos, "invalid octal literal");
        while (isodigit(c)) {
          this.readRune();
          c = this.peekRune();
        }
      } else if (c === 0x62 || c === 0x42) {
        this.readRune();
        c = this.peekRune();
        if (!isbdigit(c)) this.error(this.pos, "invalid binary literal");
        while (isbdigit(c)) {
          this.readRune();
          c = this.peekRune();
        }
      } else {
        let allzeros = true;
        let octal = true;
        while (isdigit(c)) {
          if (c !== 0x30) allzeros = false;
          if (c > 0x37) octal = false;
          this.readRune();
          c = this.peekRune();
        }
        if (c === 0x2e) fraction = true;
        else if (c === 0x65 || c === 0x45) exponent = true;
        else if (octal && !allzeros) {
          this.endToken(val);
          this.error(this.pos, `obsolete form of octal literal; use 0o${val.raw.slice(1)}`);
        }
      }
    } else {
      while (isdigit(c)) {
        this.readRune();
        c = this.peekRune();
      }
      if (c === 0x2e) fraction = true;
      else if (c === 0x65 || c === 0x45) exponent = true;
    }

    if (fraction) {
      this.readRune();
      c = this.peekRune();
      while (isdigit(c)) {
        this.readRune();
        c = this.peekRune();
      }
      if (c === 0x65 || c === 0x45) exponent = true;
    }
    if (exponent) {
      this.readRune();
      c = this.peekRune();
      if (c === 0x2b || c === 0x2d) {
        this.readRune();
        c = this.peekRune();
        if (!isdigit(c)) this.error(this.pos, "invalid float literal");
      }
      while (isdigit(c)) {
        this.readRune();
        c = this.peekRune();
      }
    }
    this.endToken(val);
    const s = val.raw;
    if (fraction || exponent) {
      const f = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : Number.NaN;
      if (!Number.isFinite(f)) this.error(this.pos, "invalid float literal");
      val.float = f;
      return T.FLOAT;
    }
    const v = parseIntLiteral(s);
    if (v === null) this.error(start, "invalid int literal");
    val.int = v;
    return T.INT;
  }
}

const MAX_INT64 = (1n << 63n) - 1n;

function parseIntLiteral(s: string): number | bigint | null {
  const p = s.length > 2 && s[0] === "0" ? s[1]! : "";
  if (p === "o" || p === "O" || p === "b" || p === "B") {
    const base = p === "o" || p === "O" ? "0o" : "0b";
    const v = BigInt(base + s.slice(2));
    return v > MAX_INT64 ? null : normInt(v);
  }
  if (p === "x" || p === "X") return normInt(BigInt(`0x${s.slice(2)}`));
  if (s.length > 1 && s[0] === "0") {
    // Go's ParseInt(s, 0) reads a leading 0 as octal
    if (!/^0[0-7]*$/.test(s)) return null;
    return normInt(BigInt(`0o${s.slice(1)}`));
  }
  if (s.length < 16) return Number(s);
  return normInt(BigInt(s));
}

/** Go's strconv.QuoteRune (what go.starlark.net's "%#q" of a rune prints): 'x', '\\'', '\\x01', '\\u00a0'. */
export function goQuoteRune(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const esc: Record<number, string> = { 7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v" };
  let body: string;
  if (cp === 0x27 || cp === 0x5c) body = `\\${ch}`;
  else if (cp === 0x20 || (cp > 0x20 && /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch))) body = ch;
  else if (esc[cp] !== undefined) body = `\\${esc[cp]}`;
  else if (cp < 0x20 || cp === 0x7f) body = `\\x${cp.toString(16).padStart(2, "0")}`;
  else if (cp < 0x10000) body = `\\u${cp.toString(16).padStart(4, "0")}`;
  else body = `\\U${cp.toString(16).padStart(8, "0")}`;
  return `'${body}'`;
}

/** Converts a JS source text into the byte string the scanner reads. */
export function sourceBytes(src: string | Uint8Array): string {
  if (typeof src === "string") return Buffer.from(src, "utf8").toString("latin1");
  return Buffer.from(src.buffer, src.byteOffset, src.byteLength).toString("latin1");
}
