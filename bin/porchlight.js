#!/usr/bin/env node
// Entry point of the `porchlight` command: runs the compiled CLI (build with `npm run build`).
import { main } from "../dist/src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
