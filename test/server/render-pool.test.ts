import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readEnvironment } from "../../src/config/environment.js";
import { DEFAULT_RENDER_BUDGET } from "../../src/config/render-budget.js";
import { renderPackage } from "../../src/engine/render.js";
import { gateFacts, type JudgedRenderResult } from "../../src/lifecycle/gate-facts.js";
import { locatePackageAnnotations } from "../../src/report/annotations.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import {
  createRenderPool,
  type RenderPool,
  RenderPoolClosedError,
  type RenderPoolEvent,
} from "../../src/server/render-pool.js";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const hostile = pathToFileURL(path.join(repoRoot, "test/fixtures/workers/hostile-worker.mjs"));
const builtWorker = pathToFileURL(path.join(repoRoot, "dist/src/server/render-worker.js"));
const FUNCTIONS = path.join(repoRoot, "test/fixtures/functions");
const runtime = createDefaultRuntime({ allowExec: false, useContainers: false });
const files = (kptfile: string, extra: Record<string, string> = {}) =>
  new Map(Object.entries({ Kptfile: kptfile, ...extra }).map(([k, v]) => [k, encoder.encode(v)]));
const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: web
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: prod
`;
const DEPLOY = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # the app\n";

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Killed means gone or a zombie nobody has reaped yet (state Z in /proc/<pid>/stat). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** Polls `done` every 20 ms for up to `ms`; resolves with its last answer. */
async function until(done: () => boolean, ms = 3_000): Promise<boolean> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; )
    await new Promise((r) => setTimeout(r, 20));
  return done();
}

/** The pids of the `sleep <seconds>` processes running (a zombie shows no arguments). */
function sleeps(seconds: string): number[] {
  return execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+) (.*)$/.exec(line))
    .filter((m) => m?.[2]?.trim() === `sleep ${seconds}`)
    .map((m) => Number(m?.[1]));
}

/** What the app hands its pool from `env`: the scrubbed worker environment and the starlark settings. */
function workerEnvironment(env: Record<string, string | undefined>) {
  const { workerEnv, starlark } = readEnvironment(env).server;
  return { env: workerEnv, starlark };
}

function hostilePool(
  budget: Partial<typeof DEFAULT_RENDER_BUDGET>,
  events?: RenderPoolEvent[],
  env: Record<string, string> = {},
) {
  pool = createRenderPool({
    budget: { ...DEFAULT_RENDER_BUDGET, workers: 1, ...budget },
    runtime: { allowExec: false, allowContainers: false },
    workerUrl: hostile,
    env: { PATH: "/usr/bin", ...env },
    starlark: readEnvironment({}).server.starlark,
    onRender: (e) => events?.push(e),
  });
  return pool;
}

describe("render pool (worker processes with budgets)", () => {
  it("renders in a worker exactly as the engine does in process", { timeout: 180_000 }, async () => {
    ensureBuiltCli();
    pool = createRenderPool({
      budget: { ...DEFAULT_RENDER_BUDGET, workers: 1 },
      runtime: { allowExec: false, allowContainers: false },
      workerUrl: pathToFileURL(path.join(repoRoot, "dist/src/server/render-worker.js")),
      ...workerEnvironment(process.env),
    });
    const input = files(KPTFILE, { "deploy.yaml": DEPLOY });
    const [inWorker, inProcess] = await Promise.all([
      pool.renderPackage({ files: input, packageName: "web" }),
      renderPackage({ files: input, packageName: "web", runtime }),
    ]);
    expect(inWorker.ok).toBe(true);
    expect(decoder.decode(inWorker.files?.get("deploy.yaml"))).toContain("namespace: prod");
    const { resources: _r, ...expected } = inProcess;
    const { annotations, gate, ...rendered } = inWorker as JudgedRenderResult;
    expect({ ...rendered, steps: rendered.steps.map((s) => ({ ...s, durationMs: 0 })) }).toEqual({
      ...expected,
      steps: expected.steps.map((s) => ({ ...s, durationMs: 0 })),
    });
    // The worker also located the annotations and worked out the gate's Kptfile facts, as the main thread would.
    expect(annotations).toEqual(locatePackageAnnotations(inProcess, input));
    expect(gate).toEqual(gateFacts(inProcess, input));
  });

  it("stops a render over the time budget, names the package and the limit, and keeps serving", async () => {
    const events: RenderPoolEvent[] = [];
    const p = hostilePool({ timeoutMs: 300 }, events);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const spun = await p.renderPackage({ files: new Map(), packageName: "spin" });
    clearInterval(ticker);
    expect(spun.ok).toBe(false);
    expect(spun.files).toBeUndefined();
    expect(spun.error).toBe(
      'porchlight: rendering package "spin" was stopped: it went over the time budget of 300 ms (PORCHLIGHT_RENDER_TIMEOUT_MS)',
    );
    expect(spun.status.conditions[0]).toMatchObject({ type: "Rendered", status: "False" });
    // The main thread was never blocked while the worker spun.
    expect(ticks).toBeGreaterThan(3);
    // The worker was replaced: the next render works.
    expect((await p.renderPackage({ files: new Map(), packageName: "ok" })).ok).toBe(true);
    expect(events.map((e) => e.outcome)).toEqual(["timeout", "ok"]);
  });

  it("stops the processes a render started in the worker's process group with the render", async () => {
    const p = hostilePool({ timeoutMs: 500 });
    const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), "porchlight-pool-")), "sleeper.pid");
    const stopped = await p.renderPackage({ files: new Map(), packageName: `group:${pidFile}` });
    expect(stopped.error).toContain("went over the time budget of 500 ms");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(pid).toBeGreaterThan(0);
    expect(await until(() => !alive(pid), 1_000)).toBe(true);
  });

  it("stops the exec functions of a render over the time budget or cut short by close (they lead process groups of their own)", {
    timeout: 180_000,
  }, async () => {
    ensureBuiltCli();
    pool = createRenderPool({
      budget: { ...DEFAULT_RENDER_BUDGET, workers: 1, timeoutMs: 1_500 },
      runtime: { allowExec: true, allowContainers: false },
      workerUrl: builtWorker,
      ...workerEnvironment(process.env),
    });
    // The wrapper's `sleep` (in the function's group), named by its unique length.
    const hang = (seconds: string) =>
      files(
        `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: hang\npipeline:\n  mutators:\n    - exec: /bin/sh ${FUNCTIONS}/hang-wrapper.sh ${seconds}\n`,
      );
    const unique = () => String(100_000 + Math.floor(Math.random() * 100_000));
    const overBudget = unique();
    const shutDown = unique();
    try {
      const stopped = pool.renderPackage({ files: hang(overBudget), packageName: "hang" });
      expect(await until(() => sleeps(overBudget).length > 0, 10_000)).toBe(true);
      expect((await stopped).error).toContain("went over the time budget of 1500 ms");
      expect(await until(() => sleeps(overBudget).length === 0, 1_000)).toBe(true);

      const cut = pool.renderPackage({ files: hang(shutDown), packageName: "hang" });
      const rejected = expect(cut).rejects.toBeInstanceOf(RenderPoolClosedError);
      expect(await until(() => sleeps(shutDown).length > 0, 10_000)).toBe(true);
      await pool.close();
      await rejected;
      expect(await until(() => sleeps(shutDown).length === 0, 1_000)).toBe(true);
    } finally {
      for (const pid of [overBudget, shutDown].flatMap((s) => sleeps(s))) process.kill(pid, "SIGKILL");
    }
  });

  it("ends a worker busy in a long render once its server is killed (it cannot see its IPC channel close)", {
    timeout: 180_000,
  }, async () => {
    ensureBuiltCli();
    const server = spawn(process.execPath, [path.join(repoRoot, "test/fixtures/workers/doomed-server.mjs")], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (out.includes("\n")) resolve(out.trim());
      });
      server.on("exit", (code) => reject(new Error(`the server exited (${code}) before its worker spun`)));
    });
    const workers = line.split(",").map(Number);
    expect(workers).toHaveLength(1);
    const worker = workers[0] as number;
    try {
      expect(alive(worker)).toBe(true);
      server.kill("SIGKILL");
      expect(await until(() => !alive(worker), 5_000)).toBe(true);
    } finally {
      server.kill("SIGKILL");
      if (alive(worker)) process.kill(worker, "SIGKILL");
    }
  });

  it("keeps the process alive while a render waits for its worker to start", { timeout: 180_000 }, () => {
    ensureBuiltCli();
    const script = `import { createRenderPool } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, "dist/src/server/render-pool.js")).href)};
