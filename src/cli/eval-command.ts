/**
 * `porchlight fn eval [PKG_PATH|-]`: kpt fn eval. Steps: parse and check the flags as kpt does; build
 * the functionConfig (`--fn-config` file, or the `-- k=v` arguments as a ConfigMap); read the package
 * (or a ResourceList on stdin); run the function once with the default runtime chain (builtins, exec
 * without `--allow-exec`, as kpt runs imperative exec functions, then docker/podman); write the
 * package in place, or to `-o stdout|unwrap|<dir>` (stdin input goes to stdout); write
 * `--results-dir/results.yaml`; exit 1 on failure.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { documentEntry } from "../engine/entries.js";
import { type EvalResult, evaluateFunction } from "../engine/eval.js";
import { imagePrefixProblem, resolveImage } from "../engine/image.js";
import { composeFiles } from "../engine/output.js";
import { annotationsOf } from "../krm/annotations.js";
import { readStarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import { createDefaultRuntime } from "../runtimes/default.js";
import { EVAL_USAGE, type EvalArgs, isEmptySelector, parseEvalArgs } from "./eval-args.js";
import { argsFunctionConfig, readFnConfig, readStdin, stdinResources, UsageError } from "./eval-input.js";
import { saveFunctionToKptfile } from "./eval-save.js";
import {
  ensureResultsDir,
  outputDirProblem,
  resolvePackage,
  resourceListText,
  unwrapText,
  writeResourceFiles,
} from "./fn-io.js";
import { functionRunnerFromFlags } from "./function-runner-flags.js";
import { readPackageDir, writePackageDir } from "./package-dir.js";
import { createRenderPrinter } from "./printer.js";
import { resultsFileText } from "./results-file.js";
import { std } from "./std-write.js";

const err = (text: string): void => {
  std.write(2, text);
};

/** kpt's checks before anything runs (`preRunE`, `validateOptionalFlags`, `getFunctionSpec`). */
function checkArgs(args: EvalArgs): void {
  if (args.imagePrefix !== undefined) {
    const problem = imagePrefixProblem(args.imagePrefix);
    if (problem) throw new UsageError(problem);
  }
  if (args.includeMetaResources) {
    throw new UsageError(
      "--include-meta-resources is no longer necessary because meta resources are now included by default",
    );
  }
  if (args.save) {
    if (!args.fnType)
      throw new UsageError("--type must be specified if saving functions to Kptfile (--save=true)");
    if (args.fnType !== "mutator" && args.fnType !== "validator")
      throw new UsageError("--type must be either `mutator` or `validator`");
  }
  if (!args.image && !args.exec) throw new UsageError("must specify --image or --exec");
  if (args.dataItems.length > 0 && args.fnConfig) {
    throw new UsageError("function arguments can only be specified without function config file");
  }
  if (!args.image && (args.asCurrentUser || args.network || args.mounts.length > 0 || args.env.length > 0)) {
    throw new UsageError(
      "--mount, --as-current-user, --network and --env can only be used with container functions",
    );
  }
}

async function writeEvalOutput(
  args: EvalArgs,
  result: EvalResult,
  outDir: string | undefined,
): Promise<void> {
  const output = args.output ?? (args.pkgPath === "-" ? "stdout" : undefined);
  if (output === "stdout") std.write(1, resourceListText(result.resources));
  else if (output === "unwrap") std.write(1, unwrapText(result.resources));
  else if (outDir) {
    if (result.files) await writeResourceFiles(outDir, result.files, result.resourcePaths ?? []);
    else {
      const composed = composeFiles({
        files: new Map(),
        entries: result.resources.map((doc) => documentEntry(doc, annotationsOf(doc) === undefined)),
        parsed: new Map(),
        inputFiles: new Set(),
      });
      await writeResourceFiles(outDir, composed.files, composed.resourcePaths);
    }
  }
}

