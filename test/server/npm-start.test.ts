/**
 * `npm start` (README: "Run it with Probot's standard variables") as an operator runs it: a SIGTERM sent
 * to npm — what a process manager or `kill` does — reaches the app, which answers `/healthz` no more and
 * exits, instead of npm exiting alone and leaving the app running without its shutdown. The built app,
 * pointed at a GitHub host that refuses connections (it needs none to start and stop).
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function health(port: number): Promise<number> {
  return fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.status,
    () => 0,
  );
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("npm start", () => {
  it("passes SIGTERM to the app: it shuts down and exits with npm", { timeout: 180_000 }, async () => {
    ensureBuiltCli();
    const port = await freePort();
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const npm = spawn("npm", ["start"], {
      cwd: repoRoot,
      detached: true, // its own process group, so the test can clean up whatever is left
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        APP_ID: "1",
        PRIVATE_KEY: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
        WEBHOOK_SECRET: "secret",
        PORT: String(port),
        HOST: "127.0.0.1",
        GHE_HOST: "127.0.0.1:1",
        GHE_PROTOCOL: "http",
        REDIS_URL: "",
        LOG_LEVEL: "info",
        PORCHLIGHT_RECONCILE_INTERVAL_MS: "0",
      },
    });
    let output = "";
    npm.stdout.on("data", (d) => {
      output += String(d);
    });
    npm.stderr.on("data", (d) => {
      output += String(d);
    });
    const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
    try {
      await until("the app to answer /healthz", async () => (await health(port)) === 200, 120_000);
      process.kill(npm.pid as number, "SIGTERM");
      await exited;
      // The app got the signal: it stopped answering (with only npm gone, it would still answer 200).
      await until("the app to stop listening", async () => (await health(port)) === 0, 30_000);
      expect(output).toContain("SIGTERM: stopping");
    } finally {
      try {
        process.kill(-(npm.pid as number), "SIGKILL");
      } catch {
        // the group is gone already
      }
    }
  });

  it("stops with a message naming REDIS_URL (no password) when Redis cannot be reached", {
    timeout: 180_000,
  }, async () => {
    ensureBuiltCli();
    const [port, redisPort] = [await freePort(), await freePort()];
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const npm = spawn("npm", ["start"], {
      cwd: repoRoot,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        APP_ID: "1",
        PRIVATE_KEY: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
        WEBHOOK_SECRET: "secret",
        PORT: String(port),
        HOST: "127.0.0.1",
        GHE_HOST: "127.0.0.1:1",
        GHE_PROTOCOL: "http",
        REDIS_URL: `redis://ops:hunter2@127.0.0.1:${redisPort}`,
        LOG_LEVEL: "info",
        PORCHLIGHT_RECONCILE_INTERVAL_MS: "0",
      },
    });
    let output = "";
    npm.stdout.on("data", (d) => {
      output += String(d);
    });
    npm.stderr.on("data", (d) => {
      output += String(d);
    });
    const code = new Promise<number | null>((resolve) => npm.once("exit", (c) => resolve(c)));
    try {
      expect(await code).not.toBe(0);
      expect(output).toContain(
        `cannot connect to Redis at REDIS_URL=redis://ops:***@127.0.0.1:${redisPort} (the work queue)`,
      );
      expect(output).toContain(`ECONNREFUSED 127.0.0.1:${redisPort}`);
      expect(output).not.toContain("hunter2");
    } finally {
      try {
        process.kill(-(npm.pid as number), "SIGKILL");
      } catch {
        // the group is gone already
      }
    }
  });
});
