/**
 * Progress on a terminal: a status line redrawn in place and erased before other output; nothing at
 * all when stderr is not a TTY, so `porchlight render`'s piped output stays byte for byte kpt's.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { createProgress } from "../../src/cli/progress.js";
import { std } from "../../src/cli/std-write.js";

describe("createProgress", () => {
  it("writes nothing when the stream is not a terminal", () => {
    const writes: string[] = [];
    const p = createProgress({ write: (t: string) => writes.push(t) });
    p.show("reading: 3 files");
    p.tick("running");
    p.clear();
    expect(writes).toEqual([]);
  });

  it("redraws one line in place, at most once per interval, and erases it", () => {
    const writes: string[] = [];
    let t = 0;
    const p = createProgress(
      { isTTY: true, columns: 40, write: (s: string) => writes.push(s) },
      { now: () => t },
    );
    p.show("reading: 1 files");
    p.show("reading: 2 files"); // within the interval: skipped
    t = 150;
    p.show("reading: 3 files");
    p.show(`${"x".repeat(60)}`, true);
    p.clear();
    p.clear(); // nothing shown: nothing to erase
    expect(writes).toEqual([
      "\r\x1b[Kreading: 1 files",
      "\r\x1b[Kreading: 3 files",
      `\r\x1b[K${"x".repeat(38)}…`,
      "\r\x1b[K",
    ]);
  });

  it("takes a terminal that reports 0 columns (some ptys and CI) as one of unknown width, 80", () => {
    const writes: string[] = [];
    for (const columns of [0, undefined]) {
      const p = createProgress({ isTTY: true, columns, write: (s: string) => writes.push(s) });
      p.show("x".repeat(100));
    }
    expect(writes).toEqual([`\r\x1b[K${"x".repeat(78)}…`, `\r\x1b[K${"x".repeat(78)}…`]);
  });
});

describe("porchlight render on a terminal", () => {
  let work: string;
  let stderr = "";
  const tty = process.stderr.isTTY;
  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), "porchlight-progress-"));
    // The CLI writes to the descriptors through `std`: into the streams spied on below.
    // Whether stderr is a terminal is asked of the stream whose isTTY the test sets.
    vi.spyOn(std, "terminal").mockImplementation(() => (process.stderr.isTTY ? process.stderr : undefined));
    vi.spyOn(std, "write").mockImplementation(
      (fd, text) => void (fd === 1 ? process.stdout : process.stderr).write(text),
    );
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    process.stderr.isTTY = tty;
    await rm(work, { recursive: true, force: true });
  });

  async function render(asTTY: boolean): Promise<string> {
    const dir = path.join(work, asTTY ? "tty" : "pipe", "hello");
    await cp(path.resolve(import.meta.dirname, "../../examples/hello-app"), dir, { recursive: true });
    process.stderr.isTTY = asTTY;
    stderr = "";
    expect(await main(["render", dir, "--results-dir", path.join(work, `results-${asTTY}`)])).toBe(0);
    return stderr
      .replace(/ in \d+(ms|s)\n/g, " in <t>\n")
      .replaceAll(dir, "<dir>")
      .replaceAll(path.join(work, `results-${asTTY}`), "<results>");
  }

  it("shows the files read and the step running, and otherwise writes what a pipe gets", async () => {
    const piped = await render(false);
    expect(piped).not.toContain("\x1b");
    const shown = await render(true);
    expect(shown).toContain("\r\x1b[Kreading the package: ");
    expect(shown).toContain(
      "\r\x1b[K  running ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0 on 2 resources",
    );
    // erased before every other line: what remains once status lines are cut is the piped output
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's erase-line sequence is what is cut
    expect(shown.replace(/\r\x1b\[K[^\r\n]*?(?=\r\x1b\[K|$)/g, "").replaceAll("\r\x1b[K", "")).toBe(piped);
  });
});
