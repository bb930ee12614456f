// Bundles the compiled CLI (dist/src/cli/main.js, from tsc) with its dependencies into dist/cli/
// (`npm run build` runs it after tsc). Node then opens a handful of files at start-up instead of
// several hundred. Dynamic imports stay separate chunks, so a command, a builtin function or execa
// is still loaded only when used. bin/porchlight.js prefers the bundle while it is newer than
// dist/src (a later tsc-only build falls back to the unbundled modules).
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Chunk names carry content hashes: start from an empty directory so old chunks do not pile up.
rmSync(path.join(root, "dist/cli"), { recursive: true, force: true });

await build({
  entryPoints: { porchlight: path.join(root, "dist/src/cli/main.js") },
  outdir: path.join(root, "dist/cli"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  logLevel: "warning",
  // CommonJS dependencies (yaml) call require(); give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __porchlightCreateRequire } from "node:module"; const require = __porchlightCreateRequire(import.meta.url);',
  },
});
