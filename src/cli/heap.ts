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

/** Heap used (bytes) below which nothing is collected. */
const FLOOR = 128 * 2 ** 20;
/** Growth over the heap left by the last collection that makes the next one worth its time. */
const GROWTH = 1.5;

/**
 * Returns a function to call after each step: it runs a full collection when the heap in use exceeds
 * both 128 MiB and 1.5× what the previous such collection left. Never throws (without a collector
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
