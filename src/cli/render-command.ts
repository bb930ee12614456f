/**
 * `porchlight render [PKG_PATH]`: kpt fn render on a directory. Steps: parse flags; resolve the
 * package path (a symlink is resolved with a `[WARN]`); refuse an existing `-o` directory; read the
 * package; render with the default runtime chain; write in place (or to `-o`); write
 * `--results-dir/results.yaml`; print kpt's summary; exit 1 on failure.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { imagePrefixProblem } from "../engine/image.js";
import { renderPackage } from "../engine/render.js";
import type { PackageFiles, RenderResult } from "../engine/types.js";
import { readStarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import { createDefaultRuntime } from "../runtimes/default.js";
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";
import {
  ensureResultsDir,
  outputDirProblem,
  resolvePackage,
  resourceListText,
  unwrapText,
  writeResourceFiles,
} from "./fn-io.js";
import { functionRunnerFromFlags } from "./function-runner-flags.js";
import { boundYoungGeneration, createStepCollector } from "./heap.js";
import { exists, readPackageDir, writePackageDir } from "./package-dir.js";
import { createRenderPrinter } from "./printer.js";
import { createProgress, type Progress } from "./progress.js";
import { parseRenderArgs, RENDER_USAGE, type RenderArgs } from "./render-args.js";
import { resultsFileText } from "./results-file.js";
import { std } from "./std-write.js";

/** The status line of the running render on a terminal (set per run: nothing when stderr is not a TTY). */
let progress: Progress = createProgress({ write: () => undefined });

const err = (text: string): void => {
  progress.clear();
  std.write(2, text);
};

/** kpt's summary line after an in-place render that failed. */
function failureSummary(result: RenderResult): string {
  const packages = result.packageCount ?? 0;
  const executed = result.executedCount ?? 0;
  return executed === 0
    ? `Failed to execute any functions in ${packages} package(s).\n`
    : `Partially executed ${executed} function(s) in ${packages} package(s).\n`;
}

async function writeOutput(
  args: RenderArgs,
  result: RenderResult,
  outDir: string | undefined,
): Promise<void> {
  if (args.output === "stdout") {
    std.write(1, resourceListText(result.resources ?? []));
  } else if (args.output === "unwrap") {
    std.write(1, unwrapText(result.resources ?? []));
  } else if (outDir && result.files) {
    await writeResourceFiles(outDir, result.files, result.resourcePaths ?? []);
  }
}

/** What the checks before a render give: the parsed flags and places, or the exit code to end with. */
type Prepared = { args: RenderArgs; pkgDir: string; outDir: string | undefined } | { exit: number };

/** Parses and checks the flags and places (`--help`, image prefix, output and results directories). */
async function prepareRender(argv: string[], usage: string): Promise<Prepared> {
  let args: RenderArgs;
  try {
    args = parseRenderArgs(argv);
  } catch (e) {
    err(`Error: ${(e as Error).message}\n\n${usage}`);
    return { exit: 1 };
  }
  if (args.help) {
    std.write(1, usage);
    return { exit: 0 };
  }
  const prefixProblem = args.imagePrefix === undefined ? undefined : imagePrefixProblem(args.imagePrefix);
  if (prefixProblem) {
    err(`Error: ${prefixProblem}\n`);
    return { exit: 1 };
  }
  const pkgDir = await resolvePackage(args.pkgPath);
  const toDir = args.output !== undefined && args.output !== "stdout" && args.output !== "unwrap";
  const outDir = toDir ? path.resolve(args.output!) : undefined;
  const outProblem = toDir ? outputDirProblem(args.output!) : undefined;
  if (outProblem) {
    err(`Error: ${outProblem}\n`);
    return { exit: 1 };
  }
  if (args.resultsDir !== undefined) {
    const problem = await ensureResultsDir(args.resultsDir);
    if (problem) {
      err(`Error: ${problem}\n`);
      return { exit: 1 };
    }
  }
  return { args, pkgDir, outDir };
}

