/**
 * A Starlark interpreter following the language specification and go.starlark.net (the
 * interpreter kpt's `starlark` function embeds), including its error messages.
 *
 * Embedding API
 * -------------
 * ```ts
 * import * as starlark from "./starlark/index.js";
 *
 * const thread = new starlark.Thread({ name: "fn.star", budget: { maxSteps: 1e7, maxMemoryBytes: 64 << 20 } });
 * thread.print = (_t, msg) => log.push(msg);               // `print` output (default: dropped)
 * thread.load = (_t, module) => modules.get(module)!;       // `load` (default: not available)
 * const predeclared = {
 *   ctx: starlark.makeModule("ctx", { resource_list: starlark.toStarlark(resourceList) }),
 *   double: starlark.builtin("double", (args) => starlark.toStarlark(2 * Number(args[0]))),
 * };
 * try {
 *   const globals = starlark.execFile(thread, "fn.star", source, predeclared, { set: true, recursion: true, globalReassign: true });
 *   const out = starlark.fromStarlark(globals.get("result")!);
 * } catch (e) {
 *   if (e instanceof starlark.StarlarkEvalError) console.error(e.backtrace()); // e.text: message; e.callStack: positions
 *   else if (e instanceof starlark.StarlarkSyntaxError || e instanceof starlark.StarlarkResolveError) ...
 * }
 * ```
 * - {@link compile} parses and resolves once; {@link runProgram} runs it; {@link compileCached} memoizes
 *   programs by source (kpt runs the same script on every render).
 * - {@link call} calls a Starlark function value from the host.
 * - Values: ints are JS numbers (bigints beyond 2^53), strings are byte strings (UTF-8 in latin1;
 *   use {@link toStarlark}/{@link fromStarlark} or {@link toBytes}/{@link fromBytes} at the boundary),
 *   bools are booleans; everything else is an {@link SValue} subclass (host types subclass it).
 * - Budgets: {@link Budget} `maxSteps` (loop iterations, calls, elements processed by built-ins),
 *   `maxMemoryBytes` (approximate bytes allocated by values), `maxCallDepth`, `timeoutMs`; exceeding one is a
 *   StarlarkEvalError "Starlark computation cancelled: ... exceeded the step budget of N steps" naming the
 *   thread (script). `thread.cancel(reason)` stops a running script at its next step.
 * - Sandbox: scripts see only the universe (len, str, ...) and what the host predeclares or loads; the
 *   interpreter itself has no filesystem, network, process or environment access.
 * - Dialect options ({@link FileOptions}): set, while, topLevelControl, globalReassign,
 *   loadBindsGlobally, recursion — all off by default, as in go.starlark.net.
 * - Library modules as go.starlark.net provides them: {@link jsonModule}, {@link mathModule},
 *   {@link timeModule}, plus `struct` ({@link structBuiltin}) and `module` ({@link moduleBuiltin}).
 */
import { UNIVERSE } from "./eval/builtins.js";
import { compileExpr, compileFile, type Program } from "./eval/eval.js";
import "./eval/methods.js";
import { callValue, enterThread, leaveThread, type Thread } from "./eval/thread.js";
import { Builtin, type Kwargs, Module, StarlarkError, type Value } from "./eval/values.js";
import { toBytes } from "./internal/utf8.js";
import { resolveExpr, resolveFile } from "./resolve/resolver.js";
import { parseBytes, parseExprBytes } from "./syntax/parser.js";
import { sourceBytes } from "./syntax/scanner.js";
import { type FileOptions, StarlarkSyntaxError } from "./syntax/syntax.js";

export { UNIVERSE } from "./eval/builtins.js";
export { type FromStarlarkOptions, fromStarlark, toStarlark } from "./eval/convert.js";
export { Frame, FuncCode, ModuleInstance, Program, StarlarkFunction } from "./eval/eval.js";
export { DEFAULT_CONSTRUCTOR, moduleBuiltin, Struct, structBuiltin } from "./eval/struct.js";
export {
  type Budget,
  type CallFrame,
  call,
  DEFAULT_BUDGET,
  type Loader,
  StarlarkEvalError,
  Thread,
} from "./eval/thread.js";
export {
  Builtin,
  type BuiltinFn,
  Bytes,
  Dict,
  equal,
  Float,
  freeze,
  getAttr,
  type Iter,
  isFrozen,
  type Kwargs,
  List,
  Module,
  None,
  NoneType,
  NoSuchAttrError,
  repr,
  SetValue,
  StarlarkError,
  SValue,
  str,
  Tuple,
  truth,
  typeName,
  type Value,
} from "./eval/values.js";
export { fromBytes, toBytes } from "./internal/utf8.js";
export { jsonModule } from "./lib/json.js";
export { mathModule } from "./lib/math.js";
export { timeModule } from "./lib/time.js";
export { resolveFile } from "./resolve/resolver.js";
export { parseFile } from "./syntax/parser.js";
export {
  type FileOptions,
  formatPos,
  StarlarkResolveError,
  StarlarkSyntaxError,
} from "./syntax/syntax.js";

/** Predeclared names of a module: a Map or a plain object. */
export type Predeclared = ReadonlyMap<string, Value> | Readonly<Record<string, Value>>;

