import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createExecRuntime } from "../../src/runtimes/exec/exec-runtime.js";
import { configMap } from "./helpers.js";

// A directory standing for the server's working directory, holding an executable `./x` that leaves a
// mark when it runs: the app must never start it because a Kptfile named it.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "porchlight-confine-"));
  writeFileSync(path.join(dir, "x"), `#!/bin/sh\ntouch "${dir}/ran"\ncat\n`);
  chmodSync(path.join(dir, "x"), 0o755);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const request = (exec: string) => ({
  fn: { exec },
  input: { items: [], functionConfig: configMap({}), results: [] },
  origin: { kptfile: "sub/Kptfile", field: "pipeline.mutators[1]" },
});

describe("exec paths in the app (confine)", () => {
  it.each([
    ["./x", "names a file of the package"],
    ["bin/../x --flag", "names a file of the package"],
    ["../x", "leaves the package"],
  ])("%s is refused naming the Kptfile and step, and nothing runs", async (exec, why) => {
    const runtime = createExecRuntime({ allow: true, confine: true, cwd: dir });
    const outcome = await runtime.run(request(exec));
    expect(outcome?.exitCode).toBe(1);
    expect(outcome?.executionError).toContain(
      `Kptfile sub/Kptfile pipeline.mutators[1]: exec ${JSON.stringify(exec)}`,
    );
    expect(outcome?.executionError).toContain(why);
    expect(existsSync(path.join(dir, "ran"))).toBe(false);
  });

  it("runs a program the operator installed: an absolute path or a name on PATH", async () => {
    const runtime = createExecRuntime({ allow: true, confine: true, cwd: dir });
    const absolute = await runtime.run(request(path.join(dir, "x")));
    expect(absolute?.executionError).toBeUndefined();
    expect(absolute?.exitCode).toBe(0);
    expect(existsSync(path.join(dir, "ran"))).toBe(true);
    const named = await runtime.run(request("cat"));
    expect(named).toMatchObject({ exitCode: 0 });
  });

  it("the CLI's rule (kpt's) is unchanged: a relative path resolves against the working directory", async () => {
    const runtime = createExecRuntime({ allow: true, cwd: dir });
    const outcome = await runtime.run(request("./x"));
    expect(outcome?.exitCode).toBe(0);
    expect(existsSync(path.join(dir, "ran"))).toBe(true);
  });
});
