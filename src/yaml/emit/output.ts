/**
 * The writer's state and output buffer: yaml.v3's `yaml_emitter_t` fields the emitter uses, and
 * its writing primitives (`put`, `put_break`, `yaml_emitter_write_indent`,
 * `yaml_emitter_write_indicator`, `yaml_emitter_increase_indent`, `write_break`) into a string.
 */
import { EMPTY_ANALYSIS } from "./analyze.js";
import type { Ev, EventCursor, SS } from "./events.js";

/** yaml.v3's emitter states. */
export enum S {
  DocumentStart,
  DocumentContent,
  DocumentEnd,
  FlowSequenceFirstItem,
  FlowSequenceTrailItem,
  FlowSequenceItem,
  FlowMappingFirstKey,
  FlowMappingTrailKey,
  FlowMappingKey,
  FlowMappingSimpleValue,
  FlowMappingValue,
  BlockSequenceFirstItem,
  BlockSequenceItem,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingSimpleValue,
  BlockMappingValue,
  End,
}

/** Options of the writer. */
export interface EmitOptions {
  /** kyaml's compact sequence indentation (`- ` at the parent key's column); default wide. */
  compactSeq?: boolean;
  /** Spaces per level (yaml.v3 `SetIndent`); kyaml uses 2. */
  indent?: number;
}

/** yaml.v3's `yaml_emitter_t`: what the state functions read and write while one document is written. */
export class Emitter {
  /** The text written since the last {@link flushLarge} (a rope V8 builds from the appends). */
  out = "";
  /** The text written before `out`, in pieces. */
  readonly chunks: string[] = [];
  /** The event source (null for the direct writer, which walks nodes itself). */
  readonly cursor: EventCursor | null;
  state = S.DocumentStart;
  readonly states: S[] = [];
  indent = -1;
  readonly indents: number[] = [];
  flowLevel = 0;
  readonly bestIndent: number;
  readonly compactSeq: boolean;
  column = 0;
  whitespace = true;
  indention = true;
  footIndent = -1;
  mappingContext = false;
  simpleKeyContext = false;
  headComment = "";
  lineComment = "";
  footComment = "";
  tailComment = "";
  keyLineComment = "";
  anchor = "";
  alias = false;
  tagHandle = "";
  tagSuffix = "";
  value = "";
  /** The current scalar's analysis (`A_*` bits of analyze.ts). */
  analysis = EMPTY_ANALYSIS;
  scalarStyle = 1 as SS;
  first = true;

  constructor(cursor: EventCursor | null, options: EmitOptions) {
    this.cursor = cursor;
    this.bestIndent = options.indent && options.indent >= 2 && options.indent <= 9 ? options.indent : 2;
    this.compactSeq = options.compactSeq === true;
  }

  /** The event being handled. */
  get event(): Ev {
    return this.cursor!.ev;
  }
}

/** Runs of spaces by length, made once. */
const SPACES: string[] = [];
function spaces(n: number): string {
  let s = SPACES[n];
  if (s === undefined) {
    s = " ".repeat(n);
    SPACES[n] = s;
  }
  return s;
}

/** "\n" and a run of spaces by the run's length, made once. */
const BREAK_SPACES: string[] = [];
/** "\n" followed by `n` spaces. */
export function breakAndSpaces(n: number): string {
  let s = BREAK_SPACES[n];
  if (s === undefined) {
    s = `\n${" ".repeat(n)}`;
    BREAK_SPACES[n] = s;
  }
  return s;
}

/** yaml.v3's `put` (a text without line breaks). */
export function put(em: Emitter, s: string): void {
  em.out += s;
  em.column += s.length;
}

/** yaml.v3's `put_break`. */
export function putBreak(em: Emitter): void {
  em.out += "\n";
  em.column = 0;
  em.indention = true;
}

/** yaml.v3's `write_break`: "\n" is a line break; other break characters are copied. */
export function writeBreakChar(em: Emitter, s: string, i: number): void {
  if (s.charCodeAt(i) === 10) putBreak(em);
  else {
    em.out += s[i];
    em.column = 0;
    em.indention = true;
  }
}

/** Characters of `out` from which {@link flushLarge} moves it to `chunks`. */
const CHUNK = 65536;

/** A search over a piece's text (nothing a written piece holds; its result is not used). */
const NUL = /\0/;

/**
 * Moves `out` to `chunks` once it holds 64 Ki characters (the direct writer calls it after each
 * collection item or value). V8 builds `out += s` as a tree of ~32-byte cons cells, one per append:
 * over a ResourceList they outweigh the text ~4 to 1. Searching a piece with a regexp makes V8
 * flatten it first (the cells then die young, before the next scavenge or two), and a regexp run is
 * never dropped as unused. Reading one character did not do it: V8 reads `charCodeAt(0)` down the
 * rope's left edge, so every piece stayed a rope until the final join and all its cells were
 * promoted — ~35 MB of old space per 8 MB ResourceList, most of an exec step's garbage in the CLI.
 */
export function flushLarge(em: Emitter): void {
  if (em.out.length < CHUNK) return;
  const s = em.out;
  NUL.test(s);
  em.chunks.push(s);
  em.out = "";
}

/** Everything the emitter wrote, as one string (flat when it was written in chunks). */
export function emittedText(em: Emitter): string {
  if (em.chunks.length === 0) return em.out;
  em.chunks.push(em.out);
  em.out = "";
  return em.chunks.join("");
}

/** yaml.v3's `yaml_emitter_write_indent` (with kyaml's blank line after a foot comment). */
export function writeIndent(em: Emitter): void {
  const indent = Math.max(em.indent, 0);
  if (!em.indention || em.column > indent || (em.column === indent && !em.whitespace)) {
    if (em.footIndent !== indent) {
      // The break and the indentation as one piece.
      em.out += breakAndSpaces(indent);
      em.column = indent;
      em.indention = true;
      em.whitespace = true;
      em.footIndent = -1;
      return;
    }
    putBreak(em);
  }
  if (em.footIndent === indent) putBreak(em);
  if (em.column < indent) {
    em.out += spaces(indent - em.column);
    em.column = indent;
  }
  em.whitespace = true;
  em.footIndent = -1;
}

/** yaml.v3's `yaml_emitter_write_indicator`. */
export function writeIndicator(
  em: Emitter,
  indicator: string,
  needWhitespace: boolean,
  isWhitespace: boolean,
  isIndention: boolean,
): void {
  if (needWhitespace && !em.whitespace) put(em, " ");
  put(em, indicator);
  em.whitespace = isWhitespace;
  em.indention = em.indention && isIndention;
}

/** yaml.v3's `yaml_emitter_increase_indent` (kyaml's compact sequences take 2 back). */
export function increaseIndent(em: Emitter, flow: boolean, indentless: boolean, compact = false): void {
  em.indents.push(em.indent);
  if (em.indent < 0) em.indent = flow ? em.bestIndent : 0;
  else if (!indentless) {
    if (em.states[em.states.length - 1] === S.BlockSequenceItem) em.indent += 2;
    else em.indent = em.bestIndent * Math.floor((em.indent + em.bestIndent) / em.bestIndent);
    if (compact) em.indent -= 2;
  }
}

/** Back to the enclosing indentation. */
export function popIndent(em: Emitter): void {
  em.indent = em.indents.pop()!;
}

/** Back to the enclosing state. */
export function popState(em: Emitter): void {
  em.state = em.states.pop()!;
}
