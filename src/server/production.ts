/**
 * What the app needs to run as a service, built once per app instance from the process settings:
 * the render function bound to a worker-process pool with the operator's budgets, Prometheus metrics,
 * `/healthz` and `/metrics` on Probot's HTTP server, GitHub error counting, and graceful shutdown.
 *
 * Steps:
 * 1. start the render pool (renders run off the main event loop, within time and memory budgets;
 *    `PORCHLIGHT_RENDER_WORKERS=0` renders in process instead);
 * 2. create the metrics and add `/healthz` and `/metrics` to Probot's server;
 * 3. on every GitHub client the app authenticates: a time limit per request attempt (a timed-out attempt
 *    is logged, counted as status `0` and retried), GitHub errors counted by status; log every webhook
 *    (delivery, event, repository, branch, sha);
 * 4. install the SIGTERM handler: drain the work queue (once attached), then stop the pool.
 * Jobs run through `wrapJobHandler` log with their fields (`log`) and are counted and timed.
 */
import type { ApplicationFunctionOptions, Probot } from "probot";
import type { ServerSettings } from "../config/server-settings.js";
import type { RenderResult } from "../engine/types.js";
import type { Octokit } from "../github/octokit/client.js";
import { answeredStatus } from "../github/octokit/errors.js";
import { isRequestTimeout, limitRequestTime } from "../github/octokit/timeout.js";
import type { ExecConfinement } from "../runtimes/exec/confine.js";
import type { FunctionRunnerSettings } from "../runtimes/function-runner/function-runner-runtime.js";
import { operationsHandler } from "./http-endpoints.js";
import {
  contextLog,
  dropRepeatedFieldsInChildren,
  dropRepeatedLogFields,
  jobFields,
  type Log,
  type StructuredLog,
  webhookFields,
  withLogFields,
} from "./job-log.js";
import { Metrics } from "./metrics.js";
import { createRenderPool, type RenderPool, type RenderRequest } from "./render-pool.js";
import { installShutdown, type Shutdown } from "./shutdown.js";

/** The operator's runtime permissions the render workers are built with. */
export interface RuntimePermissions {
  allowExec: boolean;
  allowContainers: boolean;
  execTimeoutMs?: number;
  execConfinement?: ExecConfinement;
  functionRunner?: FunctionRunnerSettings;
}

/** Something whose running work can be drained on shutdown and measured (the work queue). */
export interface Drainable {
  close(): Promise<void>;
  depth(): Promise<{ waiting: number; running: number }>;
}

/** Options of {@link startProduction}. */
export interface ProductionOptions {
  app: Probot;
  /** Probot's `addHandler` (absent when the app is loaded without a server, e.g. in tests). */
  addHandler?: ApplicationFunctionOptions["addHandler"] | undefined;
  settings: ServerSettings;
  permissions: RuntimePermissions;
  /** Signals handled (default SIGTERM, SIGINT); tests pass `[]`. */
  signals?: NodeJS.Signals[];
  exit?: (code: number) => void;
}

/** The running service parts. */
export interface Production {
  /**
   * Renders one package in the worker pool (each worker binds the runtime it built from the operator's
   * settings); `undefined` with `PORCHLIGHT_RENDER_WORKERS=0` (the caller renders in process).
   */
  render: ((request: RenderRequest) => Promise<RenderResult>) | undefined;
  metrics: Metrics;
  shutdown: Shutdown;
  /** Hands over the work queue: drained on shutdown, its depth exported as a metric. */
  attachQueue(queue: Drainable): void;
  /** Things to close last on shutdown (Redis connections). */
  onClose(close: () => Promise<void>): void;
  /** Probot's logger, adding the fields of the job it is called in (delivery, repository, branch, ...). */
  log: Log;
  /**
   * Adds the request time limit and error counting to a GitHub client the app built itself (not through
   * `app.auth`, which gets them already). Returns the client.
   */
  instrumentOctokit<T extends Octokit>(octokit: T): T;
  /** Runs each job with its log fields, and counts and times it. */
  wrapJobHandler<J extends { kind: string }, R>(
    handler: (job: J, run: R & { attempt: number }) => Promise<void>,
  ): (job: J, run: R & { attempt: number }) => Promise<void>;
}

interface OctokitHooks {
  hook?: { error(name: "request", fn: (error: { status?: number }) => unknown): void };
}

/**
 * Limits every request attempt of `octokit` to `timeoutMs` (each timed-out attempt logged and counted as
 * status `0`) and counts its failed requests by status (once per request, after Octokit's retries; a
 * failure that is a timeout was counted already; no answer at all is status `0`).
 */
