/**
 * Runs go.starlark.net's chunked test files the way its own tests do (internal/chunkedfile,
 * starlarktest, eval_test.go, resolve_test.go, parse_test.go): chunks separated by `---` lines, each a
 * fresh module; `### "regexp"` marks an expected error on that line (RE2 syntax); `option:NAME`
 * turns on a dialect option for the chunk. Files under `syntax/testdata/` are only parsed, files
 * under `resolve/testdata/` only resolved (predeclared `M`, universal `U` and `float`), others are
 * executed with the harness helpers (error, catch, matches, module, _freeze, _floateq via the assert
 * module; hasfields, fibonacci, struct, gensym).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { compileRe2, type Re2 } from "../krm/re2.js";
import { toStr, unpackArgs, unpackPositional } from "./eval/args.js";
import { UNIVERSE } from "./eval/builtins.js";
import { compileFile } from "./eval/eval.js";
import { jsonModule } from "./lib/json.js";
import { mathModule } from "./lib/math.js";
import { timeModule } from "./lib/time.js";
import "./eval/methods.js";
import { moduleBuiltin, Struct, structBuiltin } from "./eval/struct.js";
import { callValue, enterThread, leaveThread, StarlarkEvalError, Thread } from "./eval/thread.js";
import {
  Builtin,
  Float,
  fail,
  freeze,
  type Iter,
  type Key,
  type Kwargs,
  List,
  None,
  NoSuchAttrError,
  StarlarkError,
  SValue,
  str,
  typeName,
  type Value,
} from "./eval/values.js";
import { fromBytes } from "./internal/utf8.js";
import { resolveFileErrors } from "./resolve/resolver.js";
import { parseBytes } from "./syntax/parser.js";
import {
  type FileOptions,
  posLine,
  StarlarkResolveError,
  StarlarkSyntaxError,
  type Token,
} from "./syntax/syntax.js";

/** One chunk of a chunked file. */
export interface Chunk {
  /** source, padded with newlines so line numbers match the file (byte string) */
  source: string;
  /** first line of the chunk in the file */
  line: number;
  /** expected errors by line */
  wantErrs: Map<number, { pattern: string; re: Re2 }>;
}

/** Splits a chunked file (byte string) into chunks; problems with `###` comments are returned. */
export function readChunks(text: string, lenient = false): { chunks: Chunk[]; problems: string[] } {
  const chunks: Chunk[] = [];
  const problems: string[] = [];
  let linenum = 1;
  for (const chunk of text.split("\n---\n")) {
    const source = "\n".repeat(linenum - 1) + chunk;
    const start = linenum;
    const wantErrs = new Map<number, { pattern: string; re: Re2 }>();
    for (const line of chunk.split("\n")) {
      const k = line.indexOf("###");
      if (k >= 0) {
        const rest = fromBytes(line.slice(k + 3)).trim();
        const pattern = unquoteGo(rest);
        if (pattern === null) {
          if (!lenient) problems.push(`line ${linenum}: not a quoted regexp: ${rest}`);
        } else {
          try {
            wantErrs.set(linenum, { pattern, re: compileRe2(pattern) });
          } catch (e) {
            problems.push(`line ${linenum}: ${(e as Error).message}`);
          }
        }
      }
      linenum++;
    }
    linenum++; // the --- separator
    chunks.push({ source, line: start, wantErrs });
  }
  return { chunks, problems };
}

