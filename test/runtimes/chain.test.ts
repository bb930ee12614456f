import { describe, expect, it } from "vitest";
import { chainRuntimes, NOT_RUNNABLE_EXIT_CODE } from "../../src/runtimes/chain.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import type { FunctionRuntime } from "../../src/runtimes/runtime.js";
import { configMap, docs } from "./helpers.js";

const request = (image: string) => ({
  fn: { image },
  input: { items: docs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n"), results: [] },
  cwd: ".",
});

const never: FunctionRuntime = { name: "never", run: async () => undefined };
const always = (exitCode: number): FunctionRuntime => ({
  name: `always${exitCode}`,
  run: async () => ({ exitCode, stderr: "" }),
});

describe("chainRuntimes", () => {
  it("falls through runtimes that answer 'not mine'", async () => {
    const out = await chainRuntimes([never, always(0), always(7)]).run(request("x"));
    expect(out?.exitCode).toBe(0);
  });

  it("fails cleanly when no runtime can run the image", async () => {
    const chain = chainRuntimes([never], { hint: () => "install docker" });
    const out = await chain.run(request("gcr.io/kpt-fn/unknown:v1"));
    expect(out).toEqual({
      exitCode: NOT_RUNNABLE_EXIT_CODE,
      stderr:
        'porchlight: cannot run function image "gcr.io/kpt-fn/unknown:v1": no runtime can run it (install docker)',
    });
  });

  it("turns a throwing runtime into a failed outcome", async () => {
    const broken: FunctionRuntime = {
      name: "broken",
      run: async () => {
        throw new Error("kaput");
      },
    };
    const out = await chainRuntimes([broken]).run(request("x"));
    expect(out).toEqual({ exitCode: 1, stderr: 'broken runtime failed to run function image "x": kaput' });
  });
});

describe("createDefaultRuntime", () => {
  it("runs builtins by name and names the builtins for unknown images", async () => {
    const rt = createDefaultRuntime({ allowExec: false, useContainers: false });
    const ok = await rt.run({
      ...request("ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2"),
      input: { ...request("x").input, functionConfig: configMap({ a: "b" }) },
    });
    expect(ok?.exitCode).toBe(0);
    const missing = await rt.run(request("ghcr.io/kptdev/krm-functions-catalog/dne"));
    expect(missing?.exitCode).toBe(125);
    expect(missing?.stderr).toContain("set-namespace");
    expect(missing?.stderr).toContain('"ghcr.io/kptdev/krm-functions-catalog/dne"');
  });

  it("runs gatekeeper in process: no container runtime needed", async () => {
    const rt = createDefaultRuntime({ allowExec: false, useContainers: false });
    const out = await rt.run(request("gcr.io/kpt-fn/gatekeeper:v0.2"));
    expect(out?.exitCode).toBe(0);
    expect(out?.output?.results).toEqual([]);
  });

  it("refuses exec functions without permission", async () => {
    const rt = createDefaultRuntime({ allowExec: false, useContainers: false });
    const out = await rt.run({ fn: { exec: "sed -e s/a/b/" }, input: request("x").input, cwd: "." });
    expect(out?.executionError).toBe(
      "must run with `--allow-exec` option to allow running function binaries",
    );
  });
});
