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

/** Splits `src` into tokens. Throws RegoCompileError (rego_parse_error) on bad input. */
export function scan(file: string, src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let nl = false;
  let ws = false;
  const err = (msg: string, at = i): never => {
    throw new RegoCompileError({ file, line, col: at - lineStart + 1 }, msg, "rego_parse_error");
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === "\n") {
      i++;
      line++;
      lineStart = i;
      nl = true;
      ws = true;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      ws = true;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      ws = true;
      continue;
    }
    const start = i;
    const col = i - lineStart + 1;
    const push = (kind: TokKind, text: string, raw?: boolean) => {
      const t: Token = { kind, text, line, col, start, end: i, nl, ws };
      if (raw) t.raw = true;
      out.push(t);
      nl = false;
      ws = false;
    };
    if (isIdentStart(c)) {
      while (i < src.length && (isIdentStart(src[i] as string) || isDigit(src[i] as string))) i++;
      push("ident", src.slice(start, i));
      continue;
    }
    if (isDigit(c)) {
      while (i < src.length && isDigit(src[i] as string)) i++;
      if (src[i] === "." && isDigit(src[i + 1] ?? "")) {
        i++;
        while (i < src.length && isDigit(src[i] as string)) i++;
      }
      if (src[i] === "e" || src[i] === "E") {
        let j = i + 1;
        if (src[j] === "+" || src[j] === "-") j++;
        if (isDigit(src[j] ?? "")) {
          i = j;
          while (i < src.length && isDigit(src[i] as string)) i++;
        }
      }
      push("number", src.slice(start, i));
      continue;
    }
    if (c === '"') {
      i++;
      let s = "";
      for (;;) {
        if (i >= src.length || src[i] === "\n") err("non-terminated string", start);
        const d = src[i] as string;
        if (d === '"') {
          i++;
          break;
        }
        if (d === "\\") {
          const e = src[i + 1];
          i += 2;
          switch (e) {
            case '"':
            case "\\":
            case "/":
              s += e;
              break;
            case "b":
              s += "\b";
              break;
            case "f":
              s += "\f";
              break;
            case "n":
              s += "\n";
              break;
            case "r":
              s += "\r";
              break;
            case "t":
              s += "\t";
              break;
            case "u": {
              const hex = src.slice(i, i + 4);
              if (!/^[0-9a-fA-F]{4}$/.test(hex)) err("illegal escape sequence", i - 2);
              s += String.fromCharCode(Number.parseInt(hex, 16));
              i += 4;
              break;
            }
            default:
              err("illegal escape sequence", i - 2);
          }
          continue;
        }
        s += d;
        i++;
      }
      push("string", s);
      continue;
    }
    if (c === "`") {
      i++;
      const from = i;
      while (i < src.length && src[i] !== "`") {
        if (src[i] === "\n") {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (i >= src.length) err("non-terminated raw string", start);
      const s = src.slice(from, i);
      i++;
      push("string", s, true);
      continue;
    }
    const three = src.slice(i, i + 3);
    if (PUNCT3.has(three)) {
      i += 3;
      push("punct", three);
      continue;
    }
    const two = src.slice(i, i + 2);
    if (PUNCT2.has(two)) {
      i += 2;
      push("punct", two);
      continue;
    }
    if (PUNCT1.has(c)) {
      i++;
      push("punct", c);
      continue;
    }
    if (c === "!") err("illegal ! character");
    err(`illegal token`);
  }
  out.push({ kind: "eof", text: "", line, col: i - lineStart + 1, start: i, end: i, nl, ws });
  return out;
}
