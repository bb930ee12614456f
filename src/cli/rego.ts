/**
 * `porchlight rego test FILE...` runs Rego test-case files in the YAML format of OPA/regorus's interpreter
 * cases (src/rego/testing.ts): one line per failing case, then `N passed, M failed` (skipped cases count as
 * neither). `porchlight rego eval -d FILE.rego... [-i INPUT.json] QUERY` evaluates a query and prints its
 * results as JSON.
 */
import { readFileSync } from "node:fs";
import { compileModules, RegoCompileError, RegoEvalError, toJS } from "../rego/index.js";
import { runCaseFile } from "../rego/testing.js";
import { UsageError } from "./commands.js";

/** Entry point (lazily imported by main.ts). Resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "test":
      return runTests(rest);
    case "eval":
      return runEval(rest);
    default:
      // help and a bare `porchlight rego` are answered by main.ts from the registered usage
      throw new UsageError(`unknown command ${JSON.stringify(cmd)} for "porchlight rego"`);
  }
}

function runTests(args: string[]): number {
  const verbose = args.includes("-v") || args.includes("--verbose");
  const files = args.filter((f) => f !== "-v" && f !== "--verbose");
  if (files.length === 0) {
    throw new UsageError("rego test needs at least one FILE", "rego test");
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      process.stdout.write(`FAIL ${file}: ${(e as Error).message}\n`);
      failed++;
      continue;
    }
    for (const r of runCaseFile(file, text)) {
      if (r.status === "skipped") {
        skipped++;
        if (verbose) process.stdout.write(`SKIP ${file}: ${r.note}\n`);
      } else if (r.status === "passed") {
        passed++;
        if (verbose) process.stdout.write(`PASS ${file}: ${r.note}\n`);
      } else {
        failed++;
        const why = (r.problem ?? "")
          .split("\n")
          .slice(0, verbose ? 40 : 3)
          .join("\n      ");
        process.stdout.write(`FAIL ${file}: ${r.note}: ${why}\n`);
      }
    }
  }
  if (skipped > 0) process.stdout.write(`${skipped} skipped\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

function runEval(args: string[]): number {
  const modules: { path: string; source: string }[] = [];
  let input: unknown;
  let v1 = false;
  let query: string | undefined;
  try {
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (a === "-d" || a === "--data")
        modules.push({ path: args[++i] as string, source: readFileSync(args[i] as string, "utf8") });
      else if (a === "-i" || a === "--input") input = JSON.parse(readFileSync(args[++i] as string, "utf8"));
      else if (a === "-v1" || a === "--v1") v1 = true;
      else query = a;
    }
  } catch (e) {
    process.stderr.write(`Error: ${(e as Error).message}\n`);
    return 1;
  }
  if (query === undefined) {
    throw new UsageError("rego eval needs a QUERY", "rego eval");
  }
  try {
    const policy = compileModules(modules, { regoVersion: v1 ? "v1" : "v0" });
    const rs = policy.query({ query, input, print: (l) => process.stderr.write(`${l}\n`) });
    const out = rs.map((r) => ({
      expressions: r.expressions.map(toJS),
      ...(Object.keys(r.bindings).length > 0
        ? { bindings: Object.fromEntries(Object.entries(r.bindings).map(([k, v]) => [k, toJS(v)])) }
        : {}),
    }));
    process.stdout.write(`${JSON.stringify({ result: out }, null, 2)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof RegoCompileError || e instanceof RegoEvalError) {
      process.stderr.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
