/**
 * Every package of ../shared/real-packages marked `builtinRenderable` (kpt-samples, Nephio catalog, GCP
 * blueprints) renders with the builtin functions, and rendering the rendered output again changes
 * nothing. Rendered in memory; ../shared is never written. Skipped, with a message, without ../shared.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import { sharedDir } from "../helpers/built-cli.js";

const realDir = path.join(sharedDir, "real-packages");
const available = existsSync(path.join(realDir, "manifest.json"));
if (!available) console.warn(`real packages skipped: ${realDir}/manifest.json is absent`);

interface ManifestEntry {
  repo: string;
  path: string;
  builtinRenderable: boolean;
}

function readTree(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(root, full).split(path.sep).join("/"), readFileSync(full));
    }
  };
  walk(root);
  return files;
}

function changedPaths(
  before: ReadonlyMap<string, Uint8Array>,
  after: ReadonlyMap<string, Uint8Array>,
): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => {
    const a = before.get(p);
    const b = after.get(p);
    return a === undefined || b === undefined || Buffer.compare(Buffer.from(a), Buffer.from(b)) !== 0;
  });
}

const entries: ManifestEntry[] = available
  ? (JSON.parse(readFileSync(path.join(realDir, "manifest.json"), "utf8")) as ManifestEntry[]).filter(
      (e) => e.builtinRenderable,
    )
  : [];

describe.skipIf(!available)("real packages (../shared/real-packages)", () => {
  const runtime = createDefaultRuntime({ allowExec: false });

  it.each(entries.map((e) => [`${e.repo}/${e.path}`, e] as const))(
    "%s renders, and rendering it again changes nothing",
    async (_name, entry) => {
      const files = readTree(path.join(realDir, entry.repo.replace("/", "__"), entry.path));
      const packageName = path.basename(entry.path);
      const first = await renderPackage({ files, runtime, packageName });
      expect(first.error, first.error).toBeUndefined();
      expect(first.ok).toBe(true);
      const second = await renderPackage({ files: first.files!, runtime, packageName });
      expect(second.ok).toBe(true);
      expect(changedPaths(first.files!, second.files!)).toEqual([]);
    },
  );
});
