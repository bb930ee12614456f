/**
 * Regular expressions with Go's `regexp` semantics (RE2 syntax, leftmost-first matching, linear time),
 * over `re2js` (a pure-JavaScript port of RE2). kpt and the function catalog are written in Go, so every
 * regular expression a user writes (a Kptfile selector's `resourceFileRegexp`, `search-replace`'s
 * `by-value-regex`, a Starlark `re` call) must be compiled here: a pattern like `(a+)+$` that makes a
 * backtracking engine run for minutes finishes in time linear in the input.
 *
 * Positions are UTF-16 code-unit offsets into the JavaScript string (Go's are byte offsets); a match
 * never splits a surrogate pair.
 */
import { createRequire } from "node:module";
import type { RE2JS } from "re2js";

let re2js: typeof import("re2js") | undefined;
/** The re2js module, loaded on the first compile (synchronously: it ships CommonJS) — most renders compile none. */
function re2jsModule(): typeof import("re2js") {
  re2js ??= createRequire(import.meta.url)("re2js") as typeof import("re2js");
  return re2js;
}

/**
 * A pattern that does not compile. `message` is Go's (`error parsing regexp: missing closing ): \`(a\``),
 * so error texts read like kpt's.
 */
export class Re2SyntaxError extends Error {
  override readonly name = "Re2SyntaxError";
}

/** Go's `regexp.Regexp`, for one compiled pattern. Stateless: safe to share and reuse. */
export interface Re2 {
  /** The pattern as written. */
  readonly source: string;
  /** Number of parenthesized subexpressions (Go's `NumSubexp`). */
  readonly numSubexp: number;
  /** Names of the subexpressions, index 0 (the whole match) and unnamed ones `""` (Go's `SubexpNames`). */
  readonly subexpNames: readonly string[];
  /** Whether `text` contains a match (Go's `MatchString`; unanchored). */
  test(text: string): boolean;
  /**
   * The leftmost match and its groups (Go's `FindStringSubmatch`): `[match, group1, ...]`, a group that
   * did not take part in the match is `undefined` (Go gives `""`). `undefined` when nothing matches.
   */
  findSubmatch(text: string): (string | undefined)[] | undefined;
  /**
   * Offsets of the leftmost match at or after `from` (default 0) and of its groups, as Go's
   * `FindStringSubmatchIndex`: `[start0, end0, start1, end1, ...]`, -1 for a group that did not match.
   * Text before `from` still counts for `^` and `\b`.
   */
  findSubmatchIndex(text: string, from?: number): number[] | undefined;
  /**
   * Successive non-overlapping matches (Go's `FindAllStringSubmatchIndex`): at most `n` when `n >= 0`;
   * an empty match right after a previous match is skipped.
   */
  findAllSubmatchIndex(text: string, n?: number): number[][];
  /** The matched strings of {@link findAllSubmatchIndex} (Go's `FindAllString`). */
  findAll(text: string, n?: number): string[];
  /**
   * Go's `ReplaceAllString`: every match replaced by `template`, in which `$1`, `${1}`, `$name` and
   * `${name}` stand for a group (the longest run of letters, digits and `_` forms the name, so `$1x` is
   * the group named `1x`: empty), an unknown or unmatched group is empty and `$$` is a literal `$`.
   */
  replaceAll(text: string, template: string): string;
  /** Go's `ReplaceAllLiteralString`: every match replaced by `replacement`, taken as is. */
  replaceAllLiteral(text: string, replacement: string): string;
  /** Go's `ReplaceAllStringFunc` with the groups too: `replace(match, groups)` gives each replacement. */
  replaceAllFunc(text: string, replace: (match: string, groups: (string | undefined)[]) => string): string;
  /** Go's `Expand`: `template` with its `$` references resolved against one match of `text`. */
  expand(template: string, text: string, match: readonly number[]): string;
  /** Go's `Split`: the substrings between matches; `n` < 0 all, 0 none, > 0 at most `n` (the last one the rest). */
  split(text: string, n?: number): string[];
}

const CACHE_LIMIT = 512;
const cache = new Map<string, Re2>();

/**
 * Compiles `pattern` with Go's `regexp.Compile` semantics (Perl-like RE2 syntax: `(?P<name>…)` and
 * `(?<name>…)` groups, `(?i)` flags, `\pL`, `[[:alpha:]]`, `\Q…\E`; no backreferences or lookaround).
 * Compiled patterns are cached (bounded).
 * @throws Re2SyntaxError with Go's message when the pattern does not compile.
 */
export function compileRe2(pattern: string): Re2 {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const { RE2JS, RE2JSException } = re2jsModule();
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (err) {
    if (err instanceof RE2JSException) throw new Re2SyntaxError(err.message);
    throw err;
  }
  const re = new GoRegexp(pattern, compiled);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, re);
  return re;
}

/** Go's `regexp.QuoteMeta`: `text` escaped so that it matches itself literally. */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, "\\$&");
}

