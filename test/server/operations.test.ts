import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { readEnvironment } from "../../src/config/environment.js";
import { functionEnv } from "../../src/config/function-env.js";
import { DEFAULT_RENDER_BUDGET } from "../../src/config/render-budget.js";
import { operationsHandler } from "../../src/server/http-endpoints.js";
import {
  contextLog,
  dropRepeatedLogFields,
  jobFields,
  type StructuredLog,
  webhookFields,
  withLogFields,
} from "../../src/server/job-log.js";
import { Metrics } from "../../src/server/metrics.js";
import { installShutdown } from "../../src/server/shutdown.js";

const SECRETS = {
  PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----",
  WEBHOOK_SECRET: "hush",
  REDIS_URL: "redis://:pw@127.0.0.1:6379",
  GITHUB_TOKEN: "ghs_x",
  SENTRY_DSN: "https://k@sentry",
  APP_ID: "1",
};

const renderBudget = (env: Record<string, string>) => readEnvironment(env).server.render;
const serverSettings = (env: Record<string, string>) => readEnvironment(env).server;

describe("operator settings of the process", () => {
  it("reads the render budgets, with defaults, and refuses bad values naming the variable", () => {
    expect(renderBudget({})).toEqual(DEFAULT_RENDER_BUDGET);
    expect(
      renderBudget({
        PORCHLIGHT_RENDER_TIMEOUT_MS: "5000",
        PORCHLIGHT_RENDER_MEMORY_MB: "256",
        PORCHLIGHT_RENDER_WORKERS: "3",
        PORCHLIGHT_STARLARK_MAX_STEPS: "1000",
      }),
    ).toEqual({ timeoutMs: 5000, memoryMb: 256, workers: 3, starlarkMaxSteps: 1000 });
    expect(() => renderBudget({ PORCHLIGHT_RENDER_TIMEOUT_MS: "1m" })).toThrow(
      "invalid environment variable PORCHLIGHT_RENDER_TIMEOUT_MS: must be a whole number of milliseconds",
    );
    expect(() => renderBudget({ PORCHLIGHT_RENDER_MEMORY_MB: "8" })).toThrow("must be at least 32");
  });

  it("reads the role and REDIS_URL; never prints the URL; worker and receiver need Redis", () => {
    expect(serverSettings({})).toMatchObject({ role: "all", jobLockMs: 30_000, shutdownGraceMs: 20_000 });
    expect(serverSettings({})).not.toHaveProperty("redisUrl");
    const redis = "redis://:s3cret@10.0.0.1:6379/0";
    expect(serverSettings({ REDIS_URL: redis, PORCHLIGHT_ROLE: "worker" })).toMatchObject({
      role: "worker",
      redisUrl: redis,
    });
    expect(() => serverSettings({ PORCHLIGHT_ROLE: "worker" })).toThrow(
      "PORCHLIGHT_ROLE=worker needs REDIS_URL",
    );
    let message = "";
    try {
      serverSettings({ REDIS_URL: "http://:s3cret@host" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("REDIS_URL: must be a redis:// or rediss:// URL");
    expect(message).not.toContain("s3cret");
  });

  it("reads the GitHub request time limit (default 30 s, 0 = none)", () => {
    expect(serverSettings({}).githubTimeoutMs).toBe(30_000);
    expect(serverSettings({ PORCHLIGHT_GITHUB_TIMEOUT_MS: "0" }).githubTimeoutMs).toBe(0);
    expect(serverSettings({ PORCHLIGHT_GITHUB_TIMEOUT_MS: "5000" }).githubTimeoutMs).toBe(5000);
    expect(() => serverSettings({ PORCHLIGHT_GITHUB_TIMEOUT_MS: "5s" })).toThrow(
      "PORCHLIGHT_GITHUB_TIMEOUT_MS: must be a whole number of milliseconds",
    );
  });
});

describe("function environment", () => {
  it("passes an allowlist, never the server's secrets, even when the operator lists them", () => {
    const env = functionEnv({
      ...SECRETS,
      PATH: "/usr/bin",
      HOME: "/home/app",
      LC_ALL: "C",
      HTTPS_PROXY: "http://proxy:3128",
      RANDOM: "x",
      PORCHLIGHT_FUNCTION_ENV: "HTTPS_PROXY, PRIVATE_KEY,REDIS_URL,WEBHOOK_SECRET",
    });
    expect(env).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/app",
      LC_ALL: "C",
      HTTPS_PROXY: "http://proxy:3128",
    });
  });
});

describe("/healthz and /metrics", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function serve(metrics: Metrics, stopping: () => boolean): Promise<string> {
    const handler = operationsHandler({ metrics, stopping });
    const http = createServer(async (req, res) => {
      if (!(await handler(req, res))) res.writeHead(404).end();
    });
    server = http;
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }

  it("answers health without repository data, 503 once stopping", async () => {
    let stopping = false;
    const url = await serve(new Metrics({}, { defaultMetrics: false }), () => stopping);
    const ok = await fetch(`${url}/healthz`);
    expect([ok.status, await ok.json()]).toEqual([200, { status: "ok" }]);
    stopping = true;
    const draining = await fetch(`${url}/healthz`);
    expect([draining.status, await draining.json()]).toEqual([503, { status: "stopping" }]);
    expect((await fetch(`${url}/other`)).status).toBe(404);
  });

  it("exposes queue depth, renders, durations, failures, GitHub errors by status", async () => {
    const metrics = new Metrics({
      queueDepth: async () => ({ waiting: 3, running: 2 }),
      renderWorkers: () => ({ workers: 2, busy: 1, queued: 0 }),
    });
    metrics.render({ outcome: "ok", queuedMs: 5, durationMs: 120 });
    metrics.render({ outcome: "timeout", queuedMs: 0, durationMs: 60_000 });
    metrics.job("draft", "error", 1500);
    metrics.githubError(503);
    metrics.githubError(503);
    metrics.webhook("push");
    const url = await serve(metrics, () => false);
    const response = await fetch(`${url}/metrics`);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    for (const line of [
      'porchlight_queue_jobs{state="waiting"} 3',
      'porchlight_queue_jobs{state="running"} 2',
      'porchlight_render_workers{state="busy"} 1',
      'porchlight_renders_total{outcome="ok"} 1',
      'porchlight_renders_total{outcome="timeout"} 1',
      'porchlight_render_duration_seconds_count{outcome="ok"} 1',
      'porchlight_jobs_total{kind="draft",outcome="error"} 1',
      'porchlight_job_duration_seconds_count{kind="draft"} 1',
      'porchlight_github_errors_total{status="503"} 2',
      'porchlight_webhooks_total{event="push"} 1',
    ])
      expect(text).toContain(line);
    expect(text).toContain("process_resident_memory_bytes");
  });
});

