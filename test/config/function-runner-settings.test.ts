/** The operator's function runner from the environment (PORCHLIGHT_FUNCTION_RUNNER*). */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readEnvironment } from "../../src/config/environment.js";
import { readFunctionRunnerSettings } from "../../src/config/function-runner-settings.js";

const readOperatorSettings = (env: Record<string, string>) => readEnvironment(env).operator;

const TLS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/tls");

describe("function runner settings", () => {
  it("are absent without PORCHLIGHT_FUNCTION_RUNNER", () => {
    expect(readFunctionRunnerSettings({})).toBeUndefined();
    expect(readOperatorSettings({}).functionRunner).toBeUndefined();
  });

  it("send nothing to the runner unless the allow-list names images", () => {
    expect(
      readFunctionRunnerSettings({ PORCHLIGHT_FUNCTION_RUNNER: "function-runner.porch-system:9445" }),
    ).toEqual({
      address: "function-runner.porch-system:9445",
      images: [],
    });
  });

  it("read the allow-list, the time limit and TLS", () => {
    const settings = readOperatorSettings({
      PORCHLIGHT_FUNCTION_RUNNER: "10.0.0.7:9445",
      PORCHLIGHT_FUNCTION_RUNNER_IMAGES: "docker.io/nephio/*, ghcr.io/acme/fn:v1",
      PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS: "30000",
      PORCHLIGHT_FUNCTION_RUNNER_CA: path.join(TLS, "runner.crt"),
    }).functionRunner;
    expect(settings).toMatchObject({
      address: "10.0.0.7:9445",
      images: ["docker.io/nephio/*", "ghcr.io/acme/fn:v1"],
      timeoutMs: 30000,
    });
    expect(settings?.tls?.ca).toContain("BEGIN CERTIFICATE");
    expect(
      readFunctionRunnerSettings({
        PORCHLIGHT_FUNCTION_RUNNER: "r:1",
        PORCHLIGHT_FUNCTION_RUNNER_TLS: "true",
      })?.tls,
    ).toEqual({});
  });

  it("refuse bad values, naming the variable", () => {
    expect(() => readOperatorSettings({ PORCHLIGHT_FUNCTION_RUNNER: "runner" })).toThrow(
      "porchlight: invalid environment variable PORCHLIGHT_FUNCTION_RUNNER: must be host:port",
    );
    expect(() =>
      readFunctionRunnerSettings({
        PORCHLIGHT_FUNCTION_RUNNER: "r:1",
        PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS: "0",
      }),
    ).toThrow("PORCHLIGHT_FUNCTION_RUNNER_TIMEOUT_MS: must be a positive whole number of milliseconds");
    expect(() =>
      readFunctionRunnerSettings({
        PORCHLIGHT_FUNCTION_RUNNER: "r:1",
        PORCHLIGHT_FUNCTION_RUNNER_CA: "/no/such.pem",
      }),
    ).toThrow(
      /^porchlight: invalid environment variable PORCHLIGHT_FUNCTION_RUNNER_CA: cannot read \/no\/such.pem/,
    );
    expect(() =>
      readFunctionRunnerSettings({
        PORCHLIGHT_FUNCTION_RUNNER: "r:1",
        PORCHLIGHT_FUNCTION_RUNNER_CERT: path.join(TLS, "runner.crt"),
      }),
    ).toThrow("needs PORCHLIGHT_FUNCTION_RUNNER_KEY too");
  });
});
