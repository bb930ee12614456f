import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";

let bin = "";
beforeAll(() => {
  bin = ensureBuiltCli();
}, 300_000);

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("porchlight starlark", () => {
  it("test: one line per file and the chunk totals last", () => {
    const fixtures = "test/fixtures/starlark";
    const r = cli([
      "starlark",
      "test",
      `${fixtures}/eval/tuples.star`,
      `${fixtures}/syntax/testdata/parse.star`,
    ]);
    expect(r.stdout).toBe(
      [
        `PASS ${fixtures}/eval/tuples.star (2 chunks)`,
        `PASS ${fixtures}/syntax/testdata/parse.star (10 chunks)`,
        "12 passed, 0 failed",
        "",
      ].join("\n"),
    );
    expect(r.code).toBe(0);
  });

  it("test: a failing chunk fails the file and the exit code", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "starlark-cli-"));
    const file = path.join(dir, "bad.star");
    writeFileSync(file, 'x = 1\n---\ny = 1 // 0 ### "modulo"\n');
    const r = cli(["starlark", "test", file]);
    expect(r.stdout).toContain(`FAIL ${file}: 1 of 2 chunks failed`);
    expect(r.stdout).toContain('line 3: error "floored division by zero" does not match pattern "modulo"');
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("1 passed, 1 failed");
    expect(r.code).toBe(1);
  });

  it("run: prints to stdout; a failure prints the backtrace and exits 1", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "starlark-cli-"));
    const ok = path.join(dir, "ok.star");
    writeFileSync(ok, 'load("json.star", "json")\nprint(json.encode({"b": [1, 2.5], "a": "é"}))\n');
    expect(cli(["starlark", "run", ok])).toMatchObject({ code: 0, stdout: '{"a":"é","b":[1,2.5]}\n' });
    writeFileSync(path.join(dir, "lib.star"), "def double(x):\n    return 2 * x\nitems = [1, 2]\n");
    const main = path.join(dir, "main.star");
    writeFileSync(main, 'load("lib.star", "double", "items")\nprint(double(21), items)\nitems.append(3)\n');
    const loaded = cli(["starlark", "run", main]);
    expect(loaded.stdout).toBe("42 [1, 2]\n");
    expect(loaded.stderr).toContain("Error in append: append: cannot append to frozen list");
    expect(loaded.code).toBe(1);
    // A string holding invalid UTF-8 (half of é) is printed byte for byte.
    const half = path.join(dir, "half.star");
    writeFileSync(half, 'print("é"[0:1], "é")\n');
    const raw = spawnSync(process.execPath, [bin, "starlark", "run", half], { cwd: repoRoot });
    expect([...raw.stdout]).toEqual([0xc3, 0x20, 0xc3, 0xa9, 0x0a]);
    const bad = path.join(dir, "bad.star");
    writeFileSync(bad, 'def f():\n    fail("boom", 1)\nf()\n');
    const r = cli(["starlark", "run", bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Traceback (most recent call last):\n  ${bad}:3:2: in <toplevel>\n  ${bad}:2:9: in f\nError in fail: fail: boom 1\n`,
    );
  });
});
