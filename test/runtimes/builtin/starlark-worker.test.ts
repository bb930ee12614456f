/**
 * The starlark function in the app's render workers: the operator's step budget, environment allow-list and
 * off switch reach the workers (whose own environment is scrubbed), and a script that loops for ever fails
 * its step while other renders go on.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readEnvironment } from "../../../src/config/environment.js";
import { DEFAULT_RENDER_BUDGET } from "../../../src/config/render-budget.js";
import { createRenderPool, type RenderPool } from "../../../src/server/render-pool.js";
import { ensureBuiltCli, repoRoot } from "../../helpers/built-cli.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The package's ConfigMap, for scripts. */
const CM = 'def cm(rl):\n  return [r for r in rl["items"] if r["kind"] == "ConfigMap"][0]\n';

function starlarkPackage(name: string, source: string): Map<string, Uint8Array> {
  const body = `${CM}${source}`
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
  const files: Record<string, string> = {
    Kptfile: `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n    - image: starlark:v0.5.5\n      configPath: fn.yaml\n`,
    "fn.yaml": `apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: ${name}-script\n  annotations:\n    config.kubernetes.io/local-config: "true"\nsource: |\n${body}\n`,
    "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n",
  };
  return new Map(Object.entries(files).map(([k, v]) => [k, encoder.encode(v)]));
}

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** A pool of real render workers started with `env` as the operator's environment. */
function startPool(
  env: Record<string, string>,
  starlarkMaxSteps = DEFAULT_RENDER_BUDGET.starlarkMaxSteps,
  memoryMb = DEFAULT_RENDER_BUDGET.memoryMb,
): RenderPool {
  ensureBuiltCli();
  const { workerEnv, starlark } = readEnvironment({ ...process.env, ...env }).server;
  return createRenderPool({
    budget: { ...DEFAULT_RENDER_BUDGET, workers: 2, starlarkMaxSteps, memoryMb },
    runtime: { allowExec: false, allowContainers: false },
    workerUrl: pathToFileURL(path.join(repoRoot, "dist/src/server/render-worker.js")),
    env: workerEnv,
    starlark,
  });
}

describe("starlark in the render workers", () => {
  it("stops a script that loops for ever at the operator's step budget while another render completes", {
    timeout: 180_000,
  }, async () => {
    pool = startPool({}, 500_000);
    const [spinning, plain] = await Promise.all([
      pool.renderPackage({
        files: starlarkPackage("spin", "def spin():\n  while True:\n    pass\nspin()"),
        packageName: "spin",
      }),
      pool.renderPackage({
        files: starlarkPackage("plain", 'cm(ctx.resource_list)["data"]["a"] = "c"'),
        packageName: "plain",
      }),
    ]);
    expect(spinning.ok).toBe(false);
    const step = spinning.status.renderStatus?.mutationSteps?.[0];
    expect(step?.exitCode).toBe(1);
    expect(step?.results?.[0]?.message).toContain(
      "too many steps: spin-script exceeded the step budget of 500000 steps",
    );
    expect(plain.ok).toBe(true);
    expect(decoder.decode(plain.files?.get("cm.yaml"))).toContain("  a: c\n");
  });

  it("stops a script that keeps many small values at its memory budget, within the worker's heap", {
    timeout: 180_000,
  }, async () => {
    // Values the allocation estimate undercounts (functions, short strings): the heap's real growth is
    // measured too, and the budget is half the worker's old generation, so the script fails its step
    // with the budget's error instead of the worker dying.
    pool = startPool({}, DEFAULT_RENDER_BUDGET.starlarkMaxSteps, 128);
    const hog = "x = []\nfor i in range(1 << 40):\n  x.append(lambda: str(i))\n  x.append(str(i))";
    const result = await pool.renderPackage({ files: starlarkPackage("hog", hog), packageName: "hog" });
    expect(result.ok).toBe(false);
    const message = result.status.renderStatus?.mutationSteps?.[0]?.results?.[0]?.message ?? "";
    expect(message).toMatch(/out of memory: hog-script exceeded the memory budget of \d+ bytes/);
    // half the worker's old generation (128 MiB), whatever young generation the Node version adds
    expect(Number(/budget of (\d+) bytes/.exec(message)?.[1])).toBe(64 * 1024 * 1024);
    const again = await pool.renderPackage({
      files: starlarkPackage("plain", 'cm(ctx.resource_list)["data"]["a"] = "c"'),
      packageName: "plain",
    });
    expect(again.ok).toBe(true);
  });

  it("gives scripts only the allowed variables, and honours the off switch", {
    timeout: 180_000,
  }, async () => {
    const script = 'cm(ctx.resource_list)["data"]["env"] = repr(sorted(ctx.environment.items()))';
    pool = startPool({
      PORCHLIGHT_STARLARK_ENV: "PORCHLIGHT_TEST_REGION,PORCHLIGHT_TEST_PRIVATE_KEY,PATH",
      PORCHLIGHT_TEST_REGION: "eu-west",
      PORCHLIGHT_TEST_PRIVATE_KEY: "-----BEGIN KEY-----",
      PATH: "/usr/bin",
    });
    const result = await pool.renderPackage({
      files: starlarkPackage("env", script),
      packageName: "env",
    });
    expect(result.ok).toBe(true);
    const cm = decoder.decode(result.files?.get("cm.yaml"));
    expect(cm).toContain(`env: '[("PATH", "/usr/bin"), ("PORCHLIGHT_TEST_REGION", "eu-west")]'`);
    expect(cm).not.toContain("BEGIN");
    await pool.close();

    pool = startPool({ PORCHLIGHT_ALLOW_STARLARK: "false" });
    const off = await pool.renderPackage({
      files: starlarkPackage("off", script),
      packageName: "off",
    });
    expect(off.ok).toBe(false);
    expect(off.status.renderStatus?.mutationSteps?.[0]?.results?.[0]?.message).toContain(
      "starlark functions are turned off on this server",
    );
  });
});
