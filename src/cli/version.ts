/**
 * `porchlight --version` (kpt prints its version the same way: the bare version, one line). The
 * version is the package's, read from the `package.json` above this module (`src/cli` when run
 * from source, `dist/src/cli` when built).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "./commands.js";

/**
 * The version of the nearest `package.json` named `porchlight` above this module.
 * @throws Error when none is found (a broken install).
 */
export function porchlightVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "porchlight" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not here; keep looking upward
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find porchlight's package.json");
    dir = parent;
  }
}

/** Prints the version; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError(`unexpected arguments: ${argv.join(" ")}`, "version");
  process.stdout.write(`${porchlightVersion()}\n`);
  return 0;
}
