/**
 * kpt's `resource-merge` update strategy (`pkg/lib/update/resource-merge.go`): for the package and
 * each local subpackage, the Kptfile is merged, the resources 3-way merged (local edits kept, upstream
 * changes applied, overrides recorded), and the other files follow upstream unless changed locally.
 */
import {
  dirExists,
  type FileTree,
  isKrmFile,
  joinRel,
  ownFiles,
  removeAll,
  rootFirst,
  subtree,
} from "../files.js";
import { mergeKptfile } from "../kptfile.js";
import {
  mergePackageResources,
  type ResourceOutcome,
  type ResourceOverride,
} from "../merge3/package-merge.js";
import { pkgDiff } from "../normalize.js";
import type { StrategyContext, UpdateTree } from "./update-tree.js";

/** Updates the package and its local subpackages by 3-way merge. */
export function resourceMerge(u: UpdateTree, ctx: StrategyContext): void {
  const { localDir, updated, origin, isRoot } = ctx;
  if (!isRoot) {
    const l = u.readKf(u.tree, localDir)?.kptfile.upstream?.git;
    const o = u.readKf(origin, "")?.kptfile.upstream?.git;
    if (JSON.stringify(l) !== JSON.stringify(o)) return;
  }
  const found = u.localSubpackages(localDir, updated, origin);
  for (const rel of [".", ...[...found].sort(rootFirst)]) {
    const r = rel === "." ? "" : rel;
    resourceMergeOne(
      u,
      {
        localDir: joinRel(localDir, r),
        updated: subtree(updated, r),
        origin: subtree(origin, r),
        isRoot: rel === "." && isRoot,
      },
      r,
    );
  }
}

function resourceMergeOne(u: UpdateTree, ctx: StrategyContext, rel: string): void {
  const { localDir, updated, origin, isRoot } = ctx;
  const localExists = dirExists(u.tree, localDir);
  const updatedExists = updated.size > 0 || rel === "";
  const originExists = origin.size > 0 || rel === "";
  if (!originExists && localExists && updatedExists) {
    u.fail(`subpackage ${JSON.stringify(rel)} added in both upstream and local`);
  }
  if (!originExists && !localExists && updatedExists) {
    u.copyPackage(updated, "", localDir, !isRoot);
    return;
  }
  if (originExists && localExists && !updatedExists) {
    if (pkgDiff(origin, "", u.tree, localDir).size === 0) removeAll(u.tree, localDir);
    return;
  }
  if (!(originExists && localExists && updatedExists)) return;
  // Kptfile, then resources, then other files.
  const local = subtree(u.tree, localDir);
  const kf = mergeKptfile(u.readKf(local, ""), u.readKf(updated, ""), u.readKf(origin, ""), !isRoot);
  u.writeKf(localDir, kf);
  const before = subtree(u.tree, localDir);
  const overrides: ResourceOverride[] = [];
  const outcomes: ResourceOutcome[] = [];
  const merged = mergePackageResources({
    local: before,
    origin,
    updated,
    schemas: u.schemas,
    overrides,
    outcomes,
  });
  for (const o of overrides) u.overrides.push({ ...o, file: joinRel(localDir, o.file) });
  for (const o of outcomes) u.outcomes.push({ ...o, file: joinRel(localDir, o.file) });
  u.replaceSubtree(localDir, before, merged);
  replaceNonKrmFiles(u, updated, origin, localDir);
}

/** kpt's `ReplaceNonKRMFiles`: other files follow upstream unless changed or added locally. */
function replaceNonKrmFiles(u: UpdateTree, updated: FileTree, origin: FileTree, localDir: string): void {
  const nonKrm = (t: FileTree) => new Set(ownFiles(t).filter((f) => !isKrmFile(f) && !f.includes(".git")));
  const local = subtree(u.tree, localDir);
  const updatedFiles = nonKrm(updated);
  const originFiles = nonKrm(origin);
  const localFiles = nonKrm(local);
  const modified = new Set<string>();
  for (const file of localFiles) {
    const o = origin.get(file);
    if (!originFiles.has(file) || !o?.equals(local.get(file)!)) {
      modified.add(file);
      continue;
    }
    if (!updatedFiles.has(file)) u.tree.delete(joinRel(localDir, file));
  }
  for (const file of updatedFiles) {
    if (modified.has(file)) continue;
    u.tree.set(joinRel(localDir, file), updated.get(file)!);
  }
}
