/**
 * kpt's CLI conventions for every command and verb registered in src/cli/commands.ts: `--help` / `-h` /
 * `help <path>` print the command's usage to stdout and exit 0; an unknown flag or verb exits 1 with
 * `Error: ...`, a blank line and that usage on stderr; `completion` covers the tree.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COMMANDS, flagsOf, verbsOf } from "../../src/cli/commands.js";
import { completionScript } from "../../src/cli/completion.js";
import { main, topUsage } from "../../src/cli/main.js";
import { readPackageDir } from "../../src/cli/package-dir.js";
import { std } from "../../src/cli/std-write.js";

vi.mock("../../src/cli/package-dir.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/cli/package-dir.js")>();
  return { ...original, readPackageDir: vi.fn(original.readPackageDir) };
});

let stdout = "";
let stderr = "";
let cwd: string;
let work: string;
beforeEach(async () => {
  stdout = "";
  stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  // The CLI writes to the descriptors through `std`: into the streams spied on below.
  vi.spyOn(std, "write").mockImplementation(
    (fd, text) => void (fd === 1 ? process.stdout : process.stderr).write(text),
  );
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  // an empty directory: no Kptfile, no package path that a word could be taken for
  cwd = process.cwd();
  work = await mkdtemp(path.join(tmpdir(), "porchlight-cli-"));
  process.chdir(work);
});
afterEach(async () => {
  vi.restoreAllMocks();
  process.chdir(cwd);
  await rm(work, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  stdout = "";
  stderr = "";
  const code = await main(argv);
  return { code, out: stdout, err: stderr };
}

describe("every registered command", () => {
  it("has a usage naming it, a summary, and only flags it documents", () => {
    expect(COMMANDS.length).toBeGreaterThan(10);
    for (const c of COMMANDS) {
      expect(c.usage, c.path).toMatch(new RegExp(`^Usage: porchlight ${c.path}( |\\n)`));
      expect(c.usage.endsWith("\n"), c.path).toBe(true);
      expect(c.summary.length, c.path).toBeGreaterThan(10);
      expect(flagsOf(c.usage), c.path).toContain("--help");
    }
    expect(new Set(COMMANDS.map((c) => c.path)).size).toBe(COMMANDS.length);
  });

  for (const c of COMMANDS) {
    it(`porchlight ${c.path}: --help, -h and help print the usage to stdout, exit 0`, async () => {
      const words = c.path.split(" ");
      for (const argv of [
        [...words, "--help"],
        [...words, "-h"],
        ["help", ...words],
      ]) {
        expect(await run(argv), argv.join(" ")).toEqual({ code: 0, out: c.usage, err: "" });
      }
    });

    it(`porchlight ${c.path}: an unknown flag exits 1 with the error and the usage on stderr`, async () => {
      const r = await run([...c.path.split(" "), "--no-such-flag"]);
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
      if (c.path === "fn eval") {
        // kpt's fn eval prints its usage errors alone, lower-case (cobra's SilenceUsage): byte for byte
        expect(r.err).toBe("error: unknown flag: --no-such-flag\n");
        return;
      }
      expect(r.err).toMatch(/^Error: unknown flag: --no-such-flag\n\n/);
      expect(r.err.endsWith(`\n\n${c.usage}`)).toBe(true);
    });
  }

  for (const group of COMMANDS.filter((c) => verbsOf(c.path).length > 0)) {
    it(`porchlight ${group.path}: no verb shows its help (exit 0); an unknown verb exits 1 with usage`, async () => {
      const words = group.path.split(" ");
      expect(await run(words)).toEqual({ code: 0, out: group.usage, err: "" });
      const r = await run([...words, "no-such-verb"]);
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        `Error: unknown command "no-such-verb" for "porchlight ${group.path}"\n\n${group.usage}`,
      );
    });
  }
});

describe("the top level", () => {
  it("lists every top-level command with its summary", async () => {
    const r = await run(["--help"]);
    expect(r).toEqual({ code: 0, out: topUsage(), err: "" });
    for (const c of verbsOf("")) expect(r.out).toContain(`  ${c.path} `);
    expect((await run([])).out).toBe(topUsage());
  });

  it("an unknown command exits 1 with the usage on stderr", async () => {
    const r = await run(["no-such-command"]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`Error: unknown command "no-such-command" for "porchlight"\n\n${topUsage()}`);
    expect((await run(["help", "no", "such"])).code).toBe(1);
  });

  it("usage errors found by a command's module exit 1 with that command's usage", async () => {
    const r = await run(["starlark", "run"]);
    expect(r.code).toBe(1);
    const usage = COMMANDS.find((c) => c.path === "starlark run")?.usage;
    expect(r.err).toBe(`Error: starlark run needs exactly one FILE\n\n${usage}`);
    expect((await run(["completion", "tcsh"])).err).toMatch(/^Error: unsupported shell "tcsh"/);
    expect((await run(["version", "extra"])).code).toBe(1);
  });
});

describe("porchlight completion", () => {
  it("prints a bash script that completes commands, verbs and flags", async () => {
    const r = await run(["completion", "bash"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(completionScript("bash"));
    // bash parses it, and completing `porchlight rpkg g` and `porchlight render --res` gives the words
    const complete = (line: string): string =>
      execFileSync(
        "bash",
        [
          "-c",
          `${r.out}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _porchlight; echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: "utf8" },
      ).trim();
    expect(complete("porchlight rp")).toBe("rpkg");
    expect(complete("porchlight rpkg g")).toBe("get");
    expect(complete("porchlight render --res")).toBe("--results-dir");
    expect(complete("porchlight fn eval --match-k")).toBe("--match-kind");
    expect(complete("porchlight completion ''").split(" ")).toContain("--help");
  });

  it("prints zsh and fish scripts naming every command path", async () => {
    for (const shell of ["zsh", "fish"]) {
      const r = await run(["completion", shell]);
      expect(r.code).toBe(0);
      for (const c of COMMANDS) expect(r.out, `${shell}: ${c.path}`).toContain(c.path.split(" ").at(-1));
    }
    expect((await run(["completion", "zsh"])).out).toMatch(/^#compdef porchlight\n/);
  });
});

describe("porchlight render on a directory without a Kptfile", () => {
  it("fails at once with the error naming the directory, without reading the tree", async () => {
    const dir = path.join(work, "not-a-package");
    await mkdir(path.join(dir, "sub"), { recursive: true });
    await writeFile(
      path.join(dir, "sub", "cm.yaml"),
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n",
    );
    vi.mocked(readPackageDir).mockClear();
    const r = await run(["render", dir]);
    expect(r).toEqual({ code: 1, out: "", err: `Error: No Kptfile found at ${JSON.stringify(dir)}.\n` });
    expect(readPackageDir).not.toHaveBeenCalled();
    // with a Kptfile the tree is read (once)
    await writeFile(
      path.join(dir, "Kptfile"),
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n",
    );
    expect((await run(["render", dir])).code).toBe(0);
    expect(readPackageDir).toHaveBeenCalledTimes(1);
  });
});