/** Runs `porchlight fn eval`; resolves to the exit code. */
export async function runEval(argv: string[]): Promise<number> {
  let args: EvalArgs;
  try {
    args = parseEvalArgs(argv);
    if (args.help) {
      std.write(1, EVAL_USAGE);
      return 0;
    }
    checkArgs(args);
  } catch (e) {
    err(`error: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    return await evalWith(args);
  } catch (e) {
    err(`${e instanceof UsageError ? "error" : "Error"}: ${(e as Error).message}\n`);
    return 1;
  }
}

/** Where `fn eval` reads and writes, checked before the function runs (throws UsageError). */
async function evalPlaces(args: EvalArgs) {
  const toDir = args.output !== undefined && args.output !== "stdout" && args.output !== "unwrap";
  const outDir = toDir ? path.resolve(args.output!) : undefined;
  const outProblem = toDir ? outputDirProblem(args.output!) : undefined;
  if (outProblem) throw new UsageError(outProblem);
  if (args.resultsDir !== undefined) {
    const problem = await ensureResultsDir(args.resultsDir);
    if (problem) throw new UsageError(problem);
  }
  const fromStdin = args.pkgPath === "-";
  const pkgDir = fromStdin ? undefined : await resolvePackage(args.pkgPath);
  // kpt saves into the Kptfile of the package, or of the working directory for `-`.
  const saveDir = pkgDir ?? path.resolve(".");
  const fnConfigRel = args.fnConfig ? path.relative(saveDir, path.resolve(args.fnConfig)) : undefined;
  if (
    args.save &&
    fnConfigRel !== undefined &&
    (fnConfigRel.startsWith("..") || path.isAbsolute(fnConfigRel))
  ) {
    throw new UsageError(`--fn-config must be under ${saveDir} if saving functions to Kptfile (--save=true)`);
  }
  return { outDir, fromStdin, pkgDir, saveDir, fnConfigRel };
}

async function evalWith(args: EvalArgs): Promise<number> {
  const functionRunner = await functionRunnerFromFlags(args.functionRunner);
  const { outDir, fromStdin, pkgDir, saveDir, fnConfigRel } = await evalPlaces(args);
  const functionConfig = args.fnConfig
    ? await readFnConfig(path.resolve(args.fnConfig))
    : argsFunctionConfig(args.dataItems);
  const files = pkgDir ? await readPackageDir(pkgDir) : undefined;
  const resources = fromStdin ? stdinResources(await readStdin()) : undefined;
  const fn = args.image ? { image: args.image } : { exec: args.exec };
  const label = args.image ? resolveImage(args.image, args.imagePrefix) : (args.exec ?? "");
  const printer = createRenderPrinter({ write: err, truncate: args.truncateOutput });
  const runtime = createDefaultRuntime({
    allowExec: true,
    starlark: readStarlarkSettings(process.env),
    ...(functionRunner ? { functionRunner } : {}),
  });
  const result = await evaluateFunction({
    files,
    resources,
    packageName: pkgDir ? path.basename(pkgDir) : "",
    fn,
    label,
    functionConfig,
    selector: isEmptySelector(args.selector) ? undefined : args.selector,
    exclusion: isEmptySelector(args.exclusion) ? undefined : args.exclusion,
    runtime,
    cwd: process.cwd(),
    onEvent: printer.onEvent,
  }).finally(() => runtime.close());
  if (result.ok) {
    if (args.output !== undefined || fromStdin) await writeEvalOutput(args, result, outDir);
    else if (pkgDir && files && result.files) {
      await writePackageDir({ dir: pkgDir, previous: files, next: result.files });
    }
  }
  if (args.resultsDir !== undefined && result.step) {
    const file = path.join(path.resolve(args.resultsDir), "results.yaml");
    await writeFile(file, resultsFileText([result.step], result.ok ? 0 : 1));
    err(`\nFor complete results, see ${file}\n`);
  }
  if (result.ok && args.save) await saveStep(args, saveDir, label, fnConfigRel);
  if (!result.ok && result.error !== undefined) err(`Error: ${result.error}\n`);
  return result.ok ? 0 : 1;
}

/** `--save`: the step into the Kptfile of `saveDir`, as kpt's `fn eval --save` writes it. */
async function saveStep(args: EvalArgs, saveDir: string, label: string, fnConfigRel: string | undefined) {
  const message = await saveFunctionToKptfile(saveDir, {
    fnType: args.fnType as "mutator" | "validator",
    image: args.image ? label : undefined,
    tag: args.tag,
    exec: args.exec,
    configPath: fnConfigRel?.split(path.sep).join("/"),
    dataItems: args.dataItems,
    selector: args.selector,
    exclusion: args.exclusion,
  });
  err(`${message}\n`);
}

/** `fn eval` as a lazily loaded subcommand module. */
export async function run(argv: string[]): Promise<number> {
  return runEval(argv);
}
