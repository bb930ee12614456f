import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { std } from "../../src/cli/std-write.js";
import { fixturesDir } from "../engine/helpers.js";

let work: string;
let stderr: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "porchlight-exec-"));
  stderr = "";
  // The CLI writes to the descriptors through `std`: into the streams spied on below.
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
  await rm(work, { recursive: true, force: true });
});

describe("porchlight render progress lines", () => {
  it("labels an exec function by its command, not as a catalog image", async () => {
    const dir = path.join(work, "pkg");
    await cp(path.join(fixturesDir, "cli-basic"), dir, { recursive: true });
    await writeFile(
      path.join(dir, "Kptfile"),
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n    - exec: cat\n",
    );
    expect(await main(["render", dir, "--allow-exec"])).toBe(0);
    expect(stderr).toContain('[RUNNING] "cat" on package "pkg"\n');
    expect(stderr).toMatch(/\[PASS\] "cat" in /);
    expect(stderr).not.toContain("krm-functions-catalog/cat");
  });
});