function asMap(p: Predeclared): ReadonlyMap<string, Value> {
  return p instanceof Map ? p : new Map(Object.entries(p));
}

/**
 * Parses, resolves and compiles a Starlark file. `predeclared` lists the names the host will
 * predeclare (only they and the universe resolve). Throws StarlarkSyntaxError or
 * StarlarkResolveError (every resolve error, first as message).
 */
export function compile(
  filename: string,
  src: string | Uint8Array,
  opts: { options?: FileOptions; predeclared?: Iterable<string> } = {},
): Program {
  try {
    const file = parseBytes(filename, sourceBytes(src), opts.options ?? {});
    const names = new Set(opts.predeclared ?? []);
    resolveFile(
      file,
      (n) => names.has(n),
      (n) => UNIVERSE.has(n),
    );
    return compileFile(file, UNIVERSE);
  } catch (e) {
    // A pathologically nested program exhausts the host stack: report it, never crash the host.
    if (e instanceof RangeError) throw new StarlarkSyntaxError(filename, 0, "program is too deeply nested");
    throw e;
  }
}

const programCache = new Map<string, Program>();
const PROGRAM_CACHE_LIMIT = 64;

/**
 * Like {@link compile}, memoized on (filename, source, options, predeclared names) in a small LRU:
 * a pipeline running the same script on every render parses and resolves it once. Syntax and
 * resolve errors are not cached.
 */
export function compileCached(
  filename: string,
  src: string | Uint8Array,
  opts: { options?: FileOptions; predeclared?: Iterable<string> } = {},
): Program {
  const names = [...(opts.predeclared ?? [])].sort();
  const text =
    typeof src === "string"
      ? src
      : Buffer.from(src.buffer, src.byteOffset, src.byteLength).toString("latin1");
  const key = JSON.stringify([
    filename,
    opts.options ?? {},
    names,
    typeof src === "string" ? "s" : "b",
    text,
  ]);
  const hit = programCache.get(key);
  if (hit !== undefined) {
    programCache.delete(key);
    programCache.set(key, hit);
    return hit;
  }
  const prog = compile(filename, src, { options: opts.options ?? {}, predeclared: names });
  programCache.set(key, prog);
  if (programCache.size > PROGRAM_CACHE_LIMIT) programCache.delete(programCache.keys().next().value!);
  return prog;
}

/**
 * Executes a Starlark file with predeclared values (go.starlark.net's ExecFileOptions); returns
 * its globals, frozen. Throws StarlarkEvalError (runtime, with backtrace), StarlarkSyntaxError or
 * StarlarkResolveError.
 */
export function execFile(
  thread: Thread,
  filename: string,
  src: string | Uint8Array,
  predeclared: Predeclared = {},
  options: FileOptions = {},
): Map<string, Value> {
  const pre = asMap(predeclared);
  const prog = compile(filename, src, { options, predeclared: pre.keys() });
  return runProgram(thread, prog, pre);
}

/** Runs a compiled program in a new module (see {@link compile}); returns its frozen globals. */
export function runProgram(thread: Thread, prog: Program, predeclared: Predeclared = {}): Map<string, Value> {
  const prev = enterThread(thread);
  try {
    return prog.init(thread, asMap(predeclared));
  } catch (e) {
    throw thread.evalError(e);
  } finally {
    leaveThread(prev);
  }
}

/** Evaluates a Starlark expression in an environment of predeclared values. */
export function evalExpr(
  thread: Thread,
  filename: string,
  src: string | Uint8Array,
  env: Predeclared = {},
  options: FileOptions = {},
): Value {
  const pre = asMap(env);
  const expr = parseExprBytes(filename, sourceBytes(src));
  const locals = resolveExpr(
    filename,
    expr,
    options,
    (n) => pre.has(n),
    (n) => UNIVERSE.has(n),
  );
  const prog = compileExpr(filename, expr, locals, UNIVERSE);
  const prev = enterThread(thread);
  try {
    return prog.evaluate(thread, pre);
  } catch (e) {
    throw thread.evalError(e);
  } finally {
    leaveThread(prev);
  }
}

/**
 * Defines a host built-in function. `fn` receives positional arguments, keyword arguments as
 * (name, value) pairs (names are byte strings) and the thread; it returns a Starlark value and
 * reports errors by throwing: the message of a StarlarkError or plain Error becomes the Starlark
 * error message (TypeError and other JS errors are reported as internal errors).
 */
export function builtin(name: string, fn: (args: Value[], kwargs: Kwargs, thread: Thread) => Value): Builtin {
  return new Builtin(name, (th, args, kwargs) => {
    try {
      return fn(args, kwargs ?? [], th);
    } catch (e) {
      if (e instanceof Error && e.constructor === Error) throw new StarlarkError(toBytes(e.message));
      throw e;
    }
  });
}

/** Makes a module value (`<module "name">`) whose attributes are `members`. */
export function makeModule(
  name: string,
  members: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>,
): Module {
  return new Module(name, new Map(members instanceof Map ? members : Object.entries(members)));
}

/** Calls a Starlark callable from a built-in without switching threads (errors propagate as is). */
export function callFromBuiltin(
  thread: Thread,
  fn: Value,
  args: Value[],
  kwargs: Kwargs | null = null,
): Value {
  return callValue(thread, fn, args, kwargs);
}
