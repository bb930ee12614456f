import { spawnSync } from "node:child_process";
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

describe("porchlight rego", () => {
  it("test: a line per failing case, skipped cases counted apart, the totals last", () => {
    const r = cli(["rego", "test", "test/fixtures/rego/canary.yaml"]);
    const lines = r.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("1 passed, 3 failed");
    expect(lines).toContain("1 skipped");
    expect(lines.filter((l) => l.startsWith("FAIL "))).toHaveLength(3);
    expect(r.stdout).toContain("wrong want_result: got 2, want 3");
    expect(r.code).toBe(1);
  });

  it("eval: prints a query's results as JSON", () => {
    const r = cli(["rego", "eval", "x := [1, 2][_]; x > 1"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ result: [{ expressions: [true, true], bindings: { x: 2 } }] });
  });
});
