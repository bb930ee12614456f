/**
 * A package directory on disk as a {@link FileTree}, and writing a changed tree back: only files
 * that changed are written, removed files are deleted, directories left empty are removed.
 */
import { lstat, mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FileTree } from "./files.js";

/** Reads every regular file below `dir` (not `.git`, not symlinks) into a tree. */
export async function readTree(dir: string): Promise<FileTree> {
  const tree: FileTree = new Map();
  const walk = async (rel: string) => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.name === ".git") continue;
      if (entry.isDirectory()) await walk(childRel);
      else if (entry.isFile()) tree.set(childRel, await readFile(path.join(dir, childRel)));
    }
  };
  await walk("");
  return tree;
}

/** Writes `after` into `dir`, which holds `before`: changed and new files written, gone files deleted. */
export async function writeTreeChanges(dir: string, before: FileTree, after: FileTree): Promise<void> {
  const emptied = new Set<string>();
  for (const file of before.keys()) {
    if (after.has(file)) continue;
    await rm(path.join(dir, file), { force: true });
    emptied.add(path.dirname(file));
  }
  for (const [file, content] of after) {
    const old = before.get(file);
    if (old?.equals(content)) continue;
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  for (const rel of [...emptied].sort((a, b) => b.length - a.length)) {
    let d = rel;
    while (d !== "." && d !== "") {
      try {
        const stat = await lstat(path.join(dir, d));
        if (!stat.isDirectory()) break;
        await rmdir(path.join(dir, d));
      } catch {
        break;
      }
      d = path.dirname(d);
    }
  }
}
