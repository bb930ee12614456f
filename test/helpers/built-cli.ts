/**
 * The built CLI (`bin/porchlight.js` runs `dist/src/cli/main.js`) for tests that run it as a process.
 * `.ci/run` builds before testing; a local `npm test` after editing `src/` rebuilds here first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (absolute path). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Absolute path of `../shared` beside the checkout (present in CI, absent in a fresh clone elsewhere), with
 * symlinks resolved: the fake GitHub's `server.mjs` runs its CLI only when started by its real path.
 */
export const sharedDir = ((dir) => (existsSync(dir) ? realpathSync(dir) : dir))(
  path.resolve(repoRoot, "../shared"),
);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist/` when it is missing or older than a file in `src/`; returns the absolute path of the
 * CLI entry point. Throws when the build produced no CLI.
 */
export function ensureBuiltCli(): string {
  const main = path.join(repoRoot, "dist/src/cli/main.js");
  if (!existsSync(main) || statSync(main).mtimeMs < newestSource(path.join(repoRoot, "src"))) {
    try {
      execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: repoRoot, stdio: "pipe" });
    } catch (error) {
      // tsc still emits when a module has type errors; the type-check step reports those.
      console.warn(`build reported errors:\n${String((error as { stdout?: Buffer }).stdout ?? error)}`);
    }
  }
  if (!existsSync(main)) throw new Error(`${main} was not built`);
  return path.join(repoRoot, "bin/porchlight.js");
}
