/**
 * A throwaway redis-server for tests that need a real Redis (BullMQ): started on a free loopback port
 * with no persistence, stopped by the test. `.ci/run` installs redis-server: under CI a missing one fails
 * the suite; elsewhere tests skip visibly.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { providedByCi } from "./ci-provides.js";

/** A running redis-server. */
export interface TestRedis {
  url: string;
  port: number;
  /** Kills it (SIGKILL: nothing saved), waits `downMs`, and starts an EMPTY one on the same port. */
  restart(options?: { downMs?: number; args?: string[] }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Whether a redis-server binary runs from PATH (`redis-server --version`); false with a warning when not,
 * and under CI (which installs it) a thrown error saying why.
 */
export function redisAvailable(): boolean {
  let why = "";
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore", timeout: 60_000 });
  } catch (err) {
    why = `redis-server --version failed (${(err as Error).message.split("\n")[0]})`;
  }
  return providedByCi("the real-Redis tests", why === "", why);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Starts redis-server on `port` in `dir` with `args`; resolves once it accepts connections. */
async function spawnRedis(port: number, dir: string, args: string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  });
  return child;
}

async function stopRedis(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

/**
 * Starts redis-server on a free loopback port (with `password`: `requirepass`, and the URL carries it;
 * `args`: more server settings, e.g. `["--maxmemory-policy", "allkeys-lru"]`). Throws with its output
 * when it does not come up.
 */
export async function startRedis(options: { password?: string; args?: string[] } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "porchlight-redis-"));
  const auth = options.password ? ["--requirepass", options.password] : [];
  let child = await spawnRedis(port, dir, [...auth, ...(options.args ?? [])]);
  return {
    url: `redis://${options.password ? `:${options.password}@` : ""}127.0.0.1:${port}`,
    port,
    async restart(restart = {}) {
      await stopRedis(child, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, restart.downMs ?? 0));
      child = await spawnRedis(port, dir, [...auth, ...(restart.args ?? options.args ?? [])]);
    },
    async stop() {
      await stopRedis(child, "SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
