/**
 * The `exec` runtime: runs a Kptfile `exec:` function as a local process (kpt's exec runtime, which
 * needs `--allow-exec`). The ResourceList goes to stdin as YAML; the ResourceList on stdout comes back.
 */
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { NodeResourceList, ResourceList } from "../../krm/resource-list.js";
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRuntime } from "../runtime.js";
import { confinedPath, confineExecutable, type ExecConfinement } from "./confine.js";
import { type ProcessRun, type RunProcessOptions, runProcess } from "./run-process.js";
import { splitCommand } from "./split-command.js";
import { documentWire, nodeWire, type Wire } from "./wire-nodes.js";

/** kpt's message when an exec function runs without permission. */
export const EXEC_NOT_ALLOWED = "must run with `--allow-exec` option to allow running function binaries";

/** Options of the exec runtime. */
export interface ExecRuntimeOptions {
  /** Whether `exec:` functions may run at all (kpt's `--allow-exec`). */
  allow: boolean;
  /**
   * The app's rule (`confine.ts`): a relative executable path names a file of the package and is
   * refused with a result naming the Kptfile and step; only bare names and absolute paths run.
   * Default false: the CLI's (kpt's) rule, a relative path resolves against the working directory.
   */
  confine?: boolean;
  /** The operator's limits when `confine` is set: allowed programs, the user functions run as. */
  confinement?: ExecConfinement;
  /** Working directory for requests that give none (default: the process's current directory). */
  cwd?: string;
  /**
   * Wall-clock limit per run in milliseconds (default 60 000); past it the function's whole process group
   * is killed (a wrapper script's children too) and the run fails.
   */
  timeoutMs?: number;
  /** Cap on stdout and on stderr, each in bytes (default 64 MiB); past it the process is killed. */
  maxOutputBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

function appendLine(text: string, line: string): string {
  return text === "" ? line : `${text.replace(/\n+$/, "")}\n${line}`;
}

/**
 * Runs a confined function: in an empty directory of its own (removed afterwards), with `PATH` confined,
 * argv[0] as the step wrote it, as the operator's user when one is set.
 */
async function runConfined(
  program: string,
  argv0: string,
  args: string[],
  base: Omit<RunProcessOptions, "cwd">,
  confinement: ExecConfinement | undefined,
): Promise<ProcessRun> {
  const cwd = mkdtempSync(path.join(os.tmpdir(), "porchlight-exec-"));
  try {
    const runAs = confinement?.runAs;
    if (runAs) chownSync(cwd, runAs.uid, runAs.gid);
    const env = { ...process.env, PATH: confinedPath(process.env.PATH) };
    return await runProcess(program, args, { ...base, cwd, env, argv0, ...(runAs ? { runAs } : {}) });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** What a step's run gave: the process's output decoded by `decode`, or why it failed (never throws). */
function outcomeOf<L extends ResourceList | NodeResourceList>(
  result: ProcessRun,
  file: string,
  decode: (stdout: string) => L,
  { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
): Omit<FunctionRunOutcome, "output"> & { output?: L } {
  const { stdout, stderr } = result;
  if (result.spawnError) {
    const why =
      result.spawnError.code === "ENOENT"
        ? `exec: ${JSON.stringify(file)}: executable file not found`
        : result.spawnError.message;
    return { exitCode: 1, stderr, executionError: why };
  }
  if (result.timedOut) {
    return { exitCode: 1, stderr: appendLine(stderr, `function timed out after ${timeoutMs}ms`) };
  }
  if (result.overflow) {
    return { exitCode: 1, stderr: appendLine(stderr, `function output exceeded ${maxBytes} bytes`) };
  }
  if (result.exitCode === null || result.exitCode === undefined) {
    return { exitCode: 1, stderr, executionError: `signal: ${result.signal ?? "unknown"}` };
  }
  const exitCode = result.exitCode;
  try {
    const output = decode(stdout);
    return { exitCode, stderr, output };
  } catch (err) {
    if (exitCode !== 0) return { exitCode, stderr };
    const why = err instanceof Error ? err.message : String(err);
    return {
      exitCode: 1,
      stderr: appendLine(stderr, `function wrote no valid ResourceList to stdout: ${why}`),
    };
  }
}

/**
 * Creates the exec runtime. `run` (and `runNodes`, on node items) resolves `undefined` for `image:`
 * steps. It never throws: a command that cannot start gives `executionError`; a non-zero exit, a
 * timeout, an output over the cap or an unparsable stdout give a non-zero `exitCode` with the reason
 * in `stderr`.
 */
export function createExecRuntime(options: ExecRuntimeOptions): FunctionRuntime {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const limits = { timeoutMs, maxBytes };
  /** Runs the step's command on `input` (written lazily, once the command is known to run). */
  const execute = async <L extends ResourceList | NodeResourceList>(
    request: Omit<FunctionRunRequest, "input">,
    encode: () => Wire<L>,
  ): Promise<(Omit<FunctionRunOutcome, "output"> & { output?: L }) | undefined> => {
    const command = request.fn.exec;
    if (command === undefined || request.fn.image) return undefined;
    if (!options.allow) return { exitCode: 1, stderr: "", executionError: EXEC_NOT_ALLOWED };
    let argv: string[];
    try {
      argv = splitCommand(command);
    } catch (err) {
      return { exitCode: 1, stderr: "", executionError: err instanceof Error ? err.message : String(err) };
    }
    if (argv.length === 0) return { exitCode: 1, stderr: "", executionError: "exec command is empty" };
    const [file, ...args] = argv;
    let program: string | undefined;
    if (options.confine) {
      const path = confinedPath(process.env.PATH);
      const confined = confineExecutable(file, command, request.origin, options.confinement, path);
      if ("problem" in confined) return { exitCode: 1, stderr: "", executionError: confined.problem };
      program = confined.program;
    }
    const wire = encode();
    const base = { input: wire.text, timeoutMs, maxBytes };
    const result =
      program !== undefined
        ? await runConfined(program, file, args, base, options.confinement)
        : await runProcess(file, args, { ...base, cwd: request.cwd ?? options.cwd ?? process.cwd() });
    return outcomeOf(result, file, wire.decode, limits);
  };
  return {
    name: "exec",
    // The input is written to the process; an item handed back unchanged is the input document.
    keepsInput: () => true,
    run: (request) => execute(request, () => documentWire(request.input)),
    runNodes: (request) => execute(request, () => nodeWire(request.input)),
  };
}
