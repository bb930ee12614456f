/**
 * Prometheus metrics of one app process (prom-client), served at `GET /metrics`. Labels carry no
 * repository data (no owner, repository, branch or sha): only outcomes, job kinds and HTTP statuses.
 *
 * - `porchlight_queue_jobs{state}` gauge: jobs `waiting` (incl. delayed retries) and `running` (shared
 *   queue on Redis: the whole cluster's; embedded: this process's).
 * - `porchlight_renders_total{outcome}` counter and `porchlight_render_duration_seconds{outcome}`
 *   histogram: package renders by outcome (`ok`, `failed` = the package's pipeline failed, `timeout` /
 *   `memory` = over the operator's budget, `crash` = a porchlight bug).
 * - `porchlight_render_wait_seconds` histogram: time a render waited for a free render worker.
 * - `porchlight_render_workers{state}` gauge: render workers `busy` and `started`.
 * - `porchlight_jobs_total{kind,outcome}` counter and `porchlight_job_duration_seconds{kind}` histogram:
 *   job runs by kind (draft, pull-request, ...) that ended `done` or with an `error` (retried or not).
 * - `porchlight_github_errors_total{status}` counter: GitHub API errors by HTTP status (`0` = no answer).
 * - `porchlight_webhooks_total{event}` counter: webhook deliveries received.
 * - Node's default process metrics (`process_*`, `nodejs_*`: memory, event-loop lag, GC).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { RenderPoolEvent } from "./render-pool.js";

/** Buckets (seconds) for render durations: 10 ms to 2 min. */
const RENDER_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Sources the gauges read when scraped. */
export interface MetricSources {
  /** Jobs waiting and running (the work queue's `depth()`). */
  queueDepth?: () => Promise<{ waiting: number; running: number }>;
  /** Render worker processes (the pool's `stats()`). */
  renderWorkers?: () => { workers: number; busy: number; queued: number };
}

/** The metrics of one app process, with their own registry (several apps in one test process do not clash). */
export class Metrics {
  readonly registry = new Registry();
  readonly #renders = new Counter({
    name: "porchlight_renders_total",
    help: "Package renders, by outcome (ok, failed, timeout, memory, crash).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly #renderDuration = new Histogram({
    name: "porchlight_render_duration_seconds",
    help: "Wall time of one package render in a render worker, by outcome.",
    labelNames: ["outcome"] as const,
    buckets: RENDER_BUCKETS,
    registers: [this.registry],
  });
  readonly #renderWait = new Histogram({
    name: "porchlight_render_wait_seconds",
    help: "Time a render waited for a free render worker.",
    buckets: RENDER_BUCKETS,
    registers: [this.registry],
  });
  readonly #jobs = new Counter({
    name: "porchlight_jobs_total",
    help: "Work-queue job runs by kind and outcome (done, error).",
    labelNames: ["kind", "outcome"] as const,
    registers: [this.registry],
  });
  readonly #jobDuration = new Histogram({
    name: "porchlight_job_duration_seconds",
    help: "Wall time of one job run (GitHub reads and writes included), by kind.",
    labelNames: ["kind"] as const,
    buckets: RENDER_BUCKETS,
    registers: [this.registry],
  });
  readonly #githubErrors = new Counter({
    name: "porchlight_github_errors_total",
    help: "GitHub API errors by HTTP status (0: no answer, e.g. a reset connection or a timeout).",
    labelNames: ["status"] as const,
    registers: [this.registry],
  });
  readonly #webhooks = new Counter({
    name: "porchlight_webhooks_total",
    help: "Webhook deliveries received, by event.",
    labelNames: ["event"] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricSources = {}, options: { defaultMetrics?: boolean } = {}) {
    const { queueDepth, renderWorkers } = sources;
    new Gauge({
      name: "porchlight_queue_jobs",
      help: "Work-queue jobs waiting (incl. delayed retries) and running.",
      labelNames: ["state"] as const,
      registers: [this.registry],
      async collect() {
        if (!queueDepth) return;
        const depth = await queueDepth().catch(() => undefined);
        if (!depth) return;
        this.set({ state: "waiting" }, depth.waiting);
        this.set({ state: "running" }, depth.running);
      },
    });
    new Gauge({
      name: "porchlight_render_workers",
      help: "Render worker processes started and busy, and renders waiting for one.",
      labelNames: ["state"] as const,
      registers: [this.registry],
      collect() {
        if (!renderWorkers) return;
        const stats = renderWorkers();
        this.set({ state: "started" }, stats.workers);
        this.set({ state: "busy" }, stats.busy);
        this.set({ state: "queued" }, stats.queued);
      },
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** Records one render of the pool. */
  render(event: RenderPoolEvent): void {
    this.#renders.inc({ outcome: event.outcome });
    this.#renderDuration.observe({ outcome: event.outcome }, event.durationMs / 1000);
    this.#renderWait.observe(event.queuedMs / 1000);
  }

  /** Records the end of one job run (`durationMs` when measured). */
  job(kind: string, outcome: "done" | "error", durationMs?: number): void {
    this.#jobs.inc({ kind, outcome });
    if (durationMs !== undefined) this.#jobDuration.observe({ kind }, durationMs / 1000);
  }

  /** Records one GitHub API error (`status` 0 when GitHub did not answer). */
  githubError(status: number): void {
    this.#githubErrors.inc({ status: String(status) });
  }

  /** Records one webhook delivery. */
  webhook(event: string): void {
    this.#webhooks.inc({ event });
  }

  /** The text exposition format, for `GET /metrics`. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