describe("graceful shutdown", () => {
  const log = { info: () => undefined, warn: () => undefined };

  it("drains running jobs within the grace period, then exits 0", async () => {
    const steps: string[] = [];
    let exitCode: number | undefined;
    const sd = installShutdown({
      graceMs: 1_000,
      log,
      signals: [],
      drain: async () => {
        steps.push("drain");
        await new Promise((r) => setTimeout(r, 50));
        steps.push("drained");
      },
      abort: async () => void steps.push("abort"),
      close: async () => void steps.push("close"),
      exit: (code) => {
        exitCode = code;
      },
    });
    expect(sd.stopping()).toBe(false);
    const done = sd.shutdown("SIGTERM");
    expect(sd.stopping()).toBe(true);
    await done;
    expect(steps).toEqual(["drain", "drained", "close"]);
    expect(exitCode).toBe(0);
  });

  it("after the grace period aborts in-flight work so it concludes, then exits", async () => {
    const steps: string[] = [];
    let exitCode: number | undefined;
    let finish: () => void = () => undefined;
    const sd = installShutdown({
      graceMs: 50,
      abortMs: 1_000,
      log,
      signals: [],
      drain: () => new Promise<void>((resolve) => (finish = resolve)),
      abort: async () => {
        steps.push("abort");
        setTimeout(finish, 10);
      },
      exit: (code) => {
        exitCode = code;
      },
    });
    await sd.shutdown("SIGTERM");
    expect(steps).toEqual(["abort"]);
    expect(exitCode).toBe(0);
  });

  it("exits 1 when jobs are still running after the abort window", async () => {
    let exitCode: number | undefined;
    const sd = installShutdown({
      graceMs: 20,
      abortMs: 20,
      log,
      signals: [],
      drain: () => new Promise<void>(() => undefined),
      abort: async () => undefined,
      exit: (code) => {
        exitCode = code;
      },
    });
    await sd.shutdown("SIGTERM");
    expect(exitCode).toBe(1);
  });
});

