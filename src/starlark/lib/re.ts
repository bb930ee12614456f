/**
 * The `re` module of qri-io/starlib (`re.star`), as kpt's `starlark` function loads it, with Go's RE2
 * regular expressions (src/krm/re2.ts: linear time, Go's syntax and error messages):
 * - `search(pattern, string, flags=0)`: `[start, end]` byte offsets of the leftmost match, or None;
 * - `match(pattern, string, flags=0)`: every match as a tuple (whole match, then groups; `""` for a group
 *   that did not take part), in a list;
 * - `split(pattern, string, maxsplit=0, flags=0)`: a tuple of the pieces (maxsplit 0 = all);
 * - `findall(pattern, string, flags=0)`: a tuple of the matched strings;
 * - `sub(pattern, repl, string, count=0, flags=0)`: every match replaced, `$1`/`${name}` expanded as Go
 *   does (count is ignored, and a pattern that does not compile gives None, as in starlib);
 * - `compile(pattern, flags=0)`: a `regexp` value with the same methods minus the pattern argument.
 * `flags` are accepted and ignored, as in starlib.
 */
import { compileRe2, type Re2, Re2SyntaxError } from "../../krm/re2.js";
import { toInt, toStr, unpackArgs } from "../eval/args.js";
import {
  Builtin,
  type Key,
  List,
  Module,
  None,
  StarlarkError,
  SValue,
  Tuple,
  type Value,
} from "../eval/values.js";
import { fromBytes, toBytes } from "../internal/utf8.js";

function compile(pattern: string): Re2 {
  try {
    return compileRe2(fromBytes(pattern));
  } catch (e) {
    if (e instanceof Re2SyntaxError) throw new StarlarkError(toBytes(e.message));
    throw e;
  }
}

const strings = (items: readonly (string | undefined)[]) => new Tuple(items.map((s) => toBytes(s ?? "")));

/** UTF-8 byte length of a JS string's prefix (Go reports byte offsets). */
const byteOffset = (text: string, index: number) => Buffer.byteLength(text.slice(0, index), "utf8");

function search(re: Re2, s: string): Value {
  const text = fromBytes(s);
  const m = re.findSubmatchIndex(text);
  if (!m) return None;
  return new List([byteOffset(text, m[0]!), byteOffset(text, m[1]!)]);
}

function match(re: Re2, s: string): Value {
  const text = fromBytes(s);
  const out: Value[] = [];
  for (const m of re.findAllSubmatchIndex(text)) {
    const groups: string[] = [];
    for (let i = 0; i < m.length; i += 2) groups.push(m[i]! < 0 ? "" : text.slice(m[i], m[i + 1]));
    out.push(strings(groups));
  }
  return new List(out);
}

function split(re: Re2, s: string, maxsplit: number): Value {
  return strings(re.split(fromBytes(s), maxsplit === 0 ? -1 : maxsplit));
}

function findall(re: Re2, s: string): Value {
  return strings(re.findAll(fromBytes(s)));
}

function sub(re: Re2, repl: string, s: string): Value {
  return toBytes(re.replaceAll(fromBytes(s), fromBytes(repl)));
}

/** A compiled regular expression (`re.compile`): type `regexp`, `str()` is its pattern. */
export class Regexp extends SValue {
  constructor(readonly re: Re2) {
    super();
  }
  typeName(): string {
    return "regexp";
  }
  override repr(): string {
    return toBytes(this.re.source);
  }
  override truth(): boolean {
    return this.re.source !== "";
  }
  override hashKey(): Key {
    return `\u0100re${this.re.source}`;
  }
  override attr(name: string): Value | undefined {
    return REGEXP_METHODS.get(name)?.bind(this);
  }
  override attrNames(): string[] {
    return [...REGEXP_METHODS.keys()].sort();
  }
}

const self = (recv: Value) => (recv as Regexp).re;