const pool = createRenderPool({ budget: { timeoutMs: 60000, memoryMb: 128, workers: 1, starlarkMaxSteps: 1 }, runtime: { allowExec: false, allowContainers: false }, workerUrl: new URL(${JSON.stringify(hostile.href)}), env: {}, starlark: { enabled: false, environment: {}, maxSteps: 1 } });
const result = await pool.renderPackage({ files: new Map(), packageName: "ok" });
process.stdout.write(String(result.ok));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(out).toBe("true");
  });

  it("stops a render over the memory budget with a message naming the limit", async () => {
    const p = hostilePool({ memoryMb: 64, timeoutMs: 60_000 });
    const hog = await p.renderPackage({ files: new Map(), packageName: "hog" });
    expect(hog.ok).toBe(false);
    expect(hog.error).toBe(
      'porchlight: rendering package "hog" was stopped: it went over the memory budget of 64 MiB (PORCHLIGHT_RENDER_MEMORY_MB)',
    );
    expect((await p.renderPackage({ files: new Map(), packageName: "ok" })).ok).toBe(true);
  });

  it("runs renders side by side up to the worker count; one spinning package does not hold up another", async () => {
    const p = hostilePool({ workers: 2, timeoutMs: 1_500 });
    const spinning = p.renderPackage({ files: new Map(), packageName: "spin" });
    const other = await p.renderPackage({ files: new Map(), packageName: "ok" });
    expect(other.ok).toBe(true);
    expect(p.stats()).toMatchObject({ workers: 2, busy: 1, queued: 0 });
    expect((await spinning).ok).toBe(false);
  });

  it("rejects (a bug, not a package failure) when the engine throws or the worker exits", async () => {
    const p = hostilePool({});
    await expect(p.renderPackage({ files: new Map(), packageName: "throw" })).rejects.toThrow(
      'rendering package "throw" failed: Error: boom',
    );
    await expect(p.renderPackage({ files: new Map(), packageName: "exit" })).rejects.toThrow("exited (3)");
    expect((await p.renderPackage({ files: new Map(), packageName: "ok" })).ok).toBe(true);
  });

  it("says so when a worker cannot start, once per render (no restart loop)", async () => {
    const events: RenderPoolEvent[] = [];
    const p = hostilePool({ workers: 2 }, events, { HOSTILE_START: "exit" });
    const renders = ["a", "b", "c"].map((name) => p.renderPackage({ files: new Map(), packageName: name }));
    // Every render is awaited at once: one that fails while another is awaited is then not unhandled.
    const settled = await Promise.allSettled(renders);
    for (const [i, outcome] of settled.entries()) {
      expect(outcome.status).toBe("rejected");
      expect(String((outcome as PromiseRejectedResult).reason)).toContain(
        `the render worker of package "${"abc"[i]}" exited (4) while starting (its error is in the server's log)`,
      );
    }
    expect(events.map((e) => e.outcome)).toEqual(["crash", "crash", "crash"]);
    // Nothing is started again until a render asks.
    expect(p.stats()).toEqual({ workers: 0, busy: 0, queued: 0 });
  });

  it("fails the render of a worker that does not load in time, and stops that worker", async () => {
    const events: RenderPoolEvent[] = [];
    pool = createRenderPool({
      budget: { ...DEFAULT_RENDER_BUDGET, workers: 1, timeoutMs: 60_000 },
      runtime: { allowExec: false, allowContainers: false },
      workerUrl: hostile,
      env: { PATH: "/usr/bin", HOSTILE_START: "hang" },
      starlark: readEnvironment({}).server.starlark,
      startTimeoutMs: 1_000,
      onRender: (e) => events.push(e),
    });
    await expect(pool.renderPackage({ files: new Map(), packageName: "ok" })).rejects.toThrow(
      'the render worker of package "ok" did not start within 1000 ms',
    );
    expect(events.map((e) => e.outcome)).toEqual(["crash"]);
    expect(pool.stats()).toEqual({ workers: 0, busy: 0, queued: 0 });
  });

  it("never lets an exec function see the server's secrets", { timeout: 180_000 }, async () => {
    ensureBuiltCli();
    const secrets = { PRIVATE_KEY: "k", WEBHOOK_SECRET: "s", REDIS_URL: "redis://:p@h", GITHUB_TOKEN: "t" };
    pool = createRenderPool({
      budget: { ...DEFAULT_RENDER_BUDGET, workers: 1 },
      runtime: { allowExec: true, allowContainers: false },
      workerUrl: pathToFileURL(path.join(repoRoot, "dist/src/server/render-worker.js")),
      ...workerEnvironment({ ...process.env, ...secrets }),
    });
    const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: env\npipeline:\n  mutators:\n    - exec: node ${path.join(repoRoot, "test/fixtures/functions/env-report.mjs")}\n`;
    const result = await pool.renderPackage({ files: files(kptfile), packageName: "env" });
    expect(result.ok, result.error).toBe(true);
    const names = /names: "?([^"\n]*)/.exec(decoder.decode(result.files?.get("env.yaml")))?.[1]?.split(",");
    expect(names).toContain("PATH");
    for (const secret of Object.keys(secrets)) expect(names).not.toContain(secret);
  });

  it("gives workers only the environment it was given (no server secret)", async () => {
    const p = hostilePool({});
    const result = await p.renderPackage({ files: new Map(), packageName: "ok" });
    expect(result.error).toBe("PATH");
  });

  it("rejects waiting and in-flight renders on close", async () => {
    const p = hostilePool({ timeoutMs: 60_000 });
    const first = p.renderPackage({ files: new Map(), packageName: "spin" });
    const second = p.renderPackage({ files: new Map(), packageName: "ok" });
    const rejected = Promise.all([
      expect(first).rejects.toBeInstanceOf(RenderPoolClosedError),
      expect(second).rejects.toBeInstanceOf(RenderPoolClosedError),
    ]);
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    await rejected;
    await expect(p.renderPackage({ files: new Map(), packageName: "ok" })).rejects.toBeInstanceOf(
      RenderPoolClosedError,
    );
  });
});