/** Length of the code point at `pos` (2 for a surrogate pair, 1 otherwise, 0 at the end). */
function widthAt(text: string, pos: number): number {
  if (pos >= text.length) return 0;
  const code = text.charCodeAt(pos);
  if (code >= 0xd800 && code <= 0xdbff && pos + 1 < text.length) {
    const next = text.charCodeAt(pos + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 2;
  }
  return 1;
}

const NAME_CHAR = /[\p{L}\p{Nd}_]/u;

/** Go's `extract`: the group name after a `$` (`name` or `{name}`), its number and the rest of the template. */
function extractName(template: string): { name: string; num: number; rest: string } | undefined {
  let s = template;
  const brace = s.startsWith("{");
  if (brace) s = s.slice(1);
  let i = 0;
  for (const ch of s) {
    if (!NAME_CHAR.test(ch)) break;
    i += ch.length;
  }
  if (i === 0) return undefined;
  const name = s.slice(0, i);
  if (brace) {
    if (s[i] !== "}") return undefined;
    i++;
  }
  let num = /^[0-9]+$/.test(name) && !(name.length > 1 && name.startsWith("0")) ? Number(name) : -1;
  if (num > 1e8) num = -1;
  return { name, num, rest: s.slice(i) };
}

class GoRegexp implements Re2 {
  readonly numSubexp: number;
  readonly subexpNames: readonly string[];

  constructor(
    readonly source: string,
    private readonly re: RE2JS,
  ) {
    this.numSubexp = re.groupCount();
    const names: string[] = Array(this.numSubexp + 1).fill("");
    for (const [name, index] of Object.entries(re.namedGroups())) names[index] = name;
    this.subexpNames = names;
  }

  test(text: string): boolean {
    return this.re.matcher(text).find();
  }

  findSubmatchIndex(text: string, from = 0): number[] | undefined {
    const m = this.re.matcher(text);
    if (from > text.length || !m.find(from)) return undefined;
    const out: number[] = [];
    for (let g = 0; g <= this.numSubexp; g++) out.push(m.start(g), m.end(g));
    return out;
  }

  findSubmatch(text: string): (string | undefined)[] | undefined {
    const index = this.findSubmatchIndex(text);
    return index ? groupsOf(text, index) : undefined;
  }

  findAllSubmatchIndex(text: string, n = -1): number[][] {
    const out: number[][] = [];
    let pos = 0;
    let prevEnd = -1;
    while ((n < 0 || out.length < n) && pos <= text.length) {
      const match = this.findSubmatchIndex(text, pos);
      if (!match) break;
      let accept = true;
      if (match[1] === pos) {
        // An empty match: not right after the previous match; then step over one code point.
        if (match[0] === prevEnd) accept = false;
        const width = widthAt(text, pos);
        pos = width > 0 ? pos + width : text.length + 1;
      } else {
        pos = match[1] as number;
      }
      prevEnd = match[1] as number;
      if (accept) out.push(match);
    }
    return out;
  }

  findAll(text: string, n = -1): string[] {
    return this.findAllSubmatchIndex(text, n).map((m) => text.slice(m[0], m[1]));
  }

  replaceAll(text: string, template: string): string {
    return this.#replace(text, (m) => this.expand(template, text, m));
  }

  replaceAllLiteral(text: string, replacement: string): string {
    return this.#replace(text, () => replacement);
  }

  replaceAllFunc(text: string, replace: (match: string, groups: (string | undefined)[]) => string): string {
    return this.#replace(text, (m) => {
      const groups = groupsOf(text, m);
      return replace(groups[0] as string, groups);
    });
  }

  /** Go's `replaceAll`: an empty match right after a previous match gets no replacement. */
  #replace(text: string, replacement: (match: number[]) => string): string {
    let out = "";
    let lastEnd = 0;
    let pos = 0;
    while (pos <= text.length) {
      const match = this.findSubmatchIndex(text, pos);
      if (!match) break;
      const [start, end] = match as [number, number];
      out += text.slice(lastEnd, start);
      if (end > lastEnd || start === 0) out += replacement(match);
      lastEnd = end;
      const width = widthAt(text, pos);
      if (pos + width > end) pos += width;
      else if (pos + 1 > end) pos++;
      else pos = end;
    }
    return out + text.slice(lastEnd);
  }

  expand(template: string, text: string, match: readonly number[]): string {
    let out = "";
    let rest = template;
    for (let at = rest.indexOf("$"); at >= 0; at = rest.indexOf("$")) {
      out += rest.slice(0, at);
      rest = rest.slice(at + 1);
      if (rest.startsWith("$")) {
        out += "$";
        rest = rest.slice(1);
        continue;
      }
      const ref = extractName(rest);
      if (!ref) {
        out += "$";
        continue;
      }
      rest = ref.rest;
      const group = ref.num >= 0 ? ref.num : this.subexpNames.indexOf(ref.name);
      const start = group >= 0 ? (match[2 * group] ?? -1) : -1;
      if (start >= 0) out += text.slice(start, match[2 * group + 1]);
    }
    return out + rest;
  }

  split(text: string, n = -1): string[] {
    if (n === 0) return [];
    if (this.source.length > 0 && text.length === 0) return [""];
    const out: string[] = [];
    let begin = 0;
    let end = 0;
    for (const match of this.findAllSubmatchIndex(text, n)) {
      if (n > 0 && out.length === n - 1) break;
      end = match[0] as number;
      if (match[1] !== 0) out.push(text.slice(begin, end));
      begin = match[1] as number;
    }
    if (end !== text.length) out.push(text.slice(begin));
    return out;
  }
}

function groupsOf(text: string, index: readonly number[]): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let i = 0; i < index.length; i += 2) {
    const start = index[i] as number;
    out.push(start < 0 ? undefined : text.slice(start, index[i + 1]));
  }
  return out;
}