/** Renders the package read from `pkgDir` with the runtime the flags allow, printing as kpt does. */
async function renderFiles(
  args: RenderArgs,
  pkgDir: string,
  files: PackageFiles,
  functionRunner: FunctionRunnerSettings | undefined,
) {
  const printer = createRenderPrinter({ write: err, truncate: args.truncateOutput });
  boundYoungGeneration(files);
  const afterStep = createStepCollector();
  const runtime = createDefaultRuntime({
    allowExec: args.allowExec,
    starlark: readStarlarkSettings(process.env),
    ...(functionRunner ? { functionRunner } : {}),
  });
  const result = await renderPackage({
    files,
    runtime,
    packageName: path.basename(pkgDir),
    packageDir: pkgDir,
    pushOnFailure: args.pushOnFailure,
    // For a kpt older than 1.0.0-beta.62 that refuses status.renderStatus (as the app's setting).
    ...(process.env.PORCHLIGHT_KPTFILE_STATUS === "conditions"
      ? { kptfileStatus: "conditions" as const }
      : {}),
    cwd: process.cwd(),
    onEvent: (event) => {
      printer.onEvent(event);
      if (event.type === "step-end") afterStep();
      if (event.type === "step-start")
        progress.tick(
          `  running ${event.step.label ?? event.step.name} on ${event.step.resourceCount} resources`,
        );
      else progress.clear();
    },
    writeStatus: args.output === undefined,
    attribution: !process.env.KRM_DISABLE_ATTRIBUTION,
    imagePrefix: args.imagePrefix,
    withResources: args.output === "stdout" || args.output === "unwrap",
  }).finally(() => runtime.close());
  if (result.ok) printer.finish();
  return result;
}

/** Writes the render's output where the flags say, prints kpt's closing lines; resolves to the exit code. */
async function finishRender(
  args: RenderArgs,
  result: Awaited<ReturnType<typeof renderFiles>>,
  place: { pkgDir: string; outDir: string | undefined; files: PackageFiles },
): Promise<number> {
  if (result.ok && args.output !== undefined) await writeOutput(args, result, place.outDir);
  else if (result.files && args.output === undefined) {
    try {
      await writePackageDir({
        dir: place.pkgDir,
        previous: place.files,
        next: result.files,
        onFile: (done, total) => progress.show(`writing: ${done}/${total} files`),
      });
      progress.clear();
    } catch (e) {
      err(`Error: failed to save resources: ${(e as Error).message}\n`);
      return 1;
    }
  }
  if (result.ok && args.output === undefined) {
    err(
      `Successfully executed ${result.executedCount ?? 0} function(s) in ${result.packageCount ?? 0} package(s).\n`,
    );
  } else if (!result.ok && args.output === undefined && !result.failedBeforeRender) {
    err(failureSummary(result));
  }
  if (args.resultsDir !== undefined && !result.failedBeforeRender) {
    const file = path.join(path.resolve(args.resultsDir), "results.yaml");
    writeFileSync(file, resultsFileText(result.steps, result.ok ? 0 : 1));
    err(`For complete results, see ${file}\n`);
  }
  if (!result.ok && result.cliError !== undefined) {
    const message = result.cliError.startsWith("Error: ") ? result.cliError : `Error: ${result.cliError}`;
    err(`${message.endsWith("\n") ? message : `${message}\n`}`);
  }
  return result.ok ? 0 : 1;
}

/** Runs `porchlight render` (`usage`: the text printed with a usage error); resolves to the exit code. */
export async function runRender(argv: string[], usage = RENDER_USAGE): Promise<number> {
  progress = createProgress(std.terminal() ?? { write: () => undefined });
  const prepared = await prepareRender(argv, usage);
  if ("exit" in prepared) return prepared.exit;
  const { args, pkgDir, outDir } = prepared;
  // No Kptfile: the engine's error at once, without reading the tree first (kpt fails as fast).
  const files: PackageFiles = (await exists(path.join(pkgDir, "Kptfile")))
    ? await readPackageDir(pkgDir, (n) => progress.show(`reading the package: ${n} files`))
    : new Map();
  progress.clear();
  let functionRunner: FunctionRunnerSettings | undefined;
  try {
    functionRunner = await functionRunnerFromFlags(args.functionRunner);
  } catch (e) {
    err(`Error: ${(e as Error).message}\n\n${usage}`);
    return 1;
  }
  const result = await renderFiles(args, pkgDir, files, functionRunner);
  return finishRender(args, result, { pkgDir, outDir, files });
}