const REGEXP_METHODS = new Map<string, Builtin>([
  [
    "search",
    new Builtin("search", (_th, args, kwargs, recv) => {
      const [s] = unpackArgs("search", args, kwargs, [
        ["string", toStr],
        ["flags?", toInt],
      ]) as [string];
      return search(self(recv), s);
    }),
  ],
  [
    "match",
    new Builtin("match", (_th, args, kwargs, recv) => {
      const [s] = unpackArgs("match", args, kwargs, [
        ["string", toStr],
        ["flags?", toInt],
      ]) as [string];
      return match(self(recv), s);
    }),
  ],
  [
    "split",
    new Builtin("split", (_th, args, kwargs, recv) => {
      const [s, maxsplit] = unpackArgs("split", args, kwargs, [
        ["string", toStr],
        ["maxsplit?", toInt],
        ["flags", toInt],
      ]) as [string, number?];
      return split(self(recv), s, maxsplit ?? 0);
    }),
  ],
  [
    "findall",
    new Builtin("findall", (_th, args, kwargs, recv) => {
      const [s] = unpackArgs("findall", args, kwargs, [
        ["string", toStr],
        ["flags?", toInt],
      ]) as [string];
      return findall(self(recv), s);
    }),
  ],
  [
    "sub",
    new Builtin("sub", (_th, args, kwargs, recv) => {
      const [repl, s] = unpackArgs("sub", args, kwargs, [
        ["repl", toStr],
        ["string", toStr],
        ["count?", toInt],
        ["flags", toInt],
      ]) as [string, string];
      return sub(self(recv), repl, s);
    }),
  ],
]);

/** The `re` module value (what `load("re.star", "re")` binds). */
export const reModule = new Module(
  "re",
  new Map<string, Value>([
    [
      "compile",
      new Builtin("compile", (_th, args, kwargs) => {
        const [pattern] = unpackArgs("compile", args, kwargs, [
          ["pattern", toStr],
          ["flags?", toInt],
        ]) as [string];
        return new Regexp(compile(pattern));
      }),
    ],
    [
      "search",
      new Builtin("search", (_th, args, kwargs) => {
        const [pattern, s] = unpackArgs("search", args, kwargs, [
          ["pattern", toStr],
          ["string", toStr],
          ["flags?", toInt],
        ]) as [string, string];
        return search(compile(pattern), s);
      }),
    ],
    [
      "match",
      new Builtin("match", (_th, args, kwargs) => {
        const [pattern, s] = unpackArgs("match", args, kwargs, [
          ["pattern", toStr],
          ["string", toStr],
          ["flags?", toInt],
        ]) as [string, string];
        return match(compile(pattern), s);
      }),
    ],
    [
      "split",
      new Builtin("split", (_th, args, kwargs) => {
        const [pattern, s, maxsplit] = unpackArgs("split", args, kwargs, [
          ["pattern", toStr],
          ["string", toStr],
          ["maxsplit?", toInt],
          ["flags", toInt],
        ]) as [string, string, number?];
        return split(compile(pattern), s, maxsplit ?? 0);
      }),
    ],
    [
      "findall",
      new Builtin("findall", (_th, args, kwargs) => {
        const [pattern, s] = unpackArgs("findall", args, kwargs, [
          ["pattern", toStr],
          ["string", toStr],
          ["flags?", toInt],
        ]) as [string, string];
        return findall(compile(pattern), s);
      }),
    ],
    [
      "sub",
      new Builtin("sub", (_th, args, kwargs) => {
        const [pattern, repl, s] = unpackArgs("sub", args, kwargs, [
          ["pattern", toStr],
          ["repl", toStr],
          ["string", toStr],
          ["count?", toInt],
          ["flags", toInt],
        ]) as [string, string, string];
        let re: Re2;
        try {
          re = compile(pattern);
        } catch (e) {
          // starlib's sub returns None, not an error, for a pattern that does not compile.
          if (e instanceof StarlarkError) return None;
          throw e;
        }
        return sub(re, repl, s);
      }),
    ],
  ]),
);
