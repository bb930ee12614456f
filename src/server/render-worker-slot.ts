/**
 * One render worker of the pool and what crosses to it: the settings it is started with, the render it is
 * sent, its replies. A slot is a child process with the render it holds (at most one) and that render's
 * budget timer; the pool decides what to do on each of the worker's events.
 *
 * A process, not a worker thread: a worker thread that runs out of heap can abort the whole server
 * (nodejs/node#47224, "whole process crash due to worker thread allocation"), where a child's V8 aborts
 * only the child. Messages are structured clones (`serialization: "advanced"`), as with threads.
 */
import { type ChildProcess, fork } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import type { KptfileStatusMode, PushOnFailure, RenderResult } from "../engine/types.js";
import type { StarlarkSettings } from "../runtimes/builtin/starlark/settings.js";
import type { ExecConfinement } from "../runtimes/exec/confine.js";
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";

/** What a worker is sent first (never its argv: `ps` shows that): the operator's runtime permissions, nothing else. */
export interface WorkerSettings {
  allowExec: boolean;
  allowContainers: boolean;
  execTimeoutMs?: number;
  /** The operator's limits on `exec:` functions (allowed programs, the user they run as). */
  execConfinement?: ExecConfinement;
  /** The operator's function runner (plain data: address, allow-list, TLS PEM texts, time limit). */
  functionRunner?: FunctionRunnerSettings;
  starlarkMaxSteps: number;
  /** The starlark function's settings, read in the main process (workers see a scrubbed environment). */
  starlark: StarlarkSettings;
}

/** One render asked of the pool: the engine's `RenderOptions` without the runtime (each worker binds its own). */
export interface RenderRequest {
  files: ReadonlyMap<string, Uint8Array>;
  packageName: string;
  packageDir?: string;
  pushOnFailure?: PushOnFailure;
  kptfileStatus?: KptfileStatusMode;
  writeStatus?: boolean;
}

/** One render as sent to a worker. */
export interface WorkerRequest {
  id: number;
  request: RenderRequest;
}

/** The first message to a worker: its settings. */
export interface WorkerHello {
  settings: WorkerSettings;
}

/**
 * A worker's message: `ready` once it has loaded (the time budget of a render starts then), then per
 * render the result (without `resources`) or the text of an unexpected error. `group` tells of an
 * `exec:` function's process group (its own, so not the worker's): started (`running`) or over.
 */
export type WorkerReply =
  | { ready: true }
  | { id: number; result: RenderResult }
  | { id: number; error: string }
  | { group: number; running: boolean };

/** A render in the pool: waiting for a worker, then held by one. Times are `Date.now()` ms. */
export interface PoolJob {
  id: number;
  request: RenderRequest;
  enqueuedAt: number;
  /** When its time budget started (the worker was ready and had the request). */
  startedAt: number;
  resolve: (result: RenderResult) => void;
  reject: (error: unknown) => void;
}