describe("structured logs", () => {
  it("log webhooks with delivery, repository, branch and sha, and job lines with the job's fields", async () => {
    expect(
      webhookFields("d-1", "push", {
        ref: "refs/heads/drafts/web/v1",
        after: "abc",
        repository: { full_name: "acme/pkgs" },
        installation: { id: 7 },
      }),
    ).toEqual({
      delivery: "d-1",
      event: "push",
      repository: "acme/pkgs",
      branch: "drafts/web/v1",
      sha: "abc",
    });
    expect(
      webhookFields("d-2", "pull_request", {
        action: "opened",
        repository: { full_name: "acme/pkgs" },
        pull_request: { head: { ref: "drafts/web/v1", sha: "def" } },
      }),
    ).toMatchObject({ action: "opened", branch: "drafts/web/v1", sha: "def" });

    const lines: [Record<string, unknown>, string][] = [];
    const sink = {
      child: () => sink,
      info: (fields: Record<string, unknown>, message: string) => void lines.push([fields, message]),
      warn: (fields: Record<string, unknown>, message: string) => void lines.push([fields, message]),
      error: (fields: Record<string, unknown>, message: string) => void lines.push([fields, message]),
    };
    const log = contextLog(sink);
    const job = {
      kind: "draft",
      installationId: 7,
      repo: { owner: "acme", repo: "pkgs" },
      branch: "drafts/web/v1",
      delivery: "d-1",
    };
    await withLogFields(jobFields(job, 2), async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.info("rendered");
    });
    log.warn("outside");
    expect(lines).toEqual([
      [
        {
          job: "draft",
          attempt: 2,
          repository: "acme/pkgs",
          delivery: "d-1",
          installation: 7,
          branch: "drafts/web/v1",
        },
        "rendered",
      ],
      [{}, "outside"],
    ]);
  });

  it("writes each key once in JSON lines (Probot's app.log repeats name: probot)", () => {
    const lines: string[] = [];
    // As Probot builds app.log: a logger named probot, then a child { name: "probot" }.
    const appLog = pino({ name: "probot" }, { write: (line: string) => void lines.push(line) }).child({
      name: "probot",
    });
    dropRepeatedLogFields(appLog);
    const log = contextLog(appLog as unknown as StructuredLog);
    (appLog as unknown as StructuredLog).info(webhookFields("d-1", "push", {}), "webhook");
    void withLogFields({ job: "draft", attempt: 1 }, async () => log.warn("rendered"));
    appLog.child({ delivery: "d-2" }).info("child");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.match(/"name":/g)).toEqual(['"name":']);
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { name: "probot", delivery: "d-1", event: "push", msg: "webhook" },
      { name: "probot", job: "draft", attempt: 1, msg: "rendered" },
      { name: "probot", delivery: "d-2", msg: "child" },
    ]);
  });
});
