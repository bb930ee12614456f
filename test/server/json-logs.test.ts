/**
 * The log an operator reads, from the built app run as the Docker image runs it (`probot run`, JSON
 * lines): `/healthz` and `/metrics` requests are logged at debug, other requests at info, and every
 * line carries each key once (Probot names its children `http`, `event`... under a logger named
 * `probot`; pino wrote both names). The app is pointed at a GitHub host that refuses connections.
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

/** The keys that occur more than once in one object of a JSON text (at any depth). */
function repeatedKeys(text: string): string[] {
  const repeated: string[] = [];
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const keys = stack.at(-1);
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) repeated.push(key);
        keys.add(key);
      }
      expectKey = false;
      i = j;
    } else if (c === "{") {
      stack.push(new Set());
      expectKey = true;
    } else if (c === "[") {
      stack.push(null);
    } else if (c === "}" || c === "]") {
      stack.pop();
    } else if (c === ",") {
      expectKey = stack.at(-1) !== null;
    }
  }
  return repeated;
}

describe("JSON logs of the running app", () => {
  it("has the duplicate-key finder working", () => {
    expect(repeatedKeys('{"name":"a","x":{"name":"b"},"l":["name"],"name":"c"}')).toEqual(["name"]);
    expect(repeatedKeys('{"a":{"b":1,"b":2},"c":"{\\"c\\":1}"}')).toEqual(["b"]);
  });

  it("logs probes and scrapes at debug, other requests at info, each key once", {
    timeout: 180_000,
  }, async () => {
    ensureBuiltCli();
    const port = await freePort();
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const app = spawn(process.execPath, ["node_modules/probot/bin/probot.js", "run", "./dist/src/index.js"], {
      cwd: repoRoot,
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
        LOG_FORMAT: "json",
        LOG_LEVEL: "debug",
        PORCHLIGHT_RECONCILE_INTERVAL_MS: "0",
      },
    });
    let output = "";
    app.stdout.on("data", (d) => {
      output += String(d);
    });
    app.stderr.on("data", (d) => {
      output += String(d);
    });
    const exited = new Promise<void>((resolve) => app.once("exit", () => resolve()));
    try {
      const end = Date.now() + 120_000;
      while (
        (await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        )) !== 200
      ) {
        if (Date.now() > end) throw new Error(`the app did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/no-such-page`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 300));
      app.kill("SIGTERM");
      await exited;
    } finally {
      app.kill("SIGKILL");
    }
    const lines = output.split("\n").filter((l) => l.trim() !== "");
    const records = lines.map((line) => {
      expect(() => JSON.parse(line), line).not.toThrow();
      expect(repeatedKeys(line), line).toEqual([]);
      return JSON.parse(line) as { level: number; msg?: string; name?: string };
    });
    const request = (path: string) => records.filter((r) => r.msg?.startsWith(`GET ${path} `));
    expect(request("/healthz").length).toBeGreaterThan(0);
    for (const r of [...request("/healthz"), ...request("/metrics")]) expect(r.level).toBe(20);
    expect(request("/metrics")).toHaveLength(1);
    expect(request("/no-such-page")).toMatchObject([{ level: 30, name: "http" }]);
  });
});
