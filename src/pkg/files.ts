/**
 * A package as a set of files in memory, the shape `pkg get` / `pkg update` work on: what a
 * directory on disk, a git commit or a GitHub tree holds below a package directory.
 */
import path from "node:path/posix";
import { parseKrmignore } from "../krm/krmignore.js";

/** File path (POSIX, relative to the package directory) → content. */
export type FileTree = Map<string, Buffer>;

/** kpt's package file name. */
export const KPTFILE = "Kptfile";

/** kyaml's `kio.DefaultMatch`: the files read as resources. */
export function isYamlFile(file: string): boolean {
  const base = path.basename(file);
  return base.endsWith(".yaml") || base.endsWith(".yml");
}

/** kpt's KRM files: the Kptfile and YAML files (`update.isKrmFile`). */
export function isKrmFile(file: string): boolean {
  return path.basename(file) === KPTFILE || isYamlFile(file);
}

/** Whether a path lies in a `.git` directory (kpt never reads those). */
export function inDotGit(file: string): boolean {
  return file.split("/").some((part, i, all) => i < all.length - 1 && part === ".git") || file === ".git";
}

/** `dir/rel`, with `.`/`""` meaning the root. */
export function joinRel(dir: string, rel: string): string {
  return dir === "" || dir === "." ? rel : rel === "" || rel === "." ? dir : `${dir}/${rel}`;
}

/** Whether `file` is `dir` itself or lies below it. */
export function isUnder(file: string, dir: string): boolean {
  return dir === "" || dir === "." || file === dir || file.startsWith(`${dir}/`);
}

/** The files below `dir`, relative to it. */
export function subtree(tree: FileTree, dir: string): FileTree {
  if (dir === "" || dir === ".") return new Map(tree);
  const out: FileTree = new Map();
  for (const [file, content] of tree) {
    if (file.startsWith(`${dir}/`)) out.set(file.slice(dir.length + 1), content);
  }
  return out;
}

/** Whether any file lies at or below `dir` (a directory "exists"). */
export function dirExists(tree: FileTree, dir: string): boolean {
  if (dir === "" || dir === ".") return true;
  for (const file of tree.keys()) if (file.startsWith(`${dir}/`)) return true;
  return false;
}

/** Whether `dir` holds a Kptfile (kpt's `IsPackageDir`). */
export function isPackageDir(tree: FileTree, dir: string): boolean {
  return tree.has(joinRel(dir, KPTFILE));
}

/** Removes `dir` and everything below it (`os.RemoveAll`). */
export function removeAll(tree: FileTree, dir: string): void {
  for (const file of [...tree.keys()]) if (isUnder(file, dir)) tree.delete(file);
}

/**
 * The order in which Go's `filepath.Walk` visits files: lexical by path component, so `b/c.yaml`
 * comes before `b.yaml`.
 */
export function walkOrder(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return Buffer.compare(Buffer.from(pa[i]), Buffer.from(pb[i]));
  }
  return pa.length - pb.length;
}

/** The directories holding a Kptfile below the root (not the root), in walk order. */
export function packageDirs(tree: FileTree): string[] {
  const dirs = new Set<string>();
  for (const file of tree.keys()) {
    if (inDotGit(file)) continue;
    if (path.basename(file) === KPTFILE && file !== KPTFILE) dirs.add(path.dirname(file));
  }
  return [...dirs].sort(walkOrder);
}

/**
 * kpt's `WalkPackage`: the files of the package at the root, not those of subpackages (directories
 * holding a Kptfile) nor of `.git`, in walk order.
 */
export function ownFiles(tree: FileTree): string[] {
  const subs = packageDirs(tree);
  return [...tree.keys()].filter((f) => !inDotGit(f) && !subs.some((d) => isUnder(f, d))).sort(walkOrder);
}

/**
 * kpt's `pkg.Subpackages`: subpackage directories relative to the root. `matcher` selects packages
 * with an upstream (`remote`), without one (`local`), or `all`; `recursive` descends into packages.
 * `hasUpstream` tells from a Kptfile's text whether it names an upstream.
 */
export function subpackages(
  tree: FileTree,
  matcher: "local" | "remote" | "all",
  recursive: boolean,
  hasUpstream: (kptfile: Buffer, dir: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const dir of packageDirs(tree)) {
    if (!recursive && packageDirs(tree).some((d) => d !== dir && isUnder(dir, d))) continue;
    const remote = hasUpstream(tree.get(joinRel(dir, KPTFILE))!, dir);
    if (matcher === "all" || (matcher === "remote") === remote) out.push(dir);
  }
  return out;
}

/** kpt's `RootPkgFirstSorter`: fewer path segments first, then lexical. */
export function rootFirst(a: string, b: string): number {
  if (a === b) return 0;
  if (a === ".") return -1;
  if (b === ".") return 1;
  const sa = a.split("/").length;
  const sb = b.split("/").length;
  if (sa !== sb) return sa - sb;
  return a < b ? -1 : 1;
}

/** The `.krmignore` matcher of the package root, if any (kyaml's reader honours it). */
export function rootIgnore(tree: FileTree): ((file: string) => boolean) | undefined {
  const text = tree.get(".krmignore");
  if (!text) return undefined;
  const matcher = parseKrmignore(text.toString("utf8"));
  return (file) => {
    const parts = file.split("/");
    for (let i = 1; i < parts.length; i++)
      if (matcher.ignores(parts.slice(0, i).join("/"), true)) return true;
    return matcher.ignores(file, false);
  };
}
