/**
 * A render whose pipeline mixes a builtin and a custom image that Porch's function runner runs (a real
 * gRPC server on loopback), through the runtime chain the app and the CLI bind: builtin, exec,
 * function runner, container. Also the CLI's `--function-runner` flags (render and fn eval).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { std } from "../../src/cli/std-write.js";
import { readEnvironment } from "../../src/config/environment.js";
import { DEFAULT_RENDER_BUDGET } from "../../src/config/render-budget.js";
import { renderPackage } from "../../src/engine/render.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import { createRenderPool } from "../../src/server/render-pool.js";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { startFunctionRunner, type TestRunner } from "../helpers/function-runner-server.js";

const FUNCTIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/functions");
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const KPTFILE = (image: string) => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2
      configMap:
        team: lanterns
    - image: ${image}
`;
const CM = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo\ndata:\n  k: foo\n";
const pkg = (image: string) =>
  new Map([
    ["Kptfile", encoder.encode(KPTFILE(image))],
    ["cm.yaml", encoder.encode(CM)],
  ]);

let server: TestRunner;
beforeAll(async () => {
  server = await startFunctionRunner({
    images: { "example.com/fns/replace-foo:v1": [process.execPath, path.join(FUNCTIONS, "replace-foo.mjs")] },
  });
});
afterAll(() => server.stop());

function chain(images: string[], address = server.address) {
  return createDefaultRuntime({
    allowExec: false,
    useContainers: false,
    functionRunner: { address, images, timeoutMs: 3_000 },
  });
}

describe("render with a function runner", () => {
  it("runs builtins in process and the allowed custom image on the runner", async () => {
    const runtime = chain(["example.com/fns/*"]);
    const result = await renderPackage({
      files: pkg("example.com/fns/replace-foo:v1"),
      runtime,
      packageName: "app",
    });
    runtime.close();
    expect(result.ok, result.error).toBe(true);
    const cm = decoder.decode(result.files?.get("cm.yaml"));
    expect(cm).toContain("name: bar");
    expect(cm).toContain("team: lanterns");
    expect(result.status.renderStatus?.mutationSteps?.map((s) => s.exitCode)).toEqual([0, 0]);
    // The builtin never reached the runner.
    expect(server.requests.map((r) => r.image)).toEqual(["example.com/fns/replace-foo:v1"]);
  });

  it("fails the step, naming the allow-list, for an image it does not list", async () => {
    const before = server.requests.length;
    const runtime = chain(["example.com/fns/*"]);
    const result = await renderPackage({
      files: pkg("example.com/other/fn:v1"),
      runtime,
      packageName: "app",
    });
    runtime.close();
    expect(result.ok).toBe(false);
    const step = result.status.renderStatus?.mutationSteps?.[1];
    expect(step?.exitCode).toBe(125);
    expect(step?.stderr).toContain("function runner's allow-list (example.com/fns/*)");
    expect(server.requests.length).toBe(before);
  });

  it("fails the render promptly and clearly when the runner is down", async () => {
    const runtime = chain(["*"], "127.0.0.1:1");
    const started = Date.now();
    const result = await renderPackage({
      files: pkg("example.com/fns/replace-foo:v1"),
      runtime,
      packageName: "app",
    });
    runtime.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.ok).toBe(false);
    expect(result.status.renderStatus?.mutationSteps?.[1]?.executionError).toMatch(
      /^function runner 127\.0\.0\.1:1 /,
    );
  });
});

describe("the app's render workers", () => {
  it("bind the operator's function runner (PORCHLIGHT_FUNCTION_RUNNER*)", { timeout: 180_000 }, async () => {
    ensureBuiltCli();
    const pool = createRenderPool({
      budget: { ...DEFAULT_RENDER_BUDGET, workers: 1 },
      env: readEnvironment(process.env).server.workerEnv,
      starlark: readEnvironment(process.env).server.starlark,
      runtime: {
        allowExec: false,
        allowContainers: false,
        functionRunner: { address: server.address, images: ["example.com/fns/replace-foo:*"] },
      },
      workerUrl: pathToFileURL(path.join(repoRoot, "dist/src/server/render-worker.js")),
    });
    try {
      const result = await pool.renderPackage({
        files: pkg("example.com/fns/replace-foo:v1"),
        packageName: "app",
      });
      expect(result.ok, result.error).toBe(true);
      expect(decoder.decode(result.files?.get("cm.yaml"))).toContain("name: bar");
    } finally {
      await pool.close();
    }
  });
});

describe("porchlight render / fn eval --function-runner", () => {
  let dir: string;
  let stderr: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "porchlight-runner-"));
    stderr = "";
    // The CLI writes to the descriptors through `std`: into the streams spied on below.
    vi.spyOn(std, "write").mockImplementation(
      (fd, text) => void (fd === 1 ? process.stdout : process.stderr).write(text),
    );
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  const write = async (image: string) => {
    await writeFile(path.join(dir, "Kptfile"), KPTFILE(image));
    await writeFile(path.join(dir, "cm.yaml"), CM);
  };

  it("render sends the images no builtin has to the runner the flag names", async () => {
    await write("example.com/fns/replace-foo:v1");
    expect(await main(["render", dir, "--function-runner", server.address]), stderr).toBe(0);
    expect(await readFile(path.join(dir, "cm.yaml"), "utf8")).toContain("name: bar");
  });

  it("render keeps to --function-runner-images", async () => {
    await write("example.com/fns/replace-foo:v1");
    const code = await main([
      "render",
      dir,
      `--function-runner=${server.address}`,
      "--function-runner-images",
      "example.com/elsewhere/*",
    ]);
    expect(code).toBe(1);
    expect(stderr).toContain("function runner's allow-list (example.com/elsewhere/*)");
  });

  it("refuses a runner flag without --function-runner, and a bad address", async () => {
    await write("example.com/fns/replace-foo:v1");
    expect(await main(["render", dir, "--function-runner-images", "*"])).toBe(1);
    expect(stderr).toContain("Error: --function-runner-images needs --function-runner HOST:PORT");
    stderr = "";
    expect(await main(["render", dir, "--function-runner", "no-port"])).toBe(1);
    expect(stderr).toContain("Error: invalid --function-runner: must be host:port");
  });

  it("fn eval runs an image on the runner", async () => {
    await write("example.com/fns/replace-foo:v1");
    const code = await main([
      "fn",
      "eval",
      dir,
      "--image",
      "example.com/fns/replace-foo:v1",
      "--function-runner",
      server.address,
    ]);
    expect(code, stderr).toBe(0);
    expect(await readFile(path.join(dir, "cm.yaml"), "utf8")).toContain("name: bar");
  });
});
