/**
 * Which kpt packages a push touched. A package is a directory holding a `Kptfile` (kpt's definition);
 * a change inside nested packages renders the top-most package containing it, because kpt renders a
 * package together with its subpackages (subpackages first, then the parent's pipeline).
 */
import path from "node:path/posix";
import type { TreeEntry } from "../github/port.js";

/** Directories (repository-relative, `""` = root) that hold a `Kptfile` blob in `entries`. */
export function packageDirs(entries: readonly TreeEntry[]): Set<string> {
  const dirs = new Set<string>();
  for (const entry of entries) {
    if (entry.type === "blob" && path.basename(entry.path) === "Kptfile") {
      const dir = path.dirname(entry.path);
      dirs.add(dir === "." ? "" : dir);
    }
  }
  return dirs;
}

/** `a/b/c` → `["", "a", "a/b", "a/b/c"]`. */
export function ancestorsTopDown(dir: string): string[] {
  const parts = dir ? dir.split("/") : [];
  return ["", ...parts.map((_, i) => parts.slice(0, i + 1).join("/"))];
}

/** The top-most package directory containing `dir` (itself included), if any. */
export function topMostPackage(dir: string, packages: ReadonlySet<string>): string | undefined {
  return ancestorsTopDown(dir).find((d) => packages.has(d));
}

/** The directories of `changedPaths` (`""` = root) and `branchPackage`, deduplicated. */
export function touchedDirs(changedPaths: readonly string[], branchPackage?: string): string[] {
  const dirs = new Set(
    changedPaths.map((p) => {
      const dir = path.dirname(p);
      return dir === "." ? "" : dir;
    }),
  );
  if (branchPackage) dirs.add(branchPackage);
  return [...dirs];
}

/**
 * Top-most packages touched by `changedPaths` (files added/modified/removed by the push) and by the
 * directory named in the draft branch (`branchPackage`), sorted. Paths outside every package are ignored.
 */
export function touchedPackages(options: {
  entries: readonly TreeEntry[];
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
}): string[] {
  const packages = packageDirs(options.entries);
  const found = new Set<string>();
  for (const dir of touchedDirs(options.changedPaths, options.branchPackage)) {
    const top = topMostPackage(dir, packages);
    if (top !== undefined) found.add(top);
  }
  return [...found].sort();
}

/** Blob entries of the package at `dir` (subpackages included), keyed by package-relative path. */
export function packageEntries(entries: readonly TreeEntry[], dir: string): Map<string, TreeEntry> {
  const prefix = dir ? `${dir}/` : "";
  const out = new Map<string, TreeEntry>();
  for (const entry of entries) {
    // Regular files only: symlinks (120000) and submodules are left to the base tree untouched.
    if (entry.type !== "blob" || entry.mode === "120000" || !entry.path.startsWith(prefix)) continue;
    out.set(entry.path.slice(prefix.length), entry);
  }
  return out;
}
