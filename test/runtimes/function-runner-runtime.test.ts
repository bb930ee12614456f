/**
 * The function-runner runtime against a real gRPC server on loopback (test/helpers/function-runner-server.ts)
 * that runs exec functions for the images it is given: the round trip, the allow-list, and a runner
 * that fails, is down, slow, answers garbage or speaks TLS.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { decodeResponse, encodeRequest } from "../../src/runtimes/function-runner/evaluator-messages.js";
import {
  createFunctionRunnerRuntime,
  type FunctionRunnerSettings,
} from "../../src/runtimes/function-runner/function-runner-runtime.js";
import { imageMatcher, parseImagePatterns } from "../../src/runtimes/function-runner/image-patterns.js";
import type { FunctionRunRequest } from "../../src/runtimes/runtime.js";
import {
  startFunctionRunner,
  type TestRunner,
  type TestRunnerOptions,
} from "../helpers/function-runner-server.js";
import { configMap, docs, dump } from "./helpers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const FUNCTIONS = path.resolve(here, "../fixtures/functions");
const TLS = path.resolve(here, "../fixtures/tls");
const node = (script: string) => [process.execPath, path.join(FUNCTIONS, script)];
const IMAGES = {
  "example.com/fns/replace-foo:v1": node("replace-foo.mjs"),
  "example.com/fns/fail:v1": node("fail.mjs"),
};

const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function runner(options: Partial<TestRunnerOptions> = {}): Promise<TestRunner> {
  const started = await startFunctionRunner({ images: IMAGES, ...options });
  stops.push(started.stop);
  return started;
}

function runtime(settings: FunctionRunnerSettings) {
  const created = createFunctionRunnerRuntime(settings);
  stops.push(() => created.close());
  return created;
}

const request = (image: string, tag?: string): FunctionRunRequest => ({
  fn: { image, ...(tag ? { tag } : {}) },
  input: {
    items: docs("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo # kept\ndata:\n  k: foo\n"),
    functionConfig: configMap({ a: "b" }),
    results: [],
  },
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("EvaluateFunction messages", () => {
  it("encode as protobuf and decode back, skipping unknown fields", () => {
    const bytes = encodeRequest({ resourceList: Buffer.from("kind: ResourceList\n"), image: "a/b:v1" });
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x0a, 19]));
    // A response with an unknown varint field 3 before its fields.
    const response = Buffer.concat([Buffer.from([0x18, 0x96, 0x01]), bytes]);
    const decoded = decodeResponse(response);
    expect(Buffer.from(decoded.resourceList).toString()).toBe("kind: ResourceList\n");
    expect(Buffer.from(decoded.log).toString()).toBe("a/b:v1");
    expect(() => decodeResponse(Buffer.from([0x0a, 0x7f, 0x01]))).toThrow(
      "invalid EvaluateFunctionResponse: field runs past the end of the message",
    );
  });
});

describe("image allow-list", () => {
  it("matches whole images, * standing for any characters", () => {
    const allowed = imageMatcher(parseImagePatterns("ghcr.io/nephio-project/*, docker.io/x/fn:v1"));
    expect(allowed("ghcr.io/nephio-project/nephio/nfdeploy-fn:v3.0.0")).toBe(true);
    expect(allowed("docker.io/x/fn:v1")).toBe(true);
    expect(allowed("docker.io/x/fn:v2")).toBe(false);
    expect(allowed("evil.example/ghcr.io/nephio-project/x")).toBe(false);
    expect(imageMatcher(parseImagePatterns(""))("anything")).toBe(false);
  });
});

describe("function-runner runtime", () => {
  it("runs an allowed image on the runner: ResourceList there and back, log as stderr, comments kept", async () => {
    const server = await runner();
    const rt = runtime({ address: server.address, images: ["example.com/fns/*"] });
    const outcome = await rt.run(request("example.com/fns/replace-foo:v1"));
    expect(outcome?.exitCode).toBe(0);
    expect(outcome?.stderr).toBe("replacing foo\n");
    expect(dump(outcome?.output?.items ?? [])).toContain("name: bar # kept");
    expect(outcome?.output?.results).toEqual([
      { message: "replaced foo", severity: "info", file: { path: "cm.yaml" } },
    ]);
    const sent = Buffer.from(server.requests[0].resourceList).toString();
    expect(sent).toContain("kind: ResourceList");
    expect(sent).toContain("functionConfig:");
  });

  it("sends the image with the step's tag, fully qualified, and matches the allow-list on that", async () => {
    const server = await runner();
    const rt = runtime({ address: server.address, images: ["example.com/fns/replace-foo:v1"] });
    expect((await rt.run(request("example.com/fns/replace-foo:v0", "v1")))?.exitCode).toBe(0);
    expect(server.requests.map((r) => r.image)).toEqual(["example.com/fns/replace-foo:v1"]);
    expect(await rt.run(request("example.com/fns/replace-foo", "v2"))).toBeUndefined();
  });

  it("leaves images outside the allow-list, and exec functions, to the next runtime", async () => {
    const server = await runner();
    const none = runtime({ address: server.address, images: [] });
    expect(await none.run(request("example.com/fns/replace-foo:v1"))).toBeUndefined();
    const some = runtime({ address: server.address, images: ["example.com/other/*"] });
    expect(await some.run(request("example.com/fns/replace-foo:v1"))).toBeUndefined();
    expect(await some.run({ ...request("x"), fn: { exec: "cat" } })).toBeUndefined();
    expect(server.requests).toEqual([]);
  });

  it("fails the step with the function's stderr when the function fails", async () => {
    const server = await runner();
    const rt = runtime({ address: server.address, images: ["*"] });
    const outcome = await rt.run(request("example.com/fns/fail:v1"));
    expect(outcome).toMatchObject({ exitCode: 1 });
    expect(outcome?.stderr).toContain("boom: bad input");
    expect(outcome?.output).toBeUndefined();
  });

  it("says the runner has no such function (NOT_FOUND)", async () => {
    const server = await runner();
    const outcome = await runtime({ address: server.address, images: ["*"] }).run(
      request("example.com/x:v1"),
    );
    expect(outcome?.executionError).toBe(
      `function runner ${server.address} has no function "example.com/x:v1": no function with image example.com/x:v1`,
    );
  });

  it("fails clearly, within the time limit, when the runner is down", async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    const started = Date.now();
    const outcome = await runtime({ address, images: ["*"], timeoutMs: 3_000 }).run(
      request("example.com/a:v1"),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome?.exitCode).toBe(1);
    expect(outcome?.executionError).toMatch(
      new RegExp(
        `^function runner ${address} (is unavailable|did not answer for "example.com/a:v1" within 3000 ms)`,
      ),
    );
    // Nothing that changes from one render to the next (grpc-js stamps connection errors with the time).
    expect(outcome?.executionError).not.toMatch(/\d{4}-\d\d-\d\dT|Resolution note/);
  });

  it("gives up on a runner that does not answer at the time limit", async () => {
    const server = await runner({ mode: "slow" });
    const started = Date.now();
    const outcome = await runtime({ address: server.address, images: ["*"], timeoutMs: 400 }).run(
      request("example.com/fns/replace-foo:v1"),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome?.executionError).toBe(
      `function runner ${server.address} did not answer for "example.com/fns/replace-foo:v1" within 400 ms`,
    );
  });

  it("fails clearly when the runner answers garbage", async () => {
    const server = await runner({ mode: "garbage" });
    const outcome = await runtime({ address: server.address, images: ["*"], timeoutMs: 5_000 }).run(
      request("example.com/fns/replace-foo:v1"),
    );
    expect(outcome?.exitCode).toBe(1);
    expect(outcome?.executionError).toMatch(
      new RegExp(
        `^function runner ${server.address} failed to evaluate "example.com/fns/replace-foo:v1": .*parsing`,
        "i",
      ),
    );
  });

  it("fails clearly when the answer holds no ResourceList", async () => {
    const server = await runner({
      images: { "example.com/cat:v1": ["sh", "-c", "cat >/dev/null; echo not yaml: ["] },
    });
    const outcome = await runtime({ address: server.address, images: ["*"] }).run(
      request("example.com/cat:v1"),
    );
    expect(outcome?.executionError).toMatch(
      new RegExp(
        `^function runner ${server.address} answered for "example.com/cat:v1" with no valid ResourceList: `,
      ),
    );
  });

  it("speaks TLS with the operator's CA, and a plaintext client gets a clear failure", async () => {
    const key = readFileSync(path.join(TLS, "runner.key"), "utf8");
    const cert = readFileSync(path.join(TLS, "runner.crt"), "utf8");
    const server = await runner({ tls: { key, cert } });
    const secure = runtime({ address: server.address, images: ["*"], tls: { ca: cert } });
    expect((await secure.run(request("example.com/fns/replace-foo:v1")))?.exitCode).toBe(0);
    const plain = runtime({ address: server.address, images: ["*"], timeoutMs: 3_000 });
    const outcome = await plain.run(request("example.com/fns/replace-foo:v1"));
    expect(outcome?.exitCode).toBe(1);
    expect(outcome?.executionError).toMatch(new RegExp(`^function runner ${server.address} `));
  });
});
