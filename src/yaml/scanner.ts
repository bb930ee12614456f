/**
 * The YAML scanner: text to tokens, with comments collected on the side as go-yaml v3's scanner
 * collects them (`scannerc.go`: head, line and foot comments tied to token positions). Works over
 * the UTF-16 char codes of a string padded with NULs; marks count code units.
 */

export enum T {
  StreamStart,
  StreamEnd,
  VersionDirective,
  TagDirective,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowSequenceEnd,
  FlowMappingStart,
  FlowMappingEnd,
  BlockEntry,
  FlowEntry,
  Key,
  Value,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

/** Scalar styles as the scanner reports them (yaml.v3's `yaml_scalar_style_t`). */
export enum SS {
  Plain = 1,
  Single = 2,
  Double = 3,
  Literal = 4,
  Folded = 5,
}

/** A position: code-unit offset, 0-based line and column. */
export interface Mark {
  index: number;
  line: number;
  column: number;
}

export interface Token {
  type: T;
  start: Mark;
  end: Mark;
  /** Scalar text, anchor/alias name, tag handle, directive handle. */
  value: string;
  /** Tag suffix or %TAG prefix. */
  suffix: string;
  style: SS;
}

export interface Comment {
  scan: Mark;
  token: Mark;
  start: Mark;
  end: Mark;
  head: string;
  line: string;
  foot: string;
}

interface SimpleKey {
  possible: boolean;
  required: boolean;
  tokenNumber: number;
  mark: Mark;
}

/** A YAML syntax error worded as yaml.v3 words it (`yaml: line N: problem`). */
export class YamlError extends Error {
  constructor(
    readonly problem: string,
    readonly mark: Mark,
    readonly context = "",
    /** yaml.v3 reports scanner errors at line+1 of their context mark. */
    readonly goLine = mark.line + 1,
  ) {
    super(`yaml: line ${goLine}: ${problem}`);
  }
}

const NUL = 0;
const SP = 32;
const TAB = 9;
const LF = 10;
const CR = 13;

function isBlank(c: number): boolean {
  return c === SP || c === TAB;
}
function isBreak(c: number): boolean {
  return c === LF || c === CR || c === 0x85 || c === 0x2028 || c === 0x2029;
}
function isBreakZ(c: number): boolean {
  return c === NUL || isBreak(c);
}
function isBlankZ(c: number): boolean {
  return c === SP || c === TAB || c === NUL || isBreak(c);
}
function isAlpha(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}
function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
function asHex(c: number): number {
  return c <= 57 ? c - 48 : c <= 70 ? c - 55 : c - 87;
}
/** Characters of a tag's URI part (yaml.v3 `scan_tag_uri`). */
function isUriChar(c: number, flow: boolean): boolean {
  if (isAlpha(c)) return true;
  switch (c) {
    case 59:
    case 47:
    case 63:
    case 58:
    case 64:
    case 38:
    case 61:
    case 43:
    case 36: // ;/?:@&=+$
    case 46:
    case 33:
    case 126:
    case 42:
    case 39:
    case 40:
    case 41:
    case 37: // .!~*'()%
      return true;
    case 44:
    case 91:
    case 93: // , [ ]
      return !flow;
    default:
      return false;
  }
}

/** go-yaml v3's scanner (tokens with a two-token lookahead for comments). */
export class Scanner {
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

  private c(offset = 0): number {
    return this.src.charCodeAt(this.pos + offset);
  }

  mark(): Mark {
    return { index: this.pos, line: this.line, column: this.column };
  }

  private skip(): void {
    if (!isBlank(this.src.charCodeAt(this.pos))) this.newlines = 0;
    this.pos++;
    this.column++;
  }

