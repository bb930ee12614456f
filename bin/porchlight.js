#!/usr/bin/env node
// Entry point of the `porchlight` command (build with `npm run build`): the bundled CLI (dist/cli,
// quick to start) while it is at least as new as the compiled modules, else the compiled modules
// (dist/src, e.g. after a tsc-only rebuild).
import { statSync } from "node:fs";

const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
const bundle = mtime("../dist/cli/porchlight.js");
const compiled = mtime("../dist/src/cli/main.js");
const entry =
  bundle !== undefined && (compiled === undefined || bundle >= compiled)
    ? "../dist/cli/porchlight.js"
    : "../dist/src/cli/main.js";
const { main } = await import(entry);

process.exitCode = await main(process.argv.slice(2));
