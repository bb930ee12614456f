/**
 * A package directory on disk as `PackageFiles` (kpt reads every file below the package root; as
 * kpt, a symlink to a file is read as that file and written through, a symlink to a directory is
 * ignored; `.git` is never package content), and writing a render result back in place. Synchronous file system calls: a CLI command reads and
 * writes one package, and `fs/promises` alone loads Node's streams stack (milliseconds at start-up).
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { sameBytes } from "../engine/bytes.js";

/**
 * Whether the symlink at `abs` (shown as `rel`) is read as a file: a regular file's yes, a directory's
 * (or a device's) no. @throws Error naming it when it points nowhere (kpt fails on it too).
 */
function followsToFile(abs: string, rel: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const to = JSON.stringify(readlinkSync(abs));
    throw new Error(
      code === "ELOOP"
        ? `cannot read ${JSON.stringify(rel)}: it is a symlink in a loop (${to})`
        : `cannot read ${JSON.stringify(rel)}: it is a symlink to ${to}, which does not exist`,
    );
  }
}

/** Reads every regular file below `dir`, and every symlink to one (relative POSIX paths -> bytes). */
export async function readPackageDir(
  dir: string,
  onFile?: (count: number) => void,
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  function walk(rel: string): void {
    const abs = rel === "" ? dir : path.join(dir, rel);
    const entries = readdirSync(abs, { withFileTypes: true });
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        if (!followsToFile(path.join(dir, childRel), childRel)) continue;
        files.set(childRel, new Uint8Array(readFileSync(path.join(dir, childRel))));
        onFile?.(files.size);
      } else if (entry.isDirectory()) {
        if (entry.name === ".git") continue;
        walk(childRel);
      } else if (entry.isFile()) {
        files.set(childRel, new Uint8Array(readFileSync(path.join(dir, childRel))));
        onFile?.(files.size);
      }
    }
  }
  walk("");
  return files;
}

/** A package write refused before anything was written (kpt: `failed to save resources: ...`). */
export class PackageWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PackageWriteError";
  }
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function statOrUndefined(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** Where a write to `p` lands: `p`, or the file a symlink at `p` points to (the link stays). */
function writeTarget(p: string): string {
  return lstatOrUndefined(p)?.isSymbolicLink() ? realpathSync(p) : p;
}

/**
 * Checks that every file in `rels` can be written below `dir`: each existing parent is a real
 * directory (not a symlink, not a file) and the target, if present, is a regular file or a symlink
 * to one (written through, as kpt does). Throws {@link PackageWriteError} naming the first path that
 * cannot be written.
 */
function checkWritable(dir: string, rels: readonly string[]): void {
  const checked = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split("/");
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join("/");
      if (checked.has(prefix)) continue;
      checked.add(prefix);
      const info = lstatOrUndefined(path.join(dir, prefix));
      if (!info) break;
      if (info.isSymbolicLink()) throw new PackageWriteError(`cannot write ${rel}: ${prefix} is a symlink`);
      if (!info.isDirectory())
        throw new PackageWriteError(`cannot write ${rel}: ${prefix} is not a directory`);
    }
    const info = lstatOrUndefined(path.join(dir, rel));
    if (info?.isSymbolicLink() && !statOrUndefined(path.join(dir, rel))?.isFile())
      throw new PackageWriteError(`cannot write ${rel}: it is a symlink to no regular file`);
    if (info && !info.isSymbolicLink() && !info.isFile())
      throw new PackageWriteError(`cannot write ${rel}: it is a directory`);
  }
}

/**
 * Writes `next` into `dir`: changed and new files are written, files of `previous` missing from
 * `next` are deleted; unchanged files are not touched. All-or-nothing as far as the file system
 * allows: every target is checked first ({@link PackageWriteError}, nothing written), the new
 * contents are staged in temporary files next to their targets (removed again if staging fails),
 * then renamed into place with the root `Kptfile` (which carries the render status) last.
 */
export async function writePackageDir(options: {
  dir: string;
  previous: ReadonlyMap<string, Uint8Array>;
  next: ReadonlyMap<string, Uint8Array>;
  /** Called after each file is staged: (files done, files to write). */
  onFile?: (done: number, total: number) => void;
}): Promise<void> {
  const { dir } = options;
  const changed = [...options.next].filter(([rel, bytes]) => !sameBytes(options.previous.get(rel), bytes));
  changed.sort(([a], [b]) => Number(a === "Kptfile") - Number(b === "Kptfile"));
  checkWritable(
    dir,
    changed.map(([rel]) => rel),
  );
  const staged: Array<{ tmp: string; target: string }> = [];
  try {
    for (const [rel, bytes] of changed) {
      const target = writeTarget(path.join(dir, rel));
      mkdirSync(path.dirname(target), { recursive: true });
      const mode = lstatOrUndefined(target)?.mode;
      const tmp = path.join(path.dirname(target), `.${path.basename(target)}.porchlight-${process.pid}.tmp`);
      staged.push({ tmp, target });
      writeFileSync(tmp, bytes, mode === undefined ? {} : { mode });
      options.onFile?.(staged.length, changed.length);
    }
  } catch (err) {
    for (const { tmp } of staged) rmSync(tmp, { force: true });
    throw err;
  }
  for (const { tmp, target } of staged) renameSync(tmp, target);
  for (const rel of options.previous.keys()) {
    if (!options.next.has(rel)) rmSync(path.join(dir, rel), { force: true });
  }
}

/** Whether a path exists (without following a final symlink). */
export async function exists(p: string): Promise<boolean> {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
