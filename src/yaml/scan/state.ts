/**
 * The scanner's state (the scanner fields of go-yaml v3's `yaml_parser_t`) and its reader
 * primitives (`readerc.go` and the `skip`, `skip_line`, `read_line` helpers of `scannerc.go`).
 * Works over the UTF-16 char codes of a string padded with NULs; marks count code units.
 */
import { CR, isBlank, isBreak, LF } from "./chars.js";
import { type Comment, type Mark, SS, type T, type Token, YamlError } from "./tokens.js";

/** A possible simple key (yaml.v3's `yaml_simple_key_t`). */
export interface SimpleKey {
  possible: boolean;
  required: boolean;
  tokenNumber: number;
  mark: Mark;
}

/** The scanner's state; the scanning phases are functions over it (`fetch.ts`, `plain.ts`, ...). */
export class ScanState {
  readonly src: string;
  readonly len: number;
  pos = 0;
  line = 0;
  column = 0;
  newlines = 0;

  tokens: Token[] = [];
  head = 0;
  parsed = 0;
  streamStartProduced = false;
  streamEndProduced = false;
  indent = -1;
  indents: number[] = [];
  simpleKeyAllowed = false;
  simpleKeys: SimpleKey[] = [];
  simpleKeysByTok = new Map<number, number>();
  flowLevel = 0;
  comments: Comment[] = [];
  commentsHead = 0;

  constructor(text: string) {
    this.src = `${text.length === 0 ? "\n" : text}\0\0\0\0`;
    this.len = this.src.length - 4;
  }

  /** The char code `offset` past the position. */
  c(offset = 0): number {
    return this.src.charCodeAt(this.pos + offset);
  }

  mark(): Mark {
    return { index: this.pos, line: this.line, column: this.column };
  }

  /** Moves one character on (yaml.v3's `skip`). */
  skip(): void {
    if (!isBlank(this.src.charCodeAt(this.pos))) this.newlines = 0;
    this.pos++;
    this.column++;
  }

  /** Moves past a line break, CRLF as one (yaml.v3's `skip_line`). */
  skipLine(): void {
    const c = this.src.charCodeAt(this.pos);
    if (c === CR && this.src.charCodeAt(this.pos + 1) === LF) {
      this.pos += 2;
    } else if (isBreak(c)) {
      this.pos++;
    } else return;
    this.column = 0;
    this.line++;
    this.newlines++;
  }

  /** Reads a line break as "\n" (LS/PS kept) and moves past it (yaml.v3's `read_line`). */
  readLine(): string {
    const c = this.src.charCodeAt(this.pos);
    let out = "\n";
    if (c === CR && this.src.charCodeAt(this.pos + 1) === LF) this.pos += 2;
    else if (c === CR || c === LF || c === 0x85) this.pos++;
    else if (c === 0x2028 || c === 0x2029) {
      out = String.fromCharCode(c);
      this.pos++;
    } else return "";
    this.column = 0;
    this.line++;
    this.newlines++;
    return out;
  }

  /** @throws YamlError, reported at the line after `mark`'s as yaml.v3's scanner errors are. */
  error(problem: string, mark: Mark, context = ""): never {
    throw new YamlError(problem, mark, context, mark.line + 1);
  }

  /** Queues a token at the end (`pos` < 0) or `pos` places after the head. */
  insert(pos: number, token: Token): void {
    if (pos < 0) this.tokens.push(token);
    else this.tokens.splice(this.head + pos, 0, token);
  }

  tok(type: T, start: Mark, end: Mark, value = "", style: SS = SS.Plain, suffix = ""): Token {
    return { type, start, end, value, suffix, style };
  }
}
