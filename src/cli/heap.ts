/**
 * Peak memory of a large render in the CLI: V8 collects the old generation only when it has grown to
 * about twice what survived the last collection, so the garbage of each pipeline step (copies of
 * comments and key order, function results, intermediate strings) piles up until the files are
 * written — on 10,000 resources the process peaked at ~320 MiB for ~120 MiB of live data. Between
 * steps nothing of a step's garbage is needed any more: collecting there bounds the peak. Small
 * renders never collect (nor touch V8's flags).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Package size (bytes of its files) from which the young generation is kept at its starting size. */
const BOUND_FROM_BYTES = 2 ** 20;

/**
 * Keeps V8's young generation at the size it starts with (semi-spaces of 1 MiB). V8 doubles the
 * semi-spaces after each scavenge that finds much alive, and a render's node trees are all alive
 * while they are read: it grows them to their maximum (64 MiB each in a Node built without pointer
 * compression), ~100 MiB of resident memory on 10,000 resources that nothing needs, as every node
 * ends in the old generation anyway. The CPU time stays the same (more, smaller scavenges). The
 * flag is read at each growth, so setting it while running takes effect (unlike
 * `--max-semi-space-size`, read once at start). Only for a package of 1 MiB of files or more (`files`:
 * its path -> bytes). Process-wide; never throws.
 */
export function boundYoungGeneration(files: ReadonlyMap<string, Uint8Array>): void {
  let bytes = 0;
  for (const content of files.values()) bytes += content.length;
  // A small package never grows the young generation much; setting a flag loads `node:v8`, which
  // loads Node's streams stack (~10 ms of a small render's start).
  if (bytes < BOUND_FROM_BYTES) return;
  try {
    setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // a runtime without V8's flags only misses the bound
  }
}

/** Heap used (bytes) below which nothing is collected. */
const FLOOR = 128 * 2 ** 20;
/**
 * Growth over the heap left by the last collection that makes the next one worth its time: an exec
 * step on 10,000 resources leaves ~30 MB of garbage over ~107 MB alive, so each step is collected.
 */
const GROWTH = 1.2;

/**
 * Returns a function to call after each step: it runs a full collection when the heap in use exceeds
 * both 128 MiB and 1.2× what the previous such collection left. Never throws (without a collector
 * it does nothing).
 */
export function createStepCollector(): () => void {
  let collect: (() => void) | undefined;
  let left = 0;
  return () => {
    const used = process.memoryUsage().heapUsed;
    if (used < FLOOR || used < GROWTH * left) return;
    try {
      if (!collect) {
        // The documented way to reach V8's collector without starting node with --expose-gc.
        setFlagsFromString("--expose-gc");
        collect = runInNewContext("gc") as () => void;
      }
      collect();
    } catch {
      collect = () => {};
    }
    left = process.memoryUsage().heapUsed;
  };
}