  private skipLine(): void {
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

  /** Reads a line break as "\n" (LS/PS kept) and moves past it. */
  private readLine(): string {
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

  error(problem: string, mark: Mark, context = ""): never {
    throw new YamlError(problem, mark, context, mark.line + 1);
  }

  /** The next token, fetching as needed (the parser's `peek_token` minus comment unfolding). */
  peek(): Token {
    if (!this.available()) this.fetchMore();
    return this.tokens[this.head];
  }

  private tokenAvailable = false;

  private available(): boolean {
    return this.tokenAvailable;
  }

  skipToken(): void {
    this.tokenAvailable = false;
    this.parsed++;
    this.streamEndProduced = this.tokens[this.head].type === T.StreamEnd;
    this.head++;
    if (this.head >= 4096) {
      this.tokens.splice(0, this.head - 2);
      this.head = 2;
    }
  }

  private fetchMore(): void {
    for (;;) {
      if (this.head < this.tokens.length - 2) {
        const idx = this.simpleKeysByTok.get(this.parsed);
        if (idx === undefined) break;
        if (!this.simpleKeyIsValid(this.simpleKeys[idx])) break;
      }
      this.fetchNext();
    }
    this.tokenAvailable = true;
  }

  private insert(pos: number, token: Token): void {
    if (pos < 0) this.tokens.push(token);
    else this.tokens.splice(this.head + pos, 0, token);
  }

  private tok(type: T, start: Mark, end: Mark, value = "", style: SS = SS.Plain, suffix = ""): Token {
    return { type, start, end, value, suffix, style };
  }

  private fetchNext(): void {
    if (!this.streamStartProduced) {
      this.indent = -1;
      this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: this.mark() });
      this.simpleKeyAllowed = true;
      this.streamStartProduced = true;
      const m = this.mark();
      this.insert(-1, this.tok(T.StreamStart, m, m));
      return;
    }
    const scanIndex = this.pos;
    const scanLine = this.line;
    const scanColumn = this.column;
    this.scanToNextToken();
    this.unrollIndent(this.column, scanIndex, scanLine, scanColumn);
    const c = this.c();
    if (this.pos >= this.len && c === NUL) {
      this.fetchStreamEnd();
      return;
    }
    if (this.column === 0 && c === 37 /* % */) {
      this.fetchDirective();
      return;
    }
    if (this.column === 0 && c === 45 && this.c(1) === 45 && this.c(2) === 45 && isBlankZ(this.c(3))) {
      this.fetchDocumentIndicator(T.DocumentStart);
      return;
    }
    if (this.column === 0 && c === 46 && this.c(1) === 46 && this.c(2) === 46 && isBlankZ(this.c(3))) {
      this.fetchDocumentIndicator(T.DocumentEnd);
      return;
    }
    let commentMark: Mark | undefined;
    if (this.tokens.length > 0 && ((this.flowLevel === 0 && c === 58) || (this.flowLevel > 0 && c === 44))) {
      commentMark = this.tokens[this.tokens.length - 1].start;
    }
    const at = this.pos;
    const line = this.line;
    const column = this.column;
    this.fetchToken(c);
    if (this.tokens.length > 0 && this.tokens[this.tokens.length - 1].type === T.BlockEntry) return;
    if (this.newlines > 0) return;
    this.scanLineComment(commentMark ?? { index: at, line, column });
  }

  private fetchToken(c: number): void {
    const flow = this.flowLevel > 0;
    switch (c) {
      case 91: // [
        this.fetchFlowCollectionStart(T.FlowSequenceStart);
        return;
      case 123: // {
        this.fetchFlowCollectionStart(T.FlowMappingStart);
        return;
      case 93:
        this.fetchFlowCollectionEnd(T.FlowSequenceEnd);
        return;
      case 125:
        this.fetchFlowCollectionEnd(T.FlowMappingEnd);
        return;
      case 44:
        this.fetchFlowEntry();
        return;
    }
    const next = this.c(1);
    if (c === 45 && isBlankZ(next)) {
      this.fetchBlockEntry();
      return;
    }
    if (c === 63 && (flow || isBlankZ(next))) {
      this.fetchKey();
      return;
    }
    if (c === 58 && (flow || isBlankZ(next))) {
      this.fetchValue();
      return;
    }
    if (c === 42) {
      this.fetchAnchor(T.Alias);
      return;
    }
    if (c === 38) {
      this.fetchAnchor(T.Anchor);
      return;
    }
    if (c === 33) {
      this.fetchTag();
      return;
    }
    if (c === 124 && !flow) {
      this.fetchBlockScalar(true);
      return;
    }
    if (c === 62 && !flow) {
      this.fetchBlockScalar(false);
      return;
    }
    if (c === 39) {
      this.fetchFlowScalar(true);
      return;
    }
    if (c === 34) {
      this.fetchFlowScalar(false);
      return;
    }
    const indicator =
      isBlankZ(c) ||
      c === 45 ||
      c === 63 ||
      c === 58 ||
      c === 44 ||
      c === 91 ||
      c === 93 ||
      c === 123 ||
      c === 125 ||
      c === 35 ||
      c === 38 ||
      c === 42 ||
      c === 33 ||
      c === 124 ||
      c === 62 ||
      c === 39 ||
      c === 34 ||
      c === 37 ||
      c === 64 ||
      c === 96;
    if (!indicator || (c === 45 && !isBlank(next)) || (!flow && (c === 63 || c === 58) && !isBlankZ(next))) {
      this.fetchPlainScalar();
      return;
    }
    this.error(
      "found character that cannot start any token",
      this.mark(),
      "while scanning for the next token",
    );
  }

