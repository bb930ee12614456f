// Bundles the compiled CLI (dist/src/cli/main.js, from tsc) with its dependencies into dist/cli/
// (`npm run build` runs it after tsc). Node then opens a handful of files at start-up instead of
// several hundred. Dynamic imports stay separate chunks, so a command, a builtin function or execa
// is still loaded only when used. bin/porchlight.js prefers the bundle while it is newer than
// dist/src (a later tsc-only build falls back to the unbundled modules).
import { rmSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// Chunk names carry content hashes: start from an empty directory so old chunks do not pile up.
rmSync(path.join(root, "dist/cli"), { recursive: true, force: true });

/**
 * Node's built-in modules through `require` instead of `import`. Importing a built-in from ESM builds
 * its ESM facade, which reads every export — `node:fs`'s lazy `ReadStream` getter loads the whole
 * streams stack (~15 ms CPU on Node 24 for `import "node:fs"`, 0.5 ms for `require`). esbuild's
 * CommonJS interop reads an export only when it is used, so a render pays for what it touches.
 */
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    const names = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    b.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) =>
      names.has(args.path) && args.namespace !== "builtin-require"
        ? { path: args.path, namespace: "builtin-require" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

await build({
  entryPoints: { porchlight: path.join(root, "dist/src/cli/main.js") },
  outdir: path.join(root, "dist/cli"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  logLevel: "warning",
  plugins: [builtinsByRequire],
  // CommonJS dependencies (yaml) call require(); give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __porchlightCreateRequire } from "node:module"; const require = __porchlightCreateRequire(import.meta.url);',
  },
});