/** A worker of the pool and the render it holds. */
export interface Slot {
  child: ChildProcess;
  /** Settles once the process has exited. */
  exited: Promise<void>;
  /** The last few KiB the process wrote to stderr (V8's out-of-memory report ends up there). */
  stderrTail: string;
  /** Process groups of the `exec:` functions running in the worker (killed with it). */
  groups: Set<number>;
  job: PoolJob | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The worker has loaded the engine (a render's time budget does not include start-up; `timer` bounds it). */
  ready: boolean;
  /** Retired: terminated (or terminating), never given another render. */
  gone: boolean;
}

/**
 * How a worker is started: its script, settings, environment, old-generation heap limit (MiB) and the
 * time it may take to load (ms).
 */
export interface WorkerStart {
  url: URL;
  settings: WorkerSettings;
  env: Record<string, string>;
  memoryMb: number;
  startTimeoutMs: number;
}

/** What the pool does on a worker's events (its messages, a failure to start or reach it, its exit). */
export interface SlotEvents {
  /** The worker has loaded. */
  ready(slot: Slot): void;
  /** The reply to the render the slot holds (replies to another render are dropped before this). */
  reply(slot: Slot, job: PoolJob, reply: Extract<WorkerReply, { id: number }>): void;
  /** The process could not be started or sent a message (Node's `error` event). */
  error(slot: Slot, error: Error): void;
  /** The process ran out of heap: V8 aborted it after reporting "JavaScript heap out of memory". */
  outOfMemory(slot: Slot): void;
  /** The process ended otherwise: its exit code, or the signal that ended it. */
  exit(slot: Slot, code: number | NodeJS.Signals): void;
}

const STDERR_TAIL_CHARS = 4096;
/** How long after a worker's exit its stderr may still deliver V8's report (ms). */
const STDERR_GRACE_MS = 1_000;

/** What V8 prints before it aborts a process over its heap limit. */
function ranOutOfHeap(stderr: string): boolean {
  return /Reached heap limit|JavaScript heap out of memory/.test(stderr);
}

/**
 * Starts a worker process with the heap limit of the budget, in its own process group (so that stopping
 * it stops the `exec:` functions it started too); it never keeps the server alive by itself. Its
 * stderr is passed on to the server's.
 */
export function spawnSlot(start: WorkerStart, events: SlotEvents): Slot {
  const child = fork(fileURLToPath(start.url), [], {
    execArgv: [`--max-old-space-size=${start.memoryMb}`],
    env: start.env,
    serialization: "advanced",
    stdio: ["ignore", "inherit", "pipe", "ipc"],
    detached: true,
  });
  let exited!: () => void;
  const slot: Slot = {
    child,
    exited: new Promise<void>((resolve) => {
      exited = resolve;
    }),
    stderrTail: "",
    groups: new Set(),
    job: undefined,
    timer: undefined,
    ready: false,
    gone: false,
  };
  // An idle worker does not keep the process alive; a render it holds does (`sendJob`).
  child.unref();
  child.channel?.unref();
  // A pipe to a child is a socket.
  (child.stderr as Socket | null)?.unref();
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    process.stderr.write(text);
    slot.stderrTail = (slot.stderrTail + text).slice(-STDERR_TAIL_CHARS);
  });
  child.on("message", (reply: WorkerReply) => {
    if ("ready" in reply) {
      slot.ready = true;
      events.ready(slot);
      return;
    }
    if ("group" in reply) {
      if (!reply.running) slot.groups.delete(reply.group);
      // Started just before the worker was stopped: it goes the same way.
      else if (slot.gone) killGroup(reply.group);
      else slot.groups.add(reply.group);
      return;
    }
    const job = slot.job;
    if (job && job.id === reply.id) events.reply(slot, job, reply);
  });
  child.on("error", (error: Error) => {
    // A process that never started sends no `exit`.
    if (child.pid === undefined) exited();
    events.error(slot, error);
  });
  child.on("exit", (code, signal) => {
    exited();
    // stderr may still hold V8's last words: judge once it has ended, or after a second at most (a
    // process that left the group may hold it open).
    let judged = false;
    const judge = () => {
      if (judged) return;
      judged = true;
      clearTimeout(fallback);
      if (ranOutOfHeap(slot.stderrTail)) events.outOfMemory(slot);
      else events.exit(slot, signal ?? code ?? 0);
    };
    const fallback = setTimeout(judge, STDERR_GRACE_MS);
    if (child.stderr && !child.stderr.readableEnded) child.stderr.once("end", judge);
    else judge();
  });
  child.send({ settings: start.settings } satisfies WorkerHello);
  return slot;
}

/**
 * Hands the slot its render and sends it to the worker. Until it is taken off, the worker keeps the
 * process alive (while it starts, no budget timer does).
 */
export function sendJob(slot: Slot, job: PoolJob): void {
  slot.job = job;
  slot.child.ref();
  slot.child.send({ id: job.id, request: job.request } satisfies WorkerRequest);
}

/** Takes the slot's render off it (and its timer); the slot is then free or gone. */
export function takeJob(slot: Slot): PoolJob | undefined {
  const job = slot.job;
  slot.job = undefined;
  slot.child.unref();
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = undefined;
  return job;
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // gone already
  }
}

/**
 * Kills the worker's process group (the worker and what it started in it) unless the worker has
 * exited, and the process groups of the `exec:` functions it was running: they lead groups of their
 * own, and a worker killed (or aborted by V8) runs no exit hook to stop them.
 */
export function killSlot(slot: Slot): void {
  const pid = slot.child.pid;
  if (pid !== undefined && slot.child.exitCode === null && slot.child.signalCode === null) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      slot.child.kill("SIGKILL");
    }
  }
  for (const group of slot.groups) killGroup(group);
  slot.groups.clear();
}

/**
 * Marks the slot gone and kills its worker (once); returns the render it held, if any.
 * `undefined` too when the slot was retired already.
 */
export function stopSlot(slot: Slot): PoolJob | undefined {
  if (slot.gone) return undefined;
  slot.gone = true;
  const job = takeJob(slot);
  killSlot(slot);
  return job;
}
