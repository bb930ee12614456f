import { describe, expect, it } from "vitest";
import { createContainerRuntime, qualifyImage } from "../../src/runtimes/container/container-runtime.js";
import { docs } from "./helpers.js";

describe("container runtime", () => {
  it("qualifies short catalog images as kpt does", () => {
    expect(qualifyImage("set-labels")).toBe("ghcr.io/kptdev/krm-functions-catalog/set-labels:latest");
    expect(qualifyImage("set-labels:v0.2")).toBe("ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2");
    expect(qualifyImage("gcr.io/kpt-fn/x@sha256:ab")).toBe("gcr.io/kpt-fn/x@sha256:ab");
    expect(qualifyImage("gcr.io/kpt-fn/x")).toBe("gcr.io/kpt-fn/x:latest");
  });

  it("is not the runtime when no container engine answers", async () => {
    const rt = createContainerRuntime({ engines: ["porchlight-no-such-engine"] });
    const input = { items: docs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m\n"), results: [] };
    expect(await rt.run({ fn: { image: "gcr.io/kpt-fn/starlark:v0.4" }, input, cwd: "." })).toBeUndefined();
    expect(await rt.run({ fn: { exec: "true" }, input, cwd: "." })).toBeUndefined();
  });
});
