/**
 * The BullMQ work queue against a REAL redis-server (started on a free loopback port; the suite skips
 * visibly when redis-server is not installed). Several queue instances stand for several app processes.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BullWorkQueue, type BullWorkQueueOptions } from "../../src/server/bullmq-queue.js";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { redisAvailable, startRedis, type TestRedis } from "../helpers/redis.js";

const available = redisAvailable();
if (!available)
  console.warn("BullMQ queue tests skipped: redis-server is not installed (apt-get install redis-server)");

interface TestJob {
  kind: "draft";
  installationId: number;
  branch: string;
  data?: string;
}

class Outage extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(25);
  }
}

describe.skipIf(!available)("BullMQ work queue (real Redis)", () => {
  let redis: TestRedis;
  let prefix: string;
  const queues: BullWorkQueue<TestJob>[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
  });

  function queue(options: Partial<BullWorkQueueOptions<TestJob>> = {}): BullWorkQueue<TestJob> {
    const q = new BullWorkQueue<TestJob>({
      redisUrl: redis.url,
      prefix,
      keyOf: (job) => `draft:${job.branch}`,
      retry: { maxAttempts: 3, isRetryable: (e) => e instanceof Outage, retryDelayMs: () => 50 },
      concurrency: 4,
      ...options,
    });
    queues.push(q);
    return q;
  }

  beforeEach(() => {
    prefix = `t${randomUUID().slice(0, 8)}`;
  });

  it("runs a hint; a key that runs gets ONE more run, with the newest hint", async () => {
    const q = queue();
    const runs: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await q.start(async (job) => {
      runs.push(job.data ?? "");
      if (job.data === "first") await gate;
    });
    await q.enqueue({ kind: "draft", installationId: 1, branch: "a", data: "first" });
    await until(() => runs.length === 1);
    for (const data of ["second", "third", "fourth"])
      await q.enqueue({ kind: "draft", installationId: 1, branch: "a", data });
    expect(await q.depth()).toEqual({ waiting: 0, running: 1 });
    release();
    await q.idle();
    expect(runs).toEqual(["first", "fourth"]);
  });

  it("gives a waiting key the newest hint (one run)", async () => {
    const q = queue();
    for (const data of ["1", "2", "3"])
      await q.enqueue({ kind: "draft", installationId: 1, branch: "b", data });
    expect(await q.depth()).toEqual({ waiting: 1, running: 0 });
    const runs: string[] = [];
    await q.start(async (job) => void runs.push(job.data ?? ""));
    await q.idle();
    expect(runs).toEqual(["3"]);
  });

  it("retries retryable errors with backoff; other errors end the job once (onFailed)", async () => {
    const failed: [string, string][] = [];
    const q = queue({ onFailed: (job, error) => failed.push([job.branch, (error as Error).message]) });
    const attempts: Record<string, number[]> = {};
    await q.start(async (job, run) => {
      attempts[job.branch] = [...(attempts[job.branch] ?? []), run.attempt];
      if (job.branch === "flaky" && run.attempt < 3) throw new Outage("503");
      if (job.branch === "down") throw new Outage("503");
      if (job.branch === "bug") throw new Error("bug");
    });
    for (const branch of ["flaky", "down", "bug"])
      await q.enqueue({ kind: "draft", installationId: 1, branch });
    await q.idle();
    expect(attempts).toEqual({ flaky: [1, 2, 3], down: [1, 2, 3], bug: [1] });
    expect(failed.sort()).toEqual([
      ["bug", "bug"],
      ["down", "503"],
    ]);
  });

  it("serves installations fairly: a burst of one does not hold up another", async () => {
    const q = queue({ concurrency: 1 });
    for (let i = 0; i < 15; i++) await q.enqueue({ kind: "draft", installationId: 1, branch: `burst-${i}` });
    await q.enqueue({ kind: "draft", installationId: 2, branch: "other" });
    const order: string[] = [];
    await q.start(async (job) => void order.push(job.branch));
    await q.idle();
    expect(order).toHaveLength(16);
    expect(order.indexOf("other")).toBeLessThanOrEqual(1);
  });

  it("shares work between processes: every key runs exactly once", async () => {
    const a = queue();
    const b = queue();
    const ran: string[] = [];
    const by = { a: 0, b: 0 };
    const work = (who: "a" | "b") => async (job: TestJob) => {
      by[who]++;
      await sleep(20);
      ran.push(job.branch);
    };
    await a.start(work("a"));
    await b.start(work("b"));
    const branches = Array.from({ length: 20 }, (_, i) => `b${i}`);
    await Promise.all(branches.map((branch) => a.enqueue({ kind: "draft", installationId: 1, branch })));
    await a.idle();
    expect(ran.sort()).toEqual([...branches].sort());
    expect(by.a).toBeGreaterThan(0);
    expect(by.b).toBeGreaterThan(0);
  });

  it("runs a crashed worker's job again in another process after the lock expires", {
    timeout: 120_000,
  }, async () => {
    ensureBuiltCli();
    const moduleUrl = pathToFileURL(path.join(repoRoot, "dist/src/server/bullmq-queue.js")).href;
    const script = path.join(repoRoot, "test/fixtures/workers/hanging-queue-worker.mjs");
    const child = spawn(process.execPath, [script, moduleUrl, redis.url, prefix, "1000"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    await until(() => output.includes("ready"), 60_000);
    const q = queue({ lockMs: 1_000 });
    await q.enqueue({ kind: "draft", installationId: 1, branch: "c" });
    await until(() => output.includes("started c"), 30_000);
    // The process dies mid-job: its lock is never released.
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const runs: string[] = [];
    await q.start(async (job) => void runs.push(job.branch));
    await until(() => runs.length > 0, 30_000);
    await q.idle();
    expect(runs).toEqual(["c"]);
  });

  it("shares the memo between processes, with expiry", async () => {
    const a = queue();
    const b = queue();
    await a.remember("verdict:x", 300);
    expect(await b.remembers("verdict:x")).toBe(true);
    expect(await b.remembers("verdict:y")).toBe(false);
    await sleep(400);
    expect(await b.remembers("verdict:x")).toBe(false);
  });

  it("close() stops taking jobs and waits for the running one", async () => {
    const q = queue();
    const events: string[] = [];
    await q.start(async (job) => {
      events.push(`start ${job.branch}`);
      await sleep(300);
      events.push(`end ${job.branch}`);
    });
    await q.enqueue({ kind: "draft", installationId: 1, branch: "x" });
    await until(() => events.length === 1);
    await q.close();
    events.push("closed");
    expect(events).toEqual(["start x", "end x", "closed"]);
  });
});

/** A loopback port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("BullMQ work queue: Redis unreachable at start-up", () => {
  it("ready() fails naming REDIS_URL (password hidden) and what failed; close() still returns", async () => {
    const port = await closedPort();
    const q = new BullWorkQueue<TestJob>({
      redisUrl: `redis://user:hunter2@127.0.0.1:${port}/0`,
      keyOf: (job) => job.branch,
      retry: { maxAttempts: 1, isRetryable: () => false, retryDelayMs: () => 0 },
    });
    const error = await q.ready(300).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await q.close();
    expect(error?.message).toContain(`REDIS_URL=redis://user:***@127.0.0.1:${port}/0`);
    expect(error?.message).toContain("the work queue");
    expect(error?.message).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(error?.message).not.toContain("hunter2");
  });
});
