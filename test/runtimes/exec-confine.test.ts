import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
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

describe("exec in the app never reaches the server's own files", () => {
  const run = (exec: string, confinement = {}) =>
    createExecRuntime({ allow: true, confine: true, cwd: dir, confinement }).run(request(exec));

  it("refuses /proc, /dev and the app's own files reached by an absolute path", async () => {
    const self = path.resolve("bin/porchlight.js");
    for (const exec of ["/proc/self/cwd/bin/porchlight.js --version", `${self} --version`, "/dev/fd/0"]) {
      const outcome = await run(exec);
      expect(outcome?.executionError, exec).toContain(
        "resolves into the app's own files or into /proc, /dev or /sys",
      );
    }
  });

  it("starts the function in an empty directory of its own, not the server's, with PATH outside the app", async () => {
    const outcome = await run(`sh -c 'pwd >&2; ls -A >&2; echo "$PATH" >&2; cat'`);
    expect(outcome?.exitCode).toBe(0);
    const [cwd, ...rest] = outcome?.stderr.trim().split("\n") ?? [];
    expect(cwd).not.toBe(process.cwd());
    expect(cwd.startsWith(os.tmpdir()) || cwd.startsWith(realTmp())).toBe(true);
    expect(existsSync(cwd)).toBe(false); // removed afterwards
    const pathLine = rest.at(-1) ?? "";
    expect(pathLine).not.toContain("node_modules");
    // `env ./x` names a relative path against the function's own (empty) directory: nothing of the server runs.
    const relative = await run("env ./bin/porchlight.js --version");
    expect(relative?.exitCode).not.toBe(0);
  });

  it("keeps argv[0] to the programs the operator lists", async () => {
    const refused = await run("sh -c 'cat'", { programs: ["cat"] });
    expect(refused?.executionError).toContain('"sh" is not one of the programs the operator allows');
    const allowed = await run("cat", { programs: ["cat"] });
    expect(allowed).toMatchObject({ exitCode: 0 });
  });

  it.skipIf(process.getuid?.() !== 0)(
    "runs the function as the operator's PORCHLIGHT_EXEC_USER",
    async () => {
      const outcome = await run(
        `sh -c 'id -u >&2; cat /proc/${process.pid}/environ >/dev/null 2>&1 && echo read >&2; cat'`,
        {
          runAs: { uid: 65534, gid: 65534 },
        },
      );
      expect(outcome?.exitCode).toBe(0);
      const lines = outcome?.stderr.trim().split("\n");
      expect(lines?.[0]).toBe("65534");
      expect(lines).not.toContain("read"); // the server's environment is not readable by another user
    },
  );
});

function realTmp(): string {
  return realpathSync(os.tmpdir());
}
