/**
 * Runs one function process with its input on stdin, bounded in time and output. The process leads its
 * own process group, so a timeout or an output over the cap kills everything it started (a wrapper
 * script's `sleep` included), and the run ends at the kill instead of waiting for every holder of its
 * stdout to close it. What is left of the group when the run ends (a process it sent to the background)
 * is killed then too: nothing a function starts outlives it, unless it leaves the group on purpose.
 */
import { type SpawnOptionsWithStdioTuple, spawn } from "node:child_process";

/** What `runProcess` observed; exactly one of `spawnError`, `timedOut`, `overflow` or an exit is set. */
export interface ProcessRun {
  /** The exit code, when the process exited by itself (`null` when a signal ended it). */
  exitCode?: number | null;
  /** The signal that ended the process, when one did (not one of ours: see `timedOut`, `overflow`). */
  signal?: NodeJS.Signals | null;
  /** stdout decoded as UTF-8 (what was read before a kill); `input` itself when it is the same bytes. */
  stdout: string;
  /** stderr decoded as UTF-8. */
  stderr: string;
  /** The process group was killed because the run exceeded `timeoutMs`. */
  timedOut: boolean;
  /** The process group was killed because stdout or stderr exceeded `maxBytes`. */
  overflow: boolean;
  /** The process could not be started (e.g. `ENOENT`: no such executable or working directory). */
  spawnError?: NodeJS.ErrnoException;
}

/** Options of `runProcess`. */
export interface RunProcessOptions {
  cwd: string;
  /** Written to stdin, which is then closed (a process that does not read it is not an error). */
  input: string;
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
  /** Cap on stdout and on stderr, each in bytes. */
  maxBytes: number;
  /** The environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** argv[0] as the program sees it, when `file` is a resolved path (multi-call binaries read it). */
  argv0?: string;
  /** Start the process as this user and group (numeric ids; the caller must be allowed to switch). */
  runAs?: { uid: number; gid: number };
}

const live = new Set<number>();
let unhook: (() => void) | undefined;
let onGroup: ((pgid: number, running: boolean) => void) | undefined;

/**
 * Tells `listener` of every function process group started from now on: `running` true once it is
 * spawned, false once its run is over and the group was killed. A render worker passes them on to the
 * pool, which kills them with the worker (a worker killed by SIGKILL runs no exit hook). One listener
 * per process; a later call replaces it.
 */
export function reportProcessGroups(listener: (pgid: number, running: boolean) => void): void {
  onGroup = listener;
}

/** Kills the process groups still running when this process exits (Ctrl-C included). */
async function hookExit(): Promise<void> {
  if (unhook) return;
  const { onExit } = await import("signal-exit");
  unhook ??= onExit(() => {
    for (const pgid of live) killGroup(pgid);
  });
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}

/** The process leads its own group (see the module comment), with the caller's environment, argv[0] and user. */
function spawnOptions(options: RunProcessOptions): SpawnOptionsWithStdioTuple<"pipe", "pipe", "pipe"> {
  return {
    cwd: options.cwd,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    ...(options.env ? { env: options.env } : {}),
    ...(options.argv0 ? { argv0: options.argv0 } : {}),
    ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
  };
}

/**
 * Spawns `file args` in `cwd` as the leader of a new process group and collects its output. Never
 * rejects. On timeout or overflow the whole group gets SIGKILL and the promise resolves at once with
 * what was read so far.
 */
export async function runProcess(
  file: string,
  args: string[],
  options: RunProcessOptions,
): Promise<ProcessRun> {
  await hookExit();
  return new Promise((resolve) => {
    // The input as bytes once: written, then compared with what came back (an echo is the input text).
    let input: Buffer | undefined = Buffer.from(options.input, "utf8");
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const sizes = { out: 0, err: 0 };
    // How many bytes of stdout so far are the input's first bytes, while nothing else came.
    let echo = 0;
    let echoing = true;
    let done = false;
    const child = spawn(file, args, spawnOptions(options));
    const pid = child.pid;
    if (pid !== undefined) {
      live.add(pid);
      onGroup?.(pid, true);
    }

    const finish = (end: Partial<ProcessRun>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (pid !== undefined) {
        // The leader has exited (or was killed): what is left of its group goes with it.
        killGroup(pid);
        live.delete(pid);
        onGroup?.(pid, false);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      // An output that so far repeats the input is held as that length of the input, not as chunks.
      const echoed = echoing && input !== undefined && echo === input.length;
      const bytes = echoing ? input?.subarray(0, echo) : Buffer.concat(out);
      out.length = 0;
      input = undefined;
      resolve({
        stdout: echoed ? options.input : (bytes?.toString("utf8") ?? ""),
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut: false,
        overflow: false,
        ...end,
      });
    };
    const kill = (end: Partial<ProcessRun>) => {
      if (pid !== undefined) killGroup(pid);
      child.kill("SIGKILL");
      finish(end);
    };
    const timer = setTimeout(() => kill({ timedOut: true }), options.timeoutMs);

    const collect = (chunks: Buffer[], key: "out" | "err") => (chunk: Buffer) => {
      if (done) return;
      sizes[key] += chunk.length;
      if (sizes[key] > options.maxBytes) {
        kill({ overflow: true });
        return;
      }
      if (key === "out" && echoing) {
        // Still the input's next bytes: counted, not kept (a function that hands its input back
        // costs no copy of it); at the first difference the echoed part becomes the first chunk.
        if (input && chunk.equals(input.subarray(echo, echo + chunk.length))) {
          echo += chunk.length;
          return;
        }
        echoing = false;
        if (input && echo > 0) chunks.push(input.subarray(0, echo));
      }
      chunks.push(chunk);
    };
    child.stdout.on("data", collect(out, "out"));
    child.stderr.on("data", collect(err, "err"));
    child.stdin.on("error", () => {}); // EPIPE: the function exited without reading all its input
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (pid === undefined) finish({ spawnError: error });
      else kill({ spawnError: error });
    });
    child.on("close", (code, signal) => finish({ exitCode: code, signal }));
    child.stdin.end(input);
  });
}
