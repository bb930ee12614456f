/**
 * The built CLI when its stdout or stderr fails: a reader that stops reading (`| head -1`) ends it
 * quietly with 141, as SIGPIPE ends kpt; a full stdout is an error naming it; a stderr that cannot be
 * written is done without, the command running to its end and its own exit code.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli } from "../helpers/built-cli.js";

let cli = "";
let work = "";
let pkg = "";

/** Runs `script` in bash with $CLI and $PKG set; its stdout (the script echoes the statuses it wants). */
const sh = (script: string) =>
  execFileSync("bash", ["-c", script], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, CLI: `${process.execPath} ${cli}`, PKG: pkg },
  });

beforeAll(async () => {
  cli = ensureBuiltCli();
  work = await mkdtemp(path.join(tmpdir(), "porchlight-std-"));
  pkg = path.join(work, "pkg");
  await mkdir(pkg);
  await writeFile(
    path.join(pkg, "Kptfile"),
    "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n",
  );
  // Far more than a pipe holds (64 KiB), so the writer is still writing when `head` has gone.
  const docs = Array.from(
    { length: 2000 },
    (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  a: "${i}"\n`,
  );
  await writeFile(path.join(pkg, "cms.yaml"), docs.join("---\n"));
}, 180_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("the CLI's stdout read by a reader that stops (| head -1)", () => {
  for (const [name, args] of [
    ["fn render", "fn render $PKG -o stdout"],
    ["fn eval", "fn eval $PKG -o stdout --exec cat"],
    ["fn eval -", "fn eval - --exec cat <$PKG/cms.yaml"],
  ] as const) {
    it(`${name}: exits 141 as by SIGPIPE, no stack trace nor error on stderr`, () => {
      const out = sh(`$CLI ${args} 2>err.txt | head -1; echo "status=\${PIPESTATUS[0]}"; cat err.txt`);
      expect(out).toMatch(/^apiVersion: config\.kubernetes\.io\/v1\nstatus=141\n/);
      expect(out).not.toMatch(/EPIPE|Error|at /);
    }, 60_000);
  }
});

describe("the CLI's stdout when its reader has already gone", () => {
  for (const args of ["fn list", "--help", "render --help", "version", "completion bash"]) {
    it(`${args}: exits 141, nothing on stderr`, () => {
      // `true` has exited before the command writes (the reader is surely gone).
      const out = sh(`{ sleep 0.3; $CLI ${args} 2>err.txt; echo "status=$?" >status.txt; } | true
        cat status.txt err.txt`);
      expect(out).toBe("status=141\n");
    }, 60_000);
  }
});

describe("the CLI's stdout on a full device", () => {
  it("is an error naming stdout and what is wrong, exit 1, no stack trace", () => {
    const out = sh(`$CLI fn render $PKG -o stdout >/dev/full 2>err.txt; echo "status=$?"; cat err.txt`);
    expect(out).toBe('status=1\nPackage "pkg":\nError: cannot write to stdout: no space left on device\n');
  }, 60_000);
});

describe("the CLI's stderr on a full device or a closed pipe", () => {
  it("render -o stdout writes every byte of its output and exits 0", () => {
    const full = sh(`$CLI fn render $PKG -o stdout 2>/dev/full | wc -c; echo "status=\${PIPESTATUS[0]}"`);
    const expected = sh("$CLI fn render $PKG -o stdout 2>/dev/null | wc -c");
    expect(full).toBe(`${expected}status=0\n`);
    // stderr into a pipe whose reader has gone
    const closed = sh(`{ $CLI fn render $PKG -o stdout 2>&1 >/dev/null; echo "status=$?" >status.txt; } | true
      cat status.txt`);
    expect(closed).toBe("status=0\n");
  }, 60_000);

  it("an in-place render still writes the package, and a failing one keeps exit 1", async () => {
    const out = sh(`$CLI fn render $PKG 2>/dev/full; echo "status=$?"
      $CLI fn render $PKG --results-dir $PKG/cms.yaml 2>/dev/full; echo "status=$?"`);
    expect(out).toBe("status=0\nstatus=1\n");
    expect(await readFile(path.join(pkg, "Kptfile"), "utf8")).toContain("reason: RenderSuccess");
  }, 60_000);
});
