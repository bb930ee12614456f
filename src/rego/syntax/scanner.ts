/** The Rego scanner (OPA's `ast/internal/scanner`): tokens with positions and whether a newline precedes. */
import { RegoCompileError } from "../errors.js";

export type TokKind = "ident" | "string" | "number" | "punct" | "eof";

export interface Token {
  kind: TokKind;
  /** Identifier, punctuation, or a number's text; a string's decoded value. */
  text: string;
  line: number;
  col: number;
  /** Offset in the source of the token's start and end. */
  start: number;
  end: number;
  /** A newline lies between the previous token and this one. */
  nl: boolean;
  /** Whitespace or a comment lies between the previous token and this one. */
  ws: boolean;
  raw?: boolean;
}

const PUNCT3 = new Set<string>();
const PUNCT2 = new Set([":=", "==", "!=", "<=", ">="]);
const PUNCT1 = new Set([
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  ".",
  ",",
  ";",
  ":",
  "=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "|",
  "&",
]);

function isIdentStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}
function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** The scanner's state over one source (OPA's `Scanner`: offset, line, the line's start). */
class Scanner {
  readonly out: Token[] = [];
  i = 0;
  line = 1;
  lineStart = 0;
  nl = false;
  ws = false;
  start = 0;
  col = 1;

  constructor(
    readonly file: string,
    readonly src: string,
  ) {}

  err(msg: string, at = this.i): never {
    throw new RegoCompileError(
      { file: this.file, line: this.line, col: at - this.lineStart + 1 },
      msg,
      "rego_parse_error",
    );
  }

  push(kind: TokKind, text: string, raw?: boolean): void {
    const { line, col, start, i: end, nl, ws } = this;
    const t: Token = { kind, text, line, col, start, end, nl, ws };
    if (raw) t.raw = true;
    this.out.push(t);
    this.nl = false;
    this.ws = false;
  }

  /** Skips a newline, blanks or a `#` comment; whether it did. */
  space(c: string): boolean {
    const { src } = this;
    if (c === "\n") {
      this.i++;
      this.line++;
      this.lineStart = this.i;
      this.nl = true;
    } else if (c === " " || c === "\t" || c === "\r") this.i++;
    else if (c === "#") {
      while (this.i < src.length && src[this.i] !== "\n") this.i++;
    } else return false;
    this.ws = true;
    return true;
  }

  digits(): void {
    while (this.i < this.src.length && isDigit(this.src[this.i] as string)) this.i++;
  }

  /** Digits, an optional fraction and exponent (OPA's `scanNumber`). */
  number(): void {
    const { src } = this;
    this.digits();
    if (src[this.i] === "." && isDigit(src[this.i + 1] ?? "")) {
      this.i++;
      this.digits();
    }
    if (src[this.i] === "e" || src[this.i] === "E") {
      let j = this.i + 1;
      if (src[j] === "+" || src[j] === "-") j++;
      if (isDigit(src[j] ?? "")) {
        this.i = j;
        this.digits();
      }
    }
    this.push("number", src.slice(this.start, this.i));
  }

  /** A double-quoted string with JSON's escapes (OPA's `scanString`), decoded. */
  string(): void {
    const { src } = this;
    this.i++;
    let s = "";
    for (;;) {
      if (this.i >= src.length || src[this.i] === "\n") this.err("non-terminated string", this.start);
      const d = src[this.i] as string;
      if (d === '"') {
        this.i++;
        break;
      }
      if (d === "\\") {
        s += this.escape();
        continue;
      }
      s += d;
      this.i++;
    }
    this.push("string", s);
  }

  escape(): string {
    const { src } = this;
    const e = src[this.i + 1] as string;
    this.i += 2;
    const simple = ESCAPES[e];
    if (simple !== undefined) return simple;
    if (e !== "u") this.err("illegal escape sequence", this.i - 2);
    const hex = src.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.err("illegal escape sequence", this.i - 2);
    this.i += 4;
    return String.fromCharCode(Number.parseInt(hex, 16));
  }

  /** A backquoted raw string (OPA's `scanRawString`); it may span lines. */
  rawString(): void {
    const { src } = this;
    this.i++;
    const from = this.i;
    while (this.i < src.length && src[this.i] !== "`") {
      if (src[this.i] === "\n") {
        this.line++;
        this.lineStart = this.i + 1;
      }
      this.i++;
    }
    if (this.i >= src.length) this.err("non-terminated raw string", this.start);
    const s = src.slice(from, this.i);
    this.i++;
    this.push("string", s, true);
  }

  /** An operator or delimiter, longest first; anything else is an illegal token. */
  punct(c: string): void {
    const { src, i } = this;
    for (const [set, n] of [
      [PUNCT3, 3],
      [PUNCT2, 2],
      [PUNCT1, 1],
    ] as const) {
      const p = src.slice(i, i + n);
      if (set.has(p)) {
        this.i += n;
        this.push("punct", p);
        return;
      }
    }
    if (c === "!") this.err("illegal ! character");
    this.err("illegal token");
  }

  /** The next token (or skipped space) at the current offset. */
  step(): void {
    const { src } = this;
    const c = src[this.i] as string;
    if (this.space(c)) return;
    this.start = this.i;
    this.col = this.i - this.lineStart + 1;
    if (isIdentStart(c)) {
      while (this.i < src.length && (isIdentStart(src[this.i] as string) || isDigit(src[this.i] as string)))
        this.i++;
      this.push("ident", src.slice(this.start, this.i));
    } else if (isDigit(c)) this.number();
    else if (c === '"') this.string();
    else if (c === "`") this.rawString();
    else this.punct(c);
  }
}

/** Splits `src` into tokens. Throws RegoCompileError (rego_parse_error) on bad input. */
export function scan(file: string, src: string): Token[] {
  const s = new Scanner(file, src);
  while (s.i < src.length) s.step();
  const { line, i, lineStart, nl, ws } = s;
  s.out.push({ kind: "eof", text: "", line, col: i - lineStart + 1, start: i, end: i, nl, ws });
  return s.out;
}
