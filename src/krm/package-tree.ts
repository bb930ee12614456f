/**
 * The package tree of a set of files (kpt's `pkg.Pkg` walk): a directory holding a `Kptfile` is a
 * package; its resources are the `*.yaml`, `*.yml`, `*.json` (kyaml's `kio.MatchAll`) and `Kptfile` files
 * below it that are not in a subpackage, not in a `.git` directory and not matched by the package's
 * `.krmignore`.
 */
import { isJsonPath } from "./json-io.js";
import { type IgnoreMatcher, parseKrmignore } from "./krmignore.js";

/** kpt's package file name. */
export const KPTFILE = "Kptfile";

/** One package of the tree. */
export interface PackageNode {
  /** Path relative to the root package, POSIX, `""` for the root (e.g. `db`, `apps/db`). */
  path: string;
  /** Directory name (the root's is given by the caller). */
  name: string;
  /** Direct subpackages, in lexical order of their paths. */
  subpackages: PackageNode[];
  /** Resource files of this package (not its subpackages), relative to the root, lexical order, Kptfile last. */
  resourceFiles: string[];
}

/** Joins a package path and a path relative to it. */
export function joinPath(pkgPath: string, rel: string): string {
  return pkgPath === "" ? rel : `${pkgPath}/${rel}`;
}

/** The display form kpt uses for a package path: `.` or `./db`. */
export function displayPkgPath(pkgPath: string): string {
  return pkgPath === "" ? "." : `./${pkgPath}`;
}

function isResourceFile(name: string): boolean {
  return name === KPTFILE || name.endsWith(".yaml") || name.endsWith(".yml") || isJsonPath(name);
}

/**
 * Whether a path is inside a `.git` directory. kpt reads every other directory, hidden ones
 * included (kyaml's LocalPackageReader skips nothing but `.krmignore` matches; kpt's subpackage walk
 * skips only `.git`); packages exclude other paths with `.krmignore`.
 */
function inGitDir(relPath: string): boolean {
  const parts = relPath.split("/");
  return parts.slice(0, -1).includes(".git");
}

/**
 * Builds the package tree from the package's file paths. `rootName` is the root directory's name.
 * `readText` returns a file's text (used for `.krmignore`).
 * @throws KrmignoreError when a package's `.krmignore` cannot be matched.
 */
export function buildPackageTree(options: {
  paths: readonly string[];
  rootName: string;
  readText: (path: string) => string | undefined;
}): PackageNode {
  const { paths, rootName, readText } = options;
  const visible = paths.filter((p) => !inGitDir(p)).sort();
  const pkgDirs = new Set<string>([""]);
  for (const p of visible) {
    if (p.endsWith(`/${KPTFILE}`)) pkgDirs.add(p.slice(0, -KPTFILE.length - 1));
  }
  const ignores = new Map<string, IgnoreMatcher>();
  for (const dir of pkgDirs) {
    const text = readText(joinPath(dir, ".krmignore"));
    if (text !== undefined) ignores.set(dir, parseKrmignore(text, joinPath(dir, ".krmignore")));
  }
  // Directories ignored by an ancestor package's .krmignore are not packages.
  const ignoredBy = (dir: string, path: string): boolean => {
    const rel = dir === "" ? path : path.slice(dir.length + 1);
    return ignores.get(dir)?.ignores(rel, false) ?? false;
  };
  const ownerOf = (path: string): string => {
    const parts = path.split("/");
    for (let i = parts.length - 1; i >= 0; i--) {
      const dir = parts.slice(0, i).join("/");
      if (pkgDirs.has(dir)) return dir;
    }
    return "";
  };
  const nodes = new Map<string, PackageNode>();
  for (const dir of [...pkgDirs].sort()) {
    const name = dir === "" ? rootName : dir.slice(dir.lastIndexOf("/") + 1);
    nodes.set(dir, { path: dir, name, subpackages: [], resourceFiles: [] });
  }
  for (const dir of [...pkgDirs].sort()) {
    if (dir === "") continue;
    const parentDir = ownerOf(dir);
    if (ignoredBy(parentDir, `${dir}/${KPTFILE}`)) {
      nodes.delete(dir);
      pkgDirs.delete(dir);
      continue;
    }
    nodes.get(parentDir)?.subpackages.push(nodes.get(dir)!);
  }
  placeResourceFiles(visible, nodes, ownerOf, ignoredBy);
  return nodes.get("")!;
}

/**
 * Gives each package its resource files (those not `.krmignore`d by it), sorted, the Kptfile last.
 */
function placeResourceFiles(
  visible: readonly string[],
  nodes: ReadonlyMap<string, PackageNode>,
  ownerOf: (path: string) => string,
  ignoredBy: (dir: string, path: string) => boolean,
): void {
  for (const p of visible) {
    const base = p.slice(p.lastIndexOf("/") + 1);
    if (!isResourceFile(base)) continue;
    const owner = ownerOf(p);
    if (ignoredBy(owner, p)) continue;
    const node = nodes.get(owner);
    if (!node) continue;
    node.resourceFiles.push(p);
  }
  for (const node of nodes.values()) {
    const kptfile = joinPath(node.path, KPTFILE);
    node.resourceFiles.sort();
    const i = node.resourceFiles.indexOf(kptfile);
    if (i >= 0) {
      node.resourceFiles.splice(i, 1);
      node.resourceFiles.push(kptfile);
    }
  }
}

/** All packages of a tree, parent before children (pre-order). */
export function allPackages(root: PackageNode): PackageNode[] {
  return [root, ...root.subpackages.flatMap(allPackages)];
}