function instrument<T extends Octokit>(
  octokit: T,
  options: { timeoutMs: number; metrics: Metrics; log: Log },
): T {
  const { metrics, log } = options;
  const marked = octokit as T & { [COUNTED]?: true };
  if (marked[COUNTED]) return octokit;
  marked[COUNTED] = true;
  limitRequestTime(octokit, {
    timeoutMs: options.timeoutMs,
    onTimeout: (t) => {
      metrics.githubError(0);
      log.warn(
        `GitHub did not answer ${t.method} ${t.path} within ${t.timeoutMs} ms; the request is retried`,
      );
    },
  });
  (octokit as unknown as OctokitHooks).hook?.error("request", (error) => {
    if (!isRequestTimeout(error)) metrics.githubError(answeredStatus(error));
    throw error;
  });
  return octokit;
}

const COUNTED = Symbol("porchlight.instrumented");

/** Step 1: the render pool with the operator's budgets, or `undefined` with `PORCHLIGHT_RENDER_WORKERS=0`. */
function startPool(options: ProductionOptions, metrics: Metrics): RenderPool | undefined {
  const { settings } = options;
  if (settings.render.workers <= 0) return undefined;
  return createRenderPool({
    budget: settings.render,
    env: settings.workerEnv,
    starlark: settings.starlark,
    runtime: options.permissions,
    onRender: (event) => metrics.render(event),
  });
}

/** Step 4: SIGTERM drains the work queue, then stops the pool, then closes `closers` in order. */
function shutdownOf(
  options: ProductionOptions,
  parts: {
    queue: () => Drainable | undefined;
    pool: RenderPool | undefined;
    closers: (() => Promise<void>)[];
  },
): Shutdown {
  const { pool, closers } = parts;
  return installShutdown({
    graceMs: options.settings.shutdownGraceMs,
    log: options.app.log,
    ...(options.signals ? { signals: options.signals } : {}),
    ...(options.exit ? { exit: options.exit } : {}),
    drain: async () => {
      await parts.queue()?.close();
    },
    abort: async () => {
      await pool?.close();
    },
    close: async () => {
      await pool?.close();
      for (const close of closers) await close().catch(() => undefined);
    },
  });
}

/** Step 3: instruments every client `app.auth` returns (installation and app clients); logs every webhook. */
function watchGitHub(
  app: Probot,
  parts: { metrics: Metrics; structured: StructuredLog; instrumentOctokit: <T extends Octokit>(o: T) => T },
): void {
  const { metrics, structured, instrumentOctokit } = parts;
  const auth = app.auth.bind(app);
  app.auth = (async (...args: Parameters<Probot["auth"]>) =>
    instrumentOctokit((await auth(...args)) as Octokit)) as Probot["auth"];
  app.onAny(async (context) => {
    metrics.webhook(context.name);
    structured.info(
      webhookFields(context.id, context.name, context.payload as Record<string, unknown>),
      "webhook",
    );
  });
}

/** Runs each job with its log fields, and counts and times it (`done` or `error`, ms). */
function timedJobHandler(metrics: Metrics): Production["wrapJobHandler"] {
  return (handler) => (job, run) => {
    const started = Date.now();
    return withLogFields(jobFields(job as unknown as Record<string, unknown>, run.attempt), async () => {
      try {
        await handler(job, run);
        metrics.job(job.kind, "done", Date.now() - started);
      } catch (error) {
        metrics.job(job.kind, "error", Date.now() - started);
        throw error;
      }
    });
  };
}

/** Starts the service parts; see the module comment for the steps. */
export function startProduction(options: ProductionOptions): Production {
  const { settings, app } = options;
  let queue: Drainable | undefined;
  const closers: (() => Promise<void>)[] = [];
  let pool: RenderPool | undefined;
  const metrics = new Metrics({
    queueDepth: async () => (queue ? queue.depth() : { waiting: 0, running: 0 }),
    renderWorkers: () => pool?.stats() ?? { workers: 0, busy: 0, queued: 0 },
  });
  pool = startPool(options, metrics);
  const shutdown = shutdownOf(options, { queue: () => queue, pool, closers });
  options.addHandler?.(operationsHandler({ metrics, stopping: shutdown.stopping }));
  dropRepeatedLogFields(app.log);
  dropRepeatedFieldsInChildren(app.log);
  const structured = app.log as unknown as StructuredLog;
  const log = contextLog(structured);
  const instrumentOctokit = <T extends Octokit>(octokit: T): T =>
    instrument(octokit, { timeoutMs: settings.githubTimeoutMs, metrics, log });
  watchGitHub(app, { metrics, structured, instrumentOctokit });
  return {
    render: pool ? (request) => (pool as RenderPool).renderPackage(request) : undefined,
    metrics,
    shutdown,
    attachQueue(q) {
      queue = q;
    },
    onClose(close) {
      closers.push(close);
    },
    log,
    instrumentOctokit,
    wrapJobHandler: timedJobHandler(metrics),
  };
}
