import { describe, expect, it } from "vitest";
import { readEnvironment } from "../../src/config/environment.js";

const readOperatorSettings = (env: Record<string, string>) => readEnvironment(env).operator;

describe("readOperatorSettings", () => {
  it("keeps exec and containers off unless the operator turns them on", () => {
    expect(readOperatorSettings({})).toEqual({
      allowExec: false,
      allowContainers: false,
      pushOnFailure: "Unrendered",
    });
    expect(
      readOperatorSettings({
        PORCHLIGHT_ALLOW_EXEC: "true",
        PORCHLIGHT_ALLOW_CONTAINERS: "1",
        PORCHLIGHT_EXEC_TIMEOUT_MS: "5000",
        PORCHLIGHT_PUSH_ON_FAILURE: "None",
      }),
    ).toEqual({ allowExec: true, allowContainers: true, execTimeoutMs: 5000, pushOnFailure: "None" });
  });

  it("reads the default Kptfile status mode", () => {
    expect(readOperatorSettings({ PORCHLIGHT_KPTFILE_STATUS: "conditions" }).kptfileStatus).toBe(
      "conditions",
    );
    expect(() => readOperatorSettings({ PORCHLIGHT_KPTFILE_STATUS: "old" })).toThrow(
      /PORCHLIGHT_KPTFILE_STATUS/,
    );
  });

  it("refuses a bad value with the variable's name", () => {
    expect(() => readOperatorSettings({ PORCHLIGHT_PUSH_ON_FAILURE: "Always" })).toThrow(
      /PORCHLIGHT_PUSH_ON_FAILURE/,
    );
    expect(() => readOperatorSettings({ PORCHLIGHT_ALLOW_EXEC: "yes" })).toThrow(/PORCHLIGHT_ALLOW_EXEC/);
  });
});

describe("the operator's exec limits", () => {
  it("reads PORCHLIGHT_EXEC_PROGRAMS and PORCHLIGHT_EXEC_USER into the exec confinement", () => {
    const settings = readOperatorSettings({
      PORCHLIGHT_ALLOW_EXEC: "true",
      PORCHLIGHT_EXEC_PROGRAMS: "kubeconform,/opt/fn/x",
      PORCHLIGHT_EXEC_USER: "65534:65534",
    });
    expect(settings.execConfinement).toEqual({
      programs: ["kubeconform", "/opt/fn/x"],
      runAs: { uid: 65534, gid: 65534 },
    });
    expect(readOperatorSettings({ PORCHLIGHT_ALLOW_EXEC: "true" }).execConfinement).toBeUndefined();
  });

  it("refuses a relative program path and a user that is not uid:gid", () => {
    expect(() => readOperatorSettings({ PORCHLIGHT_EXEC_PROGRAMS: "bin/x" })).toThrow(
      /PORCHLIGHT_EXEC_PROGRAMS/,
    );
    expect(() => readOperatorSettings({ PORCHLIGHT_EXEC_USER: "nobody" })).toThrow(/PORCHLIGHT_EXEC_USER/);
  });
});
