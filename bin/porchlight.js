#!/usr/bin/env node
// Entry point of the `porchlight` command (build with `npm run build`): the bundled CLI (dist/cli,
// quick to start) while it is at least as new as the compiled modules, else the compiled modules
// (dist/src, e.g. after a tsc-only rebuild).
//
// Node's on-disk compile cache (Node >= 22.1) is turned on first, so a second run skips compiling the
// modules it loads. It lives where Node puts it: $NODE_COMPILE_CACHE, else node-compile-cache under
// the system's temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Older Node: no cache.
import { statSync } from "node:fs";
import module from "node:module";

try {
  module.enableCompileCache?.();
} catch {
  // an unwritable cache directory only costs the compilation it would have saved
}

const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const bundle = mtime("../dist/cli/porchlight.js");
const compiled = mtime("../dist/src/cli/main.js");
const entry =
  bundle !== undefined && (compiled === undefined || bundle >= compiled)
    ? "../dist/cli/porchlight.js"
    : "../dist/src/cli/main.js";
const { main } = await import(entry);

process.exitCode = await main(process.argv.slice(2));
