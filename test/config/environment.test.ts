import { describe, expect, it } from "vitest";
import { readEnvironment } from "../../src/config/environment.js";

describe("readEnvironment (the app's environment, read once)", () => {
  it("hands each room its part, with the documented defaults", () => {
    const environment = readEnvironment({ PATH: "/usr/bin", GITHUB_TOKEN: "t", PORCHLIGHT_ALLOW_EXEC: "1" });
    expect(environment.operator).toMatchObject({
      allowExec: true,
      allowContainers: false,
      pushOnFailure: "Unrendered",
    });
    expect(environment.server).toMatchObject({ role: "all", jobLockMs: 30_000, shutdownGraceMs: 20_000 });
    expect(environment.server.render).toEqual({
      timeoutMs: 60_000,
      memoryMb: 512,
      workers: 2,
      starlarkMaxSteps: 100_000_000,
    });
    expect(environment.server.workerEnv).toEqual({ PATH: "/usr/bin" });
    expect(environment.server.starlark).toEqual({ enabled: true, environment: {}, maxSteps: 100_000_000 });
    expect(environment.github).toEqual({ host: "github.com", webBase: "https://github.com" });
  });

  it("reads Probot's GHE_HOST / GHE_PROTOCOL as the GitHub upstream URLs are compared with", () => {
    expect(readEnvironment({ GHE_HOST: "ghe.example.com" }).github).toEqual({
      host: "ghe.example.com",
      webBase: "https://ghe.example.com",
    });
    expect(readEnvironment({ GHE_HOST: "127.0.0.1:3000", GHE_PROTOCOL: "http" }).github).toEqual({
      host: "http://127.0.0.1:3000",
      webBase: "http://127.0.0.1:3000",
    });
  });

  it("names the first bad variable, never its value", () => {
    expect(() => readEnvironment({ PORCHLIGHT_ALLOW_STARLARK: "maybe" })).toThrow(
      "porchlight: invalid environment variable PORCHLIGHT_ALLOW_STARLARK: must be true or false",
    );
    expect(() => readEnvironment({ PORCHLIGHT_CONCURRENCY: "0", PORCHLIGHT_ROLE: "boss" })).toThrow(
      "porchlight: invalid environment variable PORCHLIGHT_CONCURRENCY: must be a positive whole number",
    );
    expect(() => readEnvironment({ PORCHLIGHT_FUNCTION_RUNNER: "runner" })).toThrow(
      "porchlight: invalid environment variable PORCHLIGHT_FUNCTION_RUNNER: must be host:port",
    );
    expect(() => readEnvironment({ REDIS_URL: "http://:s3cret@host" })).toThrow(/^(?!.*s3cret).*REDIS_URL/);
  });

  it("takes an empty process setting as unset, as before", () => {
    expect(
      readEnvironment({ REDIS_URL: "", PORCHLIGHT_RENDER_WORKERS: "", PORCHLIGHT_ALLOW_STARLARK: "" }).server,
    ).toMatchObject({ role: "all", render: { workers: 2 }, starlark: { enabled: true } });
  });

  it("reads the operator's upstream consent, and refuses a bad pair naming the variable", () => {
    expect(readEnvironment({}).operator.upstreamConsent).toBeUndefined();
    expect(
      readEnvironment({ PORCHLIGHT_UPSTREAM_CONSENT: "acme/*=acme/*" }).operator.upstreamConsent,
    ).toEqual({
      rules: [{ upstream: "acme/*", consumer: "acme/*" }],
      publicUpstreams: "open",
    });
    expect(() => readEnvironment({ PORCHLIGHT_UPSTREAM_CONSENT: "acme" })).toThrow(
      /invalid environment variable PORCHLIGHT_UPSTREAM_CONSENT/,
    );
  });
});
