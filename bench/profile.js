// Profiling helper (not part of `npm run bench`): renders one generated package of N resources a few
// times in process so `node --cpu-prof bench/profile.js N` shows where the engine spends its time.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generatedPackage } from "./packages.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { renderPackage } = await import(pathToFileURL(path.join(repoRoot, "dist/src/engine/render.js")).href);
const { createDefaultRuntime } = await import(
  pathToFileURL(path.join(repoRoot, "dist/src/runtimes/default.js")).href
);

const count = Number(process.argv[2] ?? 10000);
const rounds = Number(process.argv[3] ?? 3);
const p = generatedPackage(count);
const runtime = createDefaultRuntime({ allowExec: false });
for (let i = 0; i < rounds; i++) {
  const start = performance.now();
  const result = await renderPackage({ files: p.files, runtime, packageName: p.name, cwd: process.cwd() });
  if (!result.ok) throw new Error(result.error);
  console.log(`render ${count}: ${(performance.now() - start).toFixed(0)} ms`);
}
