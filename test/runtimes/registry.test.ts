import { describe, expect, it } from "vitest";
import { Document } from "yaml";
import type { BuiltinFunction } from "../../src/runtimes/builtin/builtin-function.js";
import { createBuiltinRuntime, functionNameOf } from "../../src/runtimes/builtin/registry.js";
import { configMap, docs } from "./helpers.js";

describe("functionNameOf", () => {
  it.each([
    ["ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1", "set-namespace"],
    ["gcr.io/kpt-fn/set-labels:unstable", "set-labels"],
    ["set-labels", "set-labels"],
    ["set-labels:v0.1", "set-labels"],
    ["gcr.io/kpt-fn/set-image@sha256:0123abcd", "set-image"],
    ["localhost:5000/fns/no-op:1@sha256:ff", "no-op"],
    ["localhost:5000/no-op", "no-op"],
  ])("%s -> %s", (image, name) => {
    expect(functionNameOf(image)).toBe(name);
  });
});

describe("builtin runtime", () => {
  const input = () => ({
    items: docs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n"),
    results: [],
  });

  it("is not the runtime for unknown images or exec steps", async () => {
    const rt = createBuiltinRuntime();
    expect(
      await rt.run({ fn: { image: "gcr.io/kpt-fn/not-a-catalog-function:v0.2" }, input: input(), cwd: "." }),
    ).toBeUndefined();
    expect(await rt.run({ fn: { exec: "set-labels" }, input: input(), cwd: "." })).toBeUndefined();
  });

  it("runs the function on the list it is given (the engine's clones), without a second copy", async () => {
    const rt = createBuiltinRuntime();
    const req = { ...input(), functionConfig: configMap({ a: "b" }) };
    const out = await rt.run({ fn: { image: "gcr.io/kpt-fn/set-labels:v0.1" }, input: req, cwd: "." });
    expect(out?.exitCode).toBe(0);
    expect(out?.output?.items[0].getIn(["metadata", "labels", "a"])).toBe("b");
    expect(out?.output?.items[0]).toBe(req.items[0]);
  });

  it("turns error results into exit code 1 with the SDK's stderr", async () => {
    const rt = createBuiltinRuntime();
    const out = await rt.run({ fn: { image: "set-labels" }, input: input(), cwd: "." });
    expect(out).toMatchObject({
      exitCode: 1,
      stderr: "failed to evaluate function: error: function failure",
    });
  });

  it("turns a thrown error into a failed outcome naming the function", async () => {
    const boom: BuiltinFunction = {
      name: "boom",
      run() {
        throw new Error("kaput");
      },
    };
    const rt = createBuiltinRuntime({ functions: [boom] });
    const out = await rt.run({
      fn: { image: "boom:v1" },
      input: { items: [new Document({})], results: [] },
      cwd: ".",
    });
    expect(out?.exitCode).toBe(1);
    expect(out?.output?.results).toEqual([{ message: 'function "boom" failed: kaput', severity: "error" }]);
  });
});