  private simpleKeyIsValid(key: SimpleKey): boolean {
    if (!key.possible) return false;
    if (key.mark.line < this.line || key.mark.index + 1024 < this.pos) {
      if (key.required) this.error("could not find expected ':'", key.mark, "while scanning a simple key");
      key.possible = false;
      return false;
    }
    return true;
  }

  private saveSimpleKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.column;
    if (this.simpleKeyAllowed) {
      const key: SimpleKey = {
        possible: true,
        required,
        tokenNumber: this.parsed + (this.tokens.length - this.head),
        mark: this.mark(),
      };
      this.removeSimpleKey();
      this.simpleKeys[this.simpleKeys.length - 1] = key;
      this.simpleKeysByTok.set(key.tokenNumber, this.simpleKeys.length - 1);
    }
  }

  private removeSimpleKey(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1];
    if (key.possible) {
      if (key.required) this.error("could not find expected ':'", key.mark, "while scanning a simple key");
      key.possible = false;
      this.simpleKeysByTok.delete(key.tokenNumber);
    }
  }

  private increaseFlowLevel(): void {
    this.simpleKeys.push({
      possible: false,
      required: false,
      tokenNumber: this.parsed + (this.tokens.length - this.head),
      mark: this.mark(),
    });
    this.flowLevel++;
    if (this.flowLevel > 10000) this.error("exceeded max depth of 10000", this.mark());
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel > 0) {
      this.flowLevel--;
      const last = this.simpleKeys.pop()!;
      this.simpleKeysByTok.delete(last.tokenNumber);
    }
  }

  private rollIndent(column: number, number: number, type: T, mark: Mark): void {
    if (this.flowLevel > 0) return;
    if (this.indent < column) {
      this.indents.push(this.indent);
      this.indent = column;
      if (this.indents.length > 10000) this.error("exceeded max depth of 10000", mark);
      this.insert(number > -1 ? number - this.parsed : -1, this.tok(type, mark, mark));
    }
  }

  private unrollIndent(
    column: number,
    scanIndex: number,
    scanLine = this.line,
    scanColumn = this.column,
  ): void {
    if (this.flowLevel > 0 || this.indent <= column) return;
    // The block end's mark: the scan start's, its index less one.
    let blockMark: Mark = { index: scanIndex - 1, line: scanLine, column: scanColumn };
    while (this.indent > column) {
      let stop = blockMark.index;
      for (let i = this.comments.length - 1; i >= 0; i--) {
        const comment = this.comments[i];
        if (comment.end.index < stop) break;
        if (comment.start.column === this.indent + 1) blockMark = comment.start;
        stop = comment.scan.index;
      }
      this.insert(-1, this.tok(T.BlockEnd, blockMark, blockMark));
      this.indent = this.indents.pop()!;
    }
  }

  private fetchStreamEnd(): void {
    if (this.column !== 0) {
      this.column = 0;
      this.line++;
    }
    this.unrollIndent(-1, this.pos);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const m = this.mark();
    this.insert(-1, this.tok(T.StreamEnd, m, m));
  }

  private fetchDirective(): void {
    this.unrollIndent(-1, this.pos);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanDirective());
  }

  private fetchDocumentIndicator(type: T): void {
    this.unrollIndent(-1, this.pos);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.skip();
    this.skip();
    this.insert(-1, this.tok(type, start, this.mark()));
  }

  private fetchFlowCollectionStart(type: T): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.insert(-1, this.tok(type, start, this.mark()));
  }

  private fetchFlowCollectionEnd(type: T): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.insert(-1, this.tok(type, start, this.mark()));
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.insert(-1, this.tok(T.FlowEntry, start, this.mark()));
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed)
        this.error("block sequence entries are not allowed in this context", this.mark());
      this.rollIndent(this.column, -1, T.BlockSequenceStart, this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.insert(-1, this.tok(T.BlockEntry, start, this.mark()));
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) this.error("mapping keys are not allowed in this context", this.mark());
      this.rollIndent(this.column, -1, T.BlockMappingStart, this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    const start = this.mark();
    this.skip();
    this.insert(-1, this.tok(T.Key, start, this.mark()));
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1];
    if (this.simpleKeyIsValid(key)) {
      this.insert(key.tokenNumber - this.parsed, this.tok(T.Key, key.mark, key.mark));
      this.rollIndent(key.mark.column, key.tokenNumber, T.BlockMappingStart, key.mark);
      key.possible = false;
      this.simpleKeysByTok.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) this.error("mapping values are not allowed in this context", this.mark());
        this.rollIndent(this.column, -1, T.BlockMappingStart, this.mark());
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    const start = this.mark();
    this.skip();
    this.insert(-1, this.tok(T.Value, start, this.mark()));
  }

  private fetchAnchor(type: T): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    const from = this.pos;
    while (isAlpha(this.c())) this.skip();
    const name = this.src.slice(from, this.pos);
    const c = this.c();
    if (
      name.length === 0 ||
      !(
        isBlankZ(c) ||
        c === 63 ||
        c === 58 ||
        c === 44 ||
        c === 93 ||
        c === 125 ||
        c === 37 ||
        c === 64 ||
        c === 96
      )
    ) {
      this.error(
        "did not find expected alphabetic or numeric character",
        start,
        type === T.Anchor ? "while scanning an anchor" : "while scanning an alias",
      );
    }
    this.insert(-1, this.tok(type, start, this.mark(), name));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    let handle = "";
    let suffix = "";
    if (this.c(1) === 60 /* < */) {
      this.skip();
      this.skip();
      suffix = this.scanUri(start);
      if (this.c() !== 62) this.error("did not find the expected '>'", start, "while scanning a tag");
      this.skip();
    } else {
      handle = this.scanTagHandle(start);
      if (handle.length > 1 && handle.endsWith("!")) {
        suffix = this.scanUri(start);
      } else {
        suffix = handle.slice(1) + this.scanUri(start);
        handle = "!";
        if (suffix === "") {
          handle = "";
          suffix = "!";
        }
      }
    }
    if (!isBlankZ(this.c()) && !(this.flowLevel > 0 && this.c() === 44)) {
      this.error("did not find expected whitespace or line break", start, "while scanning a tag");
    }
    this.insert(-1, this.tok(T.Tag, start, this.mark(), handle, SS.Plain, suffix));
  }

  private scanTagHandle(start: Mark): string {
    if (this.c() !== 33) this.error("did not find expected '!'", start, "while scanning a tag");
    const from = this.pos;
    this.skip();
    while (isAlpha(this.c())) this.skip();
    if (this.c() === 33) this.skip();
    return this.src.slice(from, this.pos);
  }

  private scanUri(start: Mark): string {
    let out = "";
    const flow = this.flowLevel > 0;
    for (;;) {
      const c = this.c();
      if (c === 37 /* % */) {
        // %-escaped UTF-8 octets.
        const bytes: number[] = [];
        while (this.c() === 37) {
          if (!isHex(this.c(1)) || !isHex(this.c(2)))
            this.error("did not find URI escaped octet", start, "while parsing a tag");
          bytes.push(asHex(this.c(1)) * 16 + asHex(this.c(2)));
          this.skip();
          this.skip();
          this.skip();
        }
        out += Buffer.from(bytes).toString("utf8");
        continue;
      }
      if (!isUriChar(c, flow)) break;
      out += this.src[this.pos];
      this.skip();
    }
    return out;
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.insert(-1, this.scanBlockScalar(literal));
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanFlowScalar(single));
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanPlainScalar());
  }

  private scanToNextToken(): void {
    let scanMark: Mark | undefined;
    const scanIndex = this.pos;
    const scanLine = this.line;
    const scanColumn = this.column;
    const src = this.src;
    for (;;) {
      if (this.column === 0 && src.charCodeAt(this.pos) === 0xfeff) this.skip();
      const tabs = this.flowLevel > 0 || !this.simpleKeyAllowed;
      let p = this.pos;
      for (let c = src.charCodeAt(p); c === SP || (tabs && c === TAB); c = src.charCodeAt(++p));
      if (p > this.pos) {
        this.column += p - this.pos;
        this.pos = p;
      }
      const n = this.tokens.length;
      if (this.comments.length > 0 && n > 1) {
        const a = this.tokens[n - 2];
        const b = this.tokens[n - 1];
        const comment = this.comments[this.comments.length - 1];
        if (
          a.type === T.BlockSequenceStart &&
          b.type === T.BlockEntry &&
          comment.line.length > 0 &&
          !isBreak(this.c())
        ) {
          comment.head = comment.line;
          comment.line = "";
          if (comment.start.line === this.line - 1) comment.token = this.mark();
        }
      }
      if (this.c() === 35) {
        scanMark ??= { index: scanIndex, line: scanLine, column: scanColumn };
        this.scanComments(scanMark);
      }
      if (isBreak(this.c())) {
        this.skipLine();
        if (this.flowLevel === 0) this.simpleKeyAllowed = true;
      } else break;
    }
  }

  private scanDirective(): Token {
    const start = this.mark();
    this.skip();
    const from = this.pos;
    while (isAlpha(this.c())) this.skip();
    const name = this.src.slice(from, this.pos);
    if (name === "" || !isBlankZ(this.c())) {
      this.error("could not find expected directive name", start, "while scanning a directive");
    }
    let token: Token;
    while (isBlank(this.c())) this.skip();
    if (name === "YAML") {
      const vFrom = this.pos;
      while (!isBlankZ(this.c())) this.skip();
      const version = this.src.slice(vFrom, this.pos);
      if (!/^\d+\.\d+$/.test(version))
        this.error("did not find expected version number", start, "while scanning a %YAML directive");
      token = this.tok(T.VersionDirective, start, this.mark(), version);
    } else if (name === "TAG") {
      const handle = this.scanTagHandle(start);
      if (!isBlank(this.c()))
        this.error("did not find expected whitespace", start, "while scanning a %TAG directive");
      while (isBlank(this.c())) this.skip();
      const prefix = this.scanUri(start);
      token = this.tok(T.TagDirective, start, this.mark(), handle, SS.Plain, prefix);
    } else {
      this.error("found unknown directive name", start, "while scanning a directive");
    }
    while (isBlank(this.c())) this.skip();
    if (this.c() === 35) while (!isBreakZ(this.c())) this.skip();
    if (!isBreakZ(this.c()))
      this.error("did not find expected comment or line break", start, "while scanning a directive");
    if (isBreak(this.c())) this.skipLine();
    return token;
  }

  private scanBlockScalar(literal: boolean): Token {
    const start = this.mark();
    this.skip();
    let chomping = 0;
    let increment = 0;
    let c = this.c();
    if (c === 43 || c === 45) {
      chomping = c === 43 ? 1 : -1;
      this.skip();
      c = this.c();
      if (c >= 48 && c <= 57) {
        if (c === 48)
          this.error("found an indentation indicator equal to 0", start, "while scanning a block scalar");
        increment = c - 48;
        this.skip();
      }
    } else if (c >= 48 && c <= 57) {
      if (c === 48)
        this.error("found an indentation indicator equal to 0", start, "while scanning a block scalar");
      increment = c - 48;
      this.skip();
      c = this.c();
      if (c === 43 || c === 45) {
        chomping = c === 43 ? 1 : -1;
        this.skip();
      }
    }
    while (isBlank(this.c())) this.skip();
    if (this.c() === 35) {
      this.scanLineComment(start);
      while (!isBreakZ(this.c())) this.skip();
    }
    if (!isBreakZ(this.c()))
      this.error("did not find expected comment or line break", start, "while scanning a block scalar");
    if (isBreak(this.c())) this.skipLine();
    let end = this.mark();
    let indent = 0;
    if (increment > 0) indent = this.indent >= 0 ? this.indent + increment : increment;
    let s = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    const breaks = (): void => {
      end = this.mark();
      let maxIndent = 0;
      for (;;) {
        while ((indent === 0 || this.column < indent) && this.c() === SP) this.skip();
        if (this.column > maxIndent) maxIndent = this.column;
        if ((indent === 0 || this.column < indent) && this.c() === TAB) {
          this.error(
            "found a tab character where an indentation space is expected",
            start,
            "while scanning a block scalar",
          );
        }
        if (!isBreak(this.c())) break;
        trailingBreaks += this.readLine();
        end = this.mark();
      }
      if (indent === 0) {
        indent = maxIndent;
        if (indent < this.indent + 1) indent = this.indent + 1;
        if (indent < 1) indent = 1;
      }
    };
    breaks();
    let leadingBlank = false;
    while (this.column === indent && !(this.c() === NUL && this.pos >= this.len)) {
      const trailingBlank = isBlank(this.c());
      if (
        !literal &&
        !leadingBlank &&
        !trailingBlank &&
        leadingBreak.length > 0 &&
        leadingBreak[0] === "\n"
      ) {
        if (trailingBreaks.length === 0) s += " ";
      } else s += leadingBreak;
      leadingBreak = "";
      s += trailingBreaks;
      trailingBreaks = "";
      leadingBlank = isBlank(this.c());
      const from = this.pos;
      const src = this.src;
      let p = from;
      for (let d = src.charCodeAt(p); !(isBreak(d) || (d === NUL && p >= this.len)); d = src.charCodeAt(++p));
      this.column += p - from;
      this.pos = p;
      s += src.slice(from, p);
      this.newlines = 0;
      leadingBreak = this.readLine();
      breaks();
    }
    if (chomping !== -1) s += leadingBreak;
    if (chomping === 1) s += trailingBreaks;
    return this.tok(T.Scalar, start, end, s, literal ? SS.Literal : SS.Folded);
  }

  private scanFlowScalar(single: boolean): Token {
    const start = this.mark();
    this.skip();
    let s = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    let whitespaces = "";
    for (;;) {
      const c0 = this.c();
      if (
        this.column === 0 &&
        ((c0 === 45 && this.c(1) === 45 && this.c(2) === 45) ||
          (c0 === 46 && this.c(1) === 46 && this.c(2) === 46)) &&
        isBlankZ(this.c(3))
      ) {
        this.error("found unexpected document indicator", start, "while scanning a quoted scalar");
      }
      if (c0 === NUL && this.pos >= this.len)
        this.error("found unexpected end of stream", start, "while scanning a quoted scalar");
      let leadingBlanks = false;
      while (!isBlankZ(this.c()) || (this.c() === NUL && this.pos < this.len)) {
        const c = this.c();
        if (single && c === 39 && this.c(1) === 39) {
          s += "'";
          this.skip();
          this.skip();
        } else if (single && c === 39) break;
        else if (!single && c === 34) break;
        else if (!single && c === 92 && isBreak(this.c(1))) {
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          break;
        } else if (!single && c === 92) {
          s += this.scanEscape(start);
        } else {
          // A run of ordinary characters at once.
          const from = this.pos;
          this.skip();
          for (;;) {
            const d = this.c();
            if (isBlankZ(d) || d === 39 || d === 34 || d === 92) break;
            this.pos++;
            this.column++;
          }
          s += this.src.slice(from, this.pos);
        }
      }
      const q = this.c();
      if (single ? q === 39 : q === 34) break;
      while (isBlank(this.c()) || isBreak(this.c())) {
        if (isBlank(this.c())) {
          if (!leadingBlanks) whitespaces += this.src[this.pos];
          this.skip();
        } else if (!leadingBlanks) {
          whitespaces = "";
          leadingBreak = this.readLine();
          leadingBlanks = true;
        } else trailingBreaks += this.readLine();
      }
      if (leadingBlanks) {
        if (leadingBreak.length > 0 && leadingBreak[0] === "\n") {
          s += trailingBreaks.length === 0 ? " " : trailingBreaks;
        } else s += leadingBreak + trailingBreaks;
        trailingBreaks = "";
        leadingBreak = "";
      } else {
        s += whitespaces;
        whitespaces = "";
      }
    }
    this.skip();
    return this.tok(T.Scalar, start, this.mark(), s, single ? SS.Single : SS.Double);
  }

  private scanEscape(start: Mark): string {
    const e = this.c(1);
    let codeLength = 0;
    let out = "";
    switch (e) {
      case 48:
        out = "\0";
        break;
      case 97:
        out = "\x07";
        break;
      case 98:
        out = "\b";
        break;
      case 116:
      case 9:
        out = "\t";
        break;
      case 110:
        out = "\n";
        break;
      case 118:
        out = "\v";
        break;
      case 102:
        out = "\f";
        break;
      case 114:
        out = "\r";
        break;
      case 101:
        out = "\x1b";
        break;
      case 32:
        out = " ";
        break;
      case 34:
        out = '"';
        break;
      case 39:
        out = "'";
        break;
      case 92:
        out = "\\";
        break;
      case 78:
        out = "\x85";
        break;
      case 95:
        out = "\xa0";
        break;
      case 76:
        out = "\u2028";
        break;
      case 80:
        out = "\u2029";
        break;
      case 120:
        codeLength = 2;
        break;
      case 117:
        codeLength = 4;
        break;
      case 85:
        codeLength = 8;
        break;
      default:
        this.error("found unknown escape character", start, "while parsing a quoted scalar");
    }
    this.skip();
    this.skip();
    if (codeLength > 0) {
      let value = 0;
      for (let k = 0; k < codeLength; k++) {
        if (!isHex(this.c(k)))
          this.error("did not find expected hexdecimal number", start, "while parsing a quoted scalar");
        value = value * 16 + asHex(this.c(k));
      }
      if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
        this.error("found invalid Unicode character escape code", start, "while parsing a quoted scalar");
      }
      out = String.fromCodePoint(value);
      for (let k = 0; k < codeLength; k++) this.skip();
    }
    return out;
  }

  private scanPlainScalar(): Token {
    let s = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    let whitespaces = "";
    let leadingBlanks = false;
    const indent = this.indent + 1;
    const start = this.mark();
    let endPos = -1;
    let endLine = 0;
    let endColumn = 0;
    const flow = this.flowLevel > 0;
    for (;;) {
      const c0 = this.c();
      if (
        this.column === 0 &&
        ((c0 === 45 && this.c(1) === 45 && this.c(2) === 45) ||
          (c0 === 46 && this.c(1) === 46 && this.c(2) === 46)) &&
        isBlankZ(this.c(3))
      ) {
        break;
      }
      if (c0 === 35) break;
      while (!isBlankZ(this.c())) {
        const c = this.c();
        if (
          (c === 58 && isBlankZ(this.c(1))) ||
          (flow && (c === 44 || c === 63 || c === 91 || c === 93 || c === 123 || c === 125))
        ) {
          break;
        }
        if (leadingBlanks || whitespaces.length > 0) {
          if (leadingBlanks) {
            if (leadingBreak[0] === "\n") s += trailingBreaks.length === 0 ? " " : trailingBreaks;
            else s += leadingBreak + trailingBreaks;
            trailingBreaks = "";
            leadingBreak = "";
            leadingBlanks = false;
          } else {
            s += whitespaces;
            whitespaces = "";
          }
        }
        // A run of characters that cannot end the scalar.
        const from = this.pos;
        this.skip();
        const src = this.src;
        let p = this.pos;
        for (;;) {
          const d = src.charCodeAt(p);
          if (
            d <= 32
              ? d === SP || d === TAB || d === LF || d === CR || d === NUL
              : d === 58 ||
                d === 0x85 ||
                d === 0x2028 ||
                d === 0x2029 ||
                (flow && (d === 44 || d === 63 || d === 91 || d === 93 || d === 123 || d === 125))
          )
            break;
          p++;
        }
        this.column += p - this.pos;
        this.pos = p;
        s = s.length === 0 ? src.slice(from, p) : s + src.slice(from, p);
        endPos = p;
        endLine = this.line;
        endColumn = this.column;
      }
      if (!(isBlank(this.c()) || isBreak(this.c()))) break;
      while (isBlank(this.c()) || isBreak(this.c())) {
        if (isBlank(this.c())) {
          if (leadingBlanks && this.column < indent && this.c() === TAB) {
            this.error(
              "found a tab character that violates indentation",
              start,
              "while scanning a plain scalar",
            );
          }
          if (!leadingBlanks) whitespaces += this.src[this.pos];
          this.skip();
        } else if (!leadingBlanks) {
          whitespaces = "";
          leadingBreak = this.readLine();
          leadingBlanks = true;
        } else trailingBreaks += this.readLine();
      }
      if (!flow && this.column < indent) break;
    }
    if (leadingBlanks) this.simpleKeyAllowed = true;
    const end = endPos < 0 ? start : { index: endPos, line: endLine, column: endColumn };
    return this.tok(T.Scalar, start, end, s, SS.Plain);
  }

  private scanLineComment(tokenMark: Mark): void {
    if (this.newlines > 0) return;
    let peek = 0;
    while (isBlank(this.c(peek))) peek++;
    if (this.c(peek) !== 35) return;
    const seen = this.pos + peek;
    let startMark: Mark | undefined;
    let text = "";
    for (;;) {
      const c = this.c();
      if (isBreakZ(c) && !(c === NUL && this.pos < this.len)) {
        if (this.pos >= seen) break;
        this.skipLine();
      } else if (this.pos >= seen) {
        if (text.length === 0) startMark = this.mark();
        const from = this.pos;
        while (!isBreakZ(this.c()) || (this.c() === NUL && this.pos < this.len)) {
          this.pos++;
          this.column++;
        }
        text += this.src.slice(from, this.pos);
        this.newlines = 0;
      } else this.skip();
    }
    if (text.length > 0) {
      this.comments.push({
        scan: tokenMark,
        token: tokenMark,
        start: startMark!,
        end: this.mark(),
        head: "",
        line: text,
        foot: "",
      });
    }
  }

  private scanComments(scanMarkIn: Mark): void {
    let scanMark = scanMarkIn;
    let token = this.tokens[this.tokens.length - 1];
    if (token.type === T.FlowEntry && this.tokens.length > 1) token = this.tokens[this.tokens.length - 2];
    let tokenMark = token.start;
    let startMark: Mark = { index: 0, line: 0, column: 0 };
    let nextIndent = Math.max(this.indent, 0);
    let recentEmpty = false;
    let firstEmpty = this.newlines <= 1;
    let line = this.line;
    let column = this.column;
    let text = "";
    let footLine = -1;
    if (scanMark.line > 0) {
      footLine = this.line - this.newlines + 1;
      if (this.newlines === 0 && this.column > 1) footLine++;
    }
    let peek = 0;
    for (; peek < 512; peek++) {
      column++;
      const c = this.c(peek);
      if (isBlank(c)) continue;
      const closeFlow = this.flowLevel > 0 && (c === 93 || c === 125);
      if (closeFlow || isBreakZ(c)) {
        if (closeFlow || !recentEmpty) {
          if (
            closeFlow ||
            (firstEmpty &&
              ((startMark.line === footLine && token.type !== T.Value) || startMark.column - 1 < nextIndent))
          ) {
            if (text.length > 0) {
              if (startMark.column - 1 < nextIndent) tokenMark = startMark;
              const endMark = { index: this.pos + peek, line, column };
              this.comments.push({
                scan: scanMark,
                token: tokenMark,
                start: startMark,
                end: endMark,
                head: "",
                line: "",
                foot: text,
              });
              scanMark = endMark;
              tokenMark = scanMark;
              text = "";
            }
          } else if (text.length > 0 && c !== NUL) {
            text += "\n";
          }
        }
        if (!isBreak(c)) break;
        firstEmpty = false;
        recentEmpty = true;
        column = 0;
        line++;
        continue;
      }
      if (text.length > 0 && (closeFlow || (column - 1 < nextIndent && column !== startMark.column))) {
        const endMark = { index: this.pos + peek, line, column };
        this.comments.push({
          scan: scanMark,
          token: tokenMark,
          start: startMark,
          end: endMark,
          head: "",
          line: "",
          foot: text,
        });
        scanMark = endMark;
        tokenMark = scanMark;
        text = "";
      }
      if (c !== 35) break;
      if (text.length === 0) startMark = { index: this.pos + peek, line, column };
      else text += "\n";
      recentEmpty = false;
      // Consume up to and through the comment line.
      const seen = this.pos + peek;
      for (;;) {
        const d = this.c();
        if (isBreakZ(d) && !(d === NUL && this.pos < this.len)) {
          if (this.pos >= seen) break;
          this.skipLine();
        } else if (this.pos >= seen) {
          const from = this.pos;
          while (!isBreakZ(this.c()) || (this.c() === NUL && this.pos < this.len)) {
            this.pos++;
            this.column++;
          }
          text += this.src.slice(from, this.pos);
          this.newlines = 0;
        } else this.skip();
      }
      // As yaml.v3 does, the next look starts one past the comment's line break.
      peek = 0;
      column = 0;
      line = this.line;
      nextIndent = Math.max(this.indent, 0);
    }
    if (text.length > 0) {
      const endMark = { index: this.pos + peek - 1, line, column };
      this.comments.push({
        scan: scanMark,
        token: startMark,
        start: startMark,
        end: endMark,
        head: text,
        line: "",
        foot: "",
      });
    }
  }
}