/** Go's strconv.Unquote for "..." and `...` literals; null if malformed. */
function unquoteGo(s: string): string | null {
  if (s.length >= 2 && s[0] === "`" && s[s.length - 1] === "`") return s.slice(1, -1);
  if (s.length >= 2 && s[0] === '"' && s[s.length - 1] === '"') {
    try {
      return JSON.parse(s.replace(/\\([xa-fv'?])/g, (m, c: string) => (c === "x" ? "\\u00" : m))) as string;
    } catch {
      return null;
    }
  }
  return null;
}

/** The outcome of one chunk. */
export interface ChunkResult {
  line: number;
  ok: boolean;
  problems: string[];
}

class ChunkChecker {
  readonly problems: string[] = [];
  constructor(readonly chunk: Chunk) {}
  gotError(line: number, msg: string): void {
    const want = this.chunk.wantErrs.get(line);
    const text = fromBytes(msg);
    if (want !== undefined) {
      this.chunk.wantErrs.delete(line);
      if (!want.re.test(text)) {
        this.problems.push(
          `line ${line}: error ${JSON.stringify(text)} does not match pattern ${JSON.stringify(want.pattern)}`,
        );
      }
    } else {
      this.problems.push(`line ${line}: unexpected error: ${text}`);
    }
  }
  done(): void {
    for (const [line, want] of this.chunk.wantErrs) {
      this.problems.push(`line ${line}: expected error matching ${JSON.stringify(want.pattern)}`);
    }
  }
}

function chunkOptions(src: string): FileOptions {
  const has = (n: string) => src.includes(`option:${n}`);
  return {
    set: has("set"),
    while: has("while"),
    topLevelControl: has("toplevelcontrol"),
    globalReassign: has("globalreassign"),
    loadBindsGlobally: has("loadbindsglobally"),
    recursion: has("recursion"),
  };
}

// ---- harness values ----

/** hasfields(): a value with settable fields (eval_test.go). */
class HasFields extends SValue {
  frozen = false;
  readonly attrs = new Map<string, Value>();
  typeName(): string {
    return "hasfields";
  }
  override repr(): string {
    return "hasfields";
  }
  override hashKey(): Key {
    return this;
  }
  override freeze(): void {
    if (!this.frozen) {
      this.frozen = true;
      for (const v of this.attrs.values()) freeze(v);
    }
  }
  override attr(name: string): Value | undefined {
    return this.attrs.get(name);
  }
  override attrNames(): string[] {
    return [...this.attrs.keys()].sort();
  }
  override setField(name: string, v: Value): void {
    if (this.frozen) fail("cannot set field on a frozen hasfields");
    if (name.startsWith("no")) throw new NoSuchAttrError(`no .${name} field`);
    this.attrs.set(name, v);
  }
  override binary(op: Token, y: Value): Value | undefined {
    if (op === 10 /* PLUS */ && y instanceof List) return 42;
    return undefined;
  }
}

/** fibonacci: an infinite iterable (eval_test.go). */
class Fib extends SValue {
  typeName(): string {
    return "fib";
  }
  override repr(): string {
    return "fib";
  }
  override hashKey(): Key {
    return fail("fib is unhashable");
  }
  override iterate(): Iter {
    let x = 0;
    let y = 1;
    return {
      next: () => {
        const r = x;
        [x, y] = [y, x + y];
        return r;
      },
      done: () => {},
    };
  }
}

/** gensym(name=...): a constructor symbol of branded structs (struct_test.go). */
class Symbol_ extends SValue {
  constructor(override readonly name: string) {
    super();
  }
  typeName(): string {
    return "symbol";
  }
  override repr(): string {
    return this.name;
  }
  override hashKey(): Key {
    return fail("unhashable: symbol");
  }
  override callInternal(_th: Thread, args: Value[], kwargs: Kwargs | null): Value {
    if (args.length > 0) fail(`${this.name}: unexpected positional arguments`);
    return new Struct(this, kwargs ?? []);
  }
}

const REPORTER = "starlarktest.reporter";

const errorB = new Builtin("error", (th, args) => {
  if (args.length !== 1) fail(`error: got ${args.length} arguments, want 1`);
  const report = th.local(REPORTER) as ((msg: string) => void) | undefined;
  const msg = typeof args[0] === "string" ? args[0] : str(args[0]!);
  const where = th.callerPosition(1);
  report?.(`${where}: ${fromBytes(msg)}`);
  return None;
});

const catchB = new Builtin("catch", (th, args, kwargs) => {
  const [fn] = unpackArgs("catch", args, kwargs, ["fn"]) as [Value];
  try {
    callValue(th, fn, [], null);
  } catch (e) {
    if (e instanceof StarlarkError) return e.message;
    throw e;
  }
  return None;
});

const matchesB = new Builtin("matches", (_th, args, kwargs) => {
  const [pattern, s] = unpackArgs("matches", args, kwargs, [
    ["pattern", toStr],
    ["str", toStr],
  ]) as [string, string];
  let re: Re2;
  try {
    re = compileRe2(fromBytes(pattern));
  } catch (e) {
    return fail(`matches: ${(e as Error).message}`);
  }
  return re.test(fromBytes(s));
});

const freezeB = new Builtin("freeze", (_th, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail("freeze does not accept keyword arguments");
  if (args.length !== 1) fail(`freeze got ${args.length} arguments, wants 1`);
  freeze(args[0]!);
  return args[0]!;
});

const f64 = new DataView(new ArrayBuffer(16));

const floateqB = new Builtin("floateq", (_th, args, kwargs, _recv, name) => {
  const toF = (v: Value): number => {
    if (!(v instanceof Float)) throw new StarlarkError(`got ${typeName(v)}, want float`);
    return v.v;
  };
  const [x, y] = unpackPositional(name, args, kwargs, 2, [toF, toF]) as [number, number];
  if (x === y) return true;
  if (Number.isNaN(x)) return Number.isNaN(y);
  if (Number.isNaN(y)) return false;
  f64.setFloat64(0, x);
  f64.setFloat64(8, y);
  const a = f64.getBigUint64(0);
  const b = f64.getBigUint64(8);
  return a === b + 1n || b === a + 1n;
});

const hasfieldsB = new Builtin("hasfields", (_th, args, kwargs, _recv, name) => {
  if (args.length + (kwargs?.length ?? 0) > 0) fail(`${name}: unexpected arguments`);
  return new HasFields();
});

const gensymB = new Builtin("gensym", (_th, args, kwargs) => {
  const [name] = unpackArgs("gensym", args, kwargs, [["name", toStr]]) as [string];
  return new Symbol_(name);
});

/** The assert module's source: upstream's starlarktest/assert.star when found, else our equivalent. */
function assertSource(testFile: string): { file: string; src: string } {
  for (let dir = path.dirname(path.resolve(testFile)); ; dir = path.dirname(dir)) {
    const p = path.join(dir, "starlarktest", "assert.star");
    if (existsSync(p)) return { file: "assert.star", src: readFileSync(p, "latin1") };
    if (path.dirname(dir) === dir) break;
  }
  return { file: "assert.star", src: BUILTIN_ASSERT };
}

/** An assert module with the same interface as starlarktest's (used when assert.star is absent). */
const BUILTIN_ASSERT = `
def _eq(x, y):
    if x != y:
        if type(x) == "float" or type(y) == "float":
            if (type(x) in ("float", "int") and type(y) in ("float", "int")) and _floateq(float(x), float(y)):
                return
        error("%r != %r" % (x, y))

def _ne(x, y):
    if x == y:
        error("%r == %r" % (x, y))

def _true(cond, msg = "assertion failed"):
    if not cond:
        error(msg)

def _lt(x, y):
    if not (x < y):
        error("%s is not less than %s" % (x, y))

def _contains(x, y):
    if y not in x:
        error("%s does not contain %s" % (x, y))

def _fails(f, pattern):
    msg = catch(f)
    if msg == None:
        error("evaluation succeeded unexpectedly (want error matching %r)" % pattern)
    elif not matches(pattern, msg):
        error("regular expression (%s) did not match error (%s)" % (pattern, msg))

freeze = _freeze

assert = module("assert", fail = error, eq = _eq, ne = _ne, true = _true, lt = _lt, contains = _contains, fails = _fails)
`;

const ASSERT_PREDECLARED = new Map<string, Value>([
  ["error", errorB],
  ["catch", catchB],
  ["matches", matchesB],
  ["module", moduleBuiltin],
  ["_freeze", freezeB],
  ["_floateq", floateqB],
]);

const assertCache = new Map<string, ReadonlyMap<string, Value>>();

function loadAssert(th: Thread, testFile: string): ReadonlyMap<string, Value> {
  const { file, src } = assertSource(testFile);
  const cached = assertCache.get(src);
  if (cached !== undefined) return cached;
  const f = parseBytes(file, src, {});
  const errs = resolveFileErrors(
    f,
    (n) => ASSERT_PREDECLARED.has(n),
    (n) => UNIVERSE.has(n),
  );
  if (errs.length > 0) throw new StarlarkResolveError(errs);
  const globals = compileFile(f, UNIVERSE).init(th, ASSERT_PREDECLARED);
  assertCache.set(src, globals);
  return globals;
}

/** Which harness a file gets, from its path (as upstream's tests choose per directory). */
export type TestKind = "eval" | "parse" | "resolve";

export function kindOf(file: string): TestKind {
  const p = file.split(path.sep).join("/");
  if (p.includes("syntax/testdata/")) return "parse";
  if (p.includes("resolve/testdata/")) return "resolve";
  return "eval";
}

/** Runs every chunk of a test file (text as a byte string). */
export function runTestFile(file: string, text: string, kind: TestKind = kindOf(file)): ChunkResult[] {
  // Parse-only files such as scan.star contain "###" banners that are not expectations.
  const { chunks, problems } = readChunks(text, kind === "parse");
  const results: ChunkResult[] = [];
  for (const chunk of chunks) {
    const checker = new ChunkChecker(chunk);
    if (kind === "parse") runParseChunk(file, chunk, checker);
    else if (kind === "resolve") runResolveChunk(file, chunk, checker);
    else runEvalChunk(file, chunk, checker);
    checker.done();
    results.push({ line: chunk.line, ok: checker.problems.length === 0, problems: checker.problems });
  }
  if (problems.length > 0 && results.length > 0) {
    results[0]!.ok = false;
    results[0]!.problems.push(...problems);
  }
  return results;
}

function runParseChunk(file: string, chunk: Chunk, checker: ChunkChecker): void {
  try {
    parseBytes(file, chunk.source, {});
  } catch (e) {
    if (e instanceof StarlarkSyntaxError) checker.gotError(posLine(e.pos), e.msg);
    else checker.problems.push(`internal error: ${(e as Error).stack ?? String(e)}`);
  }
}

function runResolveChunk(file: string, chunk: Chunk, checker: ChunkChecker): void {
  const opts = chunkOptions(chunk.source);
  try {
    const f = parseBytes(file, chunk.source, opts);
    const errs = resolveFileErrors(
      f,
      (n) => n === "M",
      (n) => n === "U" || n === "float",
    );
    for (const e of errs) checker.gotError(posLine(e.pos), e.msg);
  } catch (e) {
    if (e instanceof StarlarkSyntaxError) checker.problems.push(`parse error: ${e.message}`);
    else checker.problems.push(`internal error: ${(e as Error).stack ?? String(e)}`);
  }
}

function runEvalChunk(file: string, chunk: Chunk, checker: ChunkChecker): void {
  const opts = chunkOptions(chunk.source);
  const th = new Thread({ name: path.basename(file) });
  th.setLocal(REPORTER, (msg: string) => checker.problems.push(`assertion failed: ${msg}`));
  th.load = (t, module) => {
    switch (module) {
      case "assert.star":
        return loadAssert(t, file);
      case "json.star":
        return new Map([["json", jsonModule]]);
      case "time.star":
        return new Map([["time", timeModule]]);
      case "math.star":
        return new Map([["math", mathModule]]);
    }
    throw new Error(`no such module ${module}`);
  };
  const predeclared = new Map<string, Value>([
    ["hasfields", hasfieldsB],
    ["fibonacci", new Fib()],
    ["struct", structBuiltin],
    ["gensym", gensymB],
  ]);
  const prev = enterThread(th);
  try {
    const f = parseBytes(file, chunk.source, opts);
    const errs = resolveFileErrors(
      f,
      (n) => predeclared.has(n),
      (n) => UNIVERSE.has(n),
    );
    if (errs.length > 0) throw new StarlarkResolveError(errs);
    compileFile(f, UNIVERSE).init(th, predeclared);
  } catch (e) {
    if (e instanceof StarlarkEvalError) {
      const fr = e.frameIn(file);
      if (fr !== undefined) checker.gotError(fr.line, e.message);
      else checker.problems.push(e.backtrace());
    } else if (e instanceof StarlarkSyntaxError || e instanceof StarlarkResolveError) {
      checker.problems.push(e.message);
    } else if (e instanceof StarlarkError) {
      checker.problems.push(e.message);
    } else {
      checker.problems.push(`internal error: ${(e as Error).stack ?? String(e)}`);
    }
  } finally {
    leaveThread(prev);
  }
}
