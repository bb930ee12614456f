/**
 * Helpers of the fast reader's tests: where two node trees first differ (positions included), and
 * the fast reader checked against the full parser on one document chunk.
 */
import { fastReadDocument } from "../../src/yaml/fast/index.js";
import type { YNode } from "../../src/yaml/index.js";
import { parseStream } from "../../src/yaml/index.js";

/** The path and field of the first difference between two trees, or undefined when equal. */
export function firstDifference(a: YNode, b: YNode, path = "$"): string | undefined {
  for (const f of [
    "kind",
    "style",
    "tag",
    "value",
    "anchor",
    "headComment",
    "lineComment",
    "footComment",
    "line",
    "column",
  ] as const) {
    if (a[f] !== b[f]) return `${path}.${f}: ${JSON.stringify(a[f])} vs ${JSON.stringify(b[f])}`;
  }
  if ((a.alias === null) !== (b.alias === null)) return `${path}.alias`;
  if (a.content.length !== b.content.length)
    return `${path}.content.length: ${a.content.length} vs ${b.content.length}`;
  for (let i = 0; i < a.content.length; i++) {
    const d = firstDifference(a.content[i], b.content[i], `${path}[${i}]`);
    if (d) return d;
  }
  return undefined;
}

/** What the fast reader did with a chunk: read it the same, left it to the parser, or erred. */
export type Verdict = { kind: "same" } | { kind: "bailed" } | { kind: "wrong"; why: string };

/** The fast reader against `parseStream` on one chunk (an error of the full parser must bail). */
export function compareChunk(text: string, line = 0): Verdict {
  const fast = fastReadDocument(text, line);
  let full: YNode[] | undefined;
  let error: unknown;
  try {
    full = parseStream(text, line);
  } catch (err) {
    error = err;
  }
  if (fast === undefined) return { kind: "bailed" };
  if (full === undefined) return { kind: "wrong", why: `the full parser refuses it: ${String(error)}` };
  if (fast.length !== full.length)
    return { kind: "wrong", why: `${fast.length} vs ${full.length} documents` };
  for (let i = 0; i < fast.length; i++) {
    const d = firstDifference(fast[i], full[i]);
    if (d) return { kind: "wrong", why: d };
  }
  return { kind: "same" };
}
