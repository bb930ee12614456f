/**
 * A package directory on disk as `PackageFiles` (kpt reads every file below the package root;
 * symlinks inside the package are ignored, as kpt ignores them; `.git` is never package content),
 * and writing a render result back in place.
 */
import { lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Reads every regular file below `dir` (relative POSIX paths -> bytes). */
export async function readPackageDir(dir: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  async function walk(rel: string): Promise<void> {
    const abs = rel === "" ? dir : path.join(dir, rel);
    const entries = await readdir(abs, { withFileTypes: true });
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (entry.name === ".git") continue;
        await walk(childRel);
      } else if (entry.isFile()) {
        files.set(childRel, new Uint8Array(await readFile(path.join(dir, childRel))));
      }
    }
  }
  await walk("");
  return files;
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Writes `next` into `dir`: changed and new files are written, files of `previous` missing from
 * `next` are deleted. Unchanged files are not touched.
 */
export async function writePackageDir(options: {
  dir: string;
  previous: ReadonlyMap<string, Uint8Array>;
  next: ReadonlyMap<string, Uint8Array>;
}): Promise<void> {
  for (const [rel, bytes] of options.next) {
    if (sameBytes(options.previous.get(rel), bytes)) continue;
    const abs = path.join(options.dir, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, bytes);
  }
  for (const rel of options.previous.keys()) {
    if (!options.next.has(rel)) await rm(path.join(options.dir, rel), { force: true });
  }
}

/** Whether a path exists (without following a final symlink). */
export async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}
