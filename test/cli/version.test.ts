import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";

describe("porchlight --version", () => {
  it("prints the package version on one line, as kpt --version does", () => {
    const cli = ensureBuiltCli();
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(execFileSync(process.execPath, [cli, "--version"], { encoding: "utf8" })).toBe(`${version}\n`);
  }, 180_000);
});
