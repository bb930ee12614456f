/**
 * The render's young-generation bound (src/cli/heap.ts), in a fresh Node process each: after
 * `boundYoungGeneration` the new space stays the size it had while tens of MiB of objects that
 * stay alive are made; without it V8 grows the new space under the same load.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";

/** The new space's size (MiB) in a fresh process after keeping ~1.5 million small objects alive. */
function newSpaceAfterLoad(packageBytes: number | undefined): number {
  ensureBuiltCli();
  const heap = pathToFileURL(path.join(repoRoot, "dist/src/cli/heap.js")).href;
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    const { boundYoungGeneration } = await import(${JSON.stringify(heap)});
    const size = ${JSON.stringify(packageBytes ?? null)};
    if (size !== null) boundYoungGeneration(new Map([["a.yaml", new Uint8Array(size)]]));
    const kept = [];
    for (let i = 0; i < 1_500_000; i++) kept.push({ i, s: "n" + i });
    const space = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    console.log(space.space_size / 2 ** 20, kept.length);
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  return Number(out.split(" ")[0]);
}

describe("boundYoungGeneration", () => {
  it("keeps the new space at its starting size while live objects pile up", () => {
    const unbounded = newSpaceAfterLoad(undefined);
    const bounded = newSpaceAfterLoad(2 ** 20);
    expect(unbounded).toBeGreaterThan(8);
    expect(bounded).toBeLessThanOrEqual(4);
  });

  it("leaves a small package's render alone (setting a flag loads node:v8 and the streams stack)", () => {
    expect(newSpaceAfterLoad(2 ** 20 - 1)).toBeGreaterThan(8);
  });
});
