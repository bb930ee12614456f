/**
 * Every package of ../shared/real-packages (kpt-samples, Nephio catalog, GCP blueprints) whose Kptfiles'
 * functions are all builtins renders with the builtin functions, and rendering the rendered output
 * again changes nothing. Which packages qualify is computed from their Kptfiles and the builtin
 * registry, so the set grows as builtins land; a floor on its size keeps builtins from silently
 * disappearing. Rendered in memory; ../shared is never written. Skipped, with a message, without
 * ../shared.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { renderPackage } from "../../src/engine/render.js";
import { BuiltinRegistry } from "../../src/runtimes/builtin/registry.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import { sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";

const realDir = path.join(sharedDir, "real-packages");
const available = providedByCi(
  "the real packages",
  existsSync(path.join(realDir, "manifest.json")),
  `${path.join(realDir, "manifest.json")} is absent`,
);
if (!available) console.warn(`real packages skipped: ${realDir}/manifest.json is absent`);

interface ManifestEntry {
  repo: string;
  path: string;
}

/**
 * Packages whose every function is a builtin when this was last raised (the manifest's builtinRenderable: 69 of 90;
 * starlark added 7: ghost, gsoc-otel-demo/app, blueprints' project, vlanindex, argo-cd-app, flux-gitrepo-kustomize,
 * rootsync).
 */
const MIN_RENDERABLE = 81;

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

const registry = new BuiltinRegistry();

/** Whether every `image:` step of every Kptfile in the tree is a builtin (`exec:` steps never are). */
function allFunctionsBuiltin(files: ReadonlyMap<string, Uint8Array>): boolean {
  for (const [file, bytes] of files) {
    if (path.posix.basename(file) !== "Kptfile") continue;
    for (const doc of parseAllDocuments(Buffer.from(bytes).toString("utf8"))) {
      const pipeline = (doc.toJSON() as { pipeline?: Record<string, unknown> } | null)?.pipeline ?? {};
      for (const kind of ["mutators", "validators"]) {
        const steps = Array.isArray(pipeline[kind]) ? (pipeline[kind] as Array<Record<string, unknown>>) : [];
        for (const step of steps) {
          if (typeof step.image !== "string" || !registry.resolve(step.image)) return false;
        }
      }
    }
  }
  return true;
}

function packageFiles(entry: ManifestEntry): Map<string, Uint8Array> {
  return readTree(path.join(realDir, entry.repo.replace("/", "__"), entry.path));
}

const entries: ManifestEntry[] = available
  ? (JSON.parse(readFileSync(path.join(realDir, "manifest.json"), "utf8")) as ManifestEntry[]).filter((e) =>
      allFunctionsBuiltin(packageFiles(e)),
    )
  : [];

describe.skipIf(!available)("real packages (../shared/real-packages)", () => {
  const runtime = createDefaultRuntime({ allowExec: false });

  it("renders every package whose functions are all builtins (at least the known ones)", () => {
    expect(entries.length).toBeGreaterThanOrEqual(MIN_RENDERABLE);
  });

  it.each(entries.map((e) => [`${e.repo}/${e.path}`, e] as const))(
    "%s renders, and rendering it again changes nothing",
    async (_name, entry) => {
      const files = packageFiles(entry);
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
