/**
 * `porchlight starlark test FILE...` runs go.starlark.net's chunked test files (see
 * src/starlark/testing.ts); `porchlight starlark run FILE` runs a script: `print` goes to stdout,
 * a failure prints the error with its backtrace and exits 1.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  execFile,
  type FileOptions,
  fromBytes,
  jsonModule,
  mathModule,
  moduleBuiltin,
  StarlarkEvalError,
  StarlarkResolveError,
  StarlarkSyntaxError,
  structBuiltin,
  Thread,
  timeModule,
  type Value,
} from "../starlark/index.js";
import { runTestFile } from "../starlark/testing.js";
import { UsageError } from "./commands.js";

/** Entry point (lazily imported by main.ts). Resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "test":
      return runTests(rest);
    case "run":
      return runScript(rest);
    default:
      // help and a bare `porchlight starlark` are answered by main.ts from the registered usage
      throw new UsageError(`unknown command ${JSON.stringify(cmd)} for "porchlight starlark"`);
  }
}

function runTests(files: string[]): number {
  const verbose = files.includes("-v") || files.includes("--verbose");
  files = files.filter((f) => f !== "-v" && f !== "--verbose");
  if (files.length === 0) {
    throw new UsageError("starlark test needs at least one FILE", "starlark test");
  }
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "latin1");
    } catch (e) {
      process.stdout.write(`FAIL ${file}: ${(e as Error).message}\n`);
      failed++;
      continue;
    }
    const results = runTestFile(file, text);
    const bad = results.filter((r) => !r.ok);
    passed += results.length - bad.length;
    failed += bad.length;
    if (bad.length === 0) {
      process.stdout.write(`PASS ${file} (${results.length} chunks)\n`);
    } else {
      process.stdout.write(`FAIL ${file}: ${bad.length} of ${results.length} chunks failed\n`);
      for (const r of bad) {
        for (const p of r.problems) {
          const text = verbose ? p : p.split("\n").slice(0, 6).join("\n      ");
          process.stdout.write(`    chunk at line ${r.line}: ${text}\n`);
        }
      }
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

const RUN_OPTIONS: FileOptions = {
  set: true,
  globalReassign: true,
  recursion: true,
  while: true,
  topLevelControl: true,
};

function runScript(args: string[]): number {
  const file = args[0];
  if (file === undefined || args.length > 1) {
    throw new UsageError("starlark run needs exactly one FILE", "starlark run");
  }
  const thread = new Thread({ name: path.basename(file) });
  // print writes the script's bytes as they are (a string may hold invalid UTF-8), as go.starlark.net does.
  thread.printBytes = (_t, msg) => {
    process.stdout.write(Buffer.from(`${msg}\n`, "latin1"));
  };
  const cache = new Map<string, ReadonlyMap<string, Value>>();
  const loading = new Set<string>();
  const libraries: Record<string, [string, Value]> = {
    "json.star": ["json", jsonModule],
    "math.star": ["math", mathModule],
    "time.star": ["time", timeModule],
  };
  const predeclared = { struct: structBuiltin, module: moduleBuiltin };
  thread.load = (t, module) => {
    const lib = libraries[module];
    if (lib !== undefined) return new Map([lib]);
    const target = path.resolve(path.dirname(file), module);
    const hit = cache.get(target);
    if (hit !== undefined) return hit;
    if (loading.has(target)) throw new Error(`cycle in load graph`);
    loading.add(target);
    try {
      const globals = execFile(t, module, readFileSync(target), predeclared, RUN_OPTIONS);
      cache.set(target, globals);
      return globals;
    } finally {
      loading.delete(target);
    }
  };
  let src: Buffer;
  try {
    src = readFileSync(file);
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    execFile(thread, file, src, predeclared, RUN_OPTIONS);
    return 0;
  } catch (e) {
    if (e instanceof StarlarkEvalError) process.stderr.write(`${e.backtrace()}\n`);
    else if (e instanceof StarlarkResolveError) {
      for (const err of e.errors) process.stderr.write(`${fromBytes(err.message)}\n`);
    } else if (e instanceof StarlarkSyntaxError) process.stderr.write(`${fromBytes(e.message)}\n`);
    else throw e;
    return 1;
  }
}
