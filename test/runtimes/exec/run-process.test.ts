import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { runProcess } from "../../../src/runtimes/exec/run-process.js";

const run = (script: string, input: string) =>
  runProcess("/bin/sh", ["-c", script], { cwd: tmpdir(), input, timeoutMs: 20_000, maxBytes: 64 * 2 ** 20 });

// Large enough to arrive in many pipe chunks.
const input = Array.from({ length: 40_000 }, (_, i) => `line ${i} é\n`).join("");

describe("runProcess stdout", () => {
  it("is the input itself when the process hands it back unchanged", async () => {
    const r = await run("cat", input);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(input);
  });

  it("is what came when it repeats only the start of the input", async () => {
    const r = await run("head -c 100000", input);
    expect(r.stdout).toBe(Buffer.from(input).subarray(0, 100_000).toString("utf8"));
  });

  it("keeps the echoed start when the output departs from the input later", async () => {
    const r = await run("cat; printf 'extra\\n'", input);
    expect(r.stdout).toBe(`${input}extra\n`);
    const changed = await run("sed 's/^line 39999 /LINE /'", input);
    expect(changed.stdout).toBe(input.replace("line 39999 ", "LINE "));
  });

  it("is what came when it differs from the first byte", async () => {
    const r = await run("printf 'x'; cat", input);
    expect(r.stdout).toBe(`x${input}`);
  });
});
