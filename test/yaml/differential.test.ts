/**
 * Differential check of our YAML layer against the current pipeline (the `yaml` package plus the
 * kyaml emulation in src/krm/yaml-io.ts): every YAML file of ../shared/real-packages and
 * ../shared/conformance read and written back must come out byte for byte the same both ways.
 * Fails (does not skip) without ../shared when CI=true.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseYamlFile, renderFileText } from "../../src/krm/yaml-io.js";
import { printYamlStream, readYamlStream } from "../../src/yaml/index.js";
import { sharedDir } from "../helpers/built-cli.js";
import { yamlFiles } from "../helpers/yaml-files.js";

const roots = ["real-packages", "conformance"].map((d) => path.join(sharedDir, d));
const available = roots.every((r) => existsSync(r));
if (!available && process.env.CI === "true") throw new Error(`../shared is missing (${roots.join(", ")})`);
if (!available) console.warn("YAML differential check skipped: ../shared is absent");

function currentPipeline(file: string, text: string): string | undefined {
  try {
    const parsed = parseYamlFile(file, text);
    return renderFileText({
      path: file,
      docs: parsed.docs.map((d) => ({ doc: d.doc, origin: d, originFile: parsed })),
    });
  } catch {
    return undefined;
  }
}

describe.skipIf(!available)("our YAML layer against the current pipeline", () => {
  it("reads and writes every shared YAML file to the same bytes", () => {
    const files = roots.flatMap((r) => yamlFiles(r));
    expect(files.length).toBeGreaterThan(1500);
    const differ: string[] = [];
    let compared = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const expected = currentPipeline(file, text);
      if (expected === undefined) continue; // Invalid YAML (a case testing the error).
      compared++;
      let ours: string;
      try {
        ours = printYamlStream(readYamlStream(text));
      } catch (err) {
        differ.push(`${file}: ${String(err)}`);
        continue;
      }
      if (ours !== expected) differ.push(file);
    }
    expect(compared).toBeGreaterThan(1500);
    expect(differ).toEqual([]);
  }, 120_000);
});
