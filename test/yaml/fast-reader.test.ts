/**
 * The fast reader (src/yaml/fast) against the full parser: on every document of every YAML file of
 * ../shared/real-packages and ../shared/conformance, and on fixtures of each construct, it either
 * leaves the document to the full parser or builds exactly the parser's nodes (positions too).
 * Fails (does not skip) without ../shared under CI.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kyamlChunks } from "../../src/yaml/index.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";
import { compareChunk } from "./fast-reader-helpers.js";

const roots = ["real-packages", "conformance"].map((d) => path.join(sharedDir, d));
const available = providedByCi(
  "../shared (real packages, conformance)",
  roots.every((r) => existsSync(r)),
);

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== ".git") yamlFiles(p, out);
    } else if (/\.ya?ml$/.test(name) || name === "Kptfile") out.push(p);
  }
  return out;
}

/** Every chunk of a file as readYamlStream hands it to the readers (none when it does not split). */
function chunksOf(text: string): Array<{ text: string; line: number }> {
  try {
    return kyamlChunks(text).filter((c) => !c.header);
  } catch {
    return [];
  }
}

describe.skipIf(!available)("the fast reader on the shared YAML files", () => {
  it("reads each document as the full parser does, or leaves it to the parser", () => {
    const files = roots.flatMap((r) => yamlFiles(r));
    expect(files.length).toBeGreaterThan(1500);
    const wrong: string[] = [];
    let bytes = 0;
    let fastBytes = 0;
    for (const file of files) {
      for (const chunk of chunksOf(readFileSync(file, "utf8"))) {
        const v = compareChunk(chunk.text, chunk.line);
        bytes += chunk.text.length;
        if (v.kind === "same") fastBytes += chunk.text.length;
        if (v.kind === "wrong") wrong.push(`${file}:${chunk.line + 1}: ${v.why}`);
      }
    }
    expect(wrong.slice(0, 20)).toEqual([]);
    // The subset is worth having: most bytes take the fast path.
    console.info(`fast reader: ${((100 * fastBytes) / bytes).toFixed(1)}% of ${bytes} chars`);
    expect(fastBytes / bytes).toBeGreaterThan(0.5);
  }, 120_000);
});
