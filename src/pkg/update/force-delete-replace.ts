/**
 * kpt's `force-delete-replace` update strategy (`pkg/lib/update/replace.go`): the package and its
 * local subpackages are replaced by upstream's (the root Kptfile kept).
 */
import { dirExists, joinRel, removeAll, rootFirst } from "../files.js";
import type { StrategyContext, UpdateTree } from "./update-tree.js";

/** Replaces the package's own content (and each local subpackage's) with upstream's. */
export function forceDeleteReplace(u: UpdateTree, ctx: StrategyContext): void {
  const { localDir, updated, isRoot } = ctx;
  const found = u.localSubpackages(localDir, updated);
  for (const rel of [".", ...[...found].sort(rootFirst)]) {
    const r = rel === "." ? "" : rel;
    const rootPkg = rel === "." && isRoot;
    const l = joinRel(localDir, r);
    u.removePackageContent(l, !rootPkg);
    if (!dirExists(updated, r)) removeAll(u.tree, l);
    else u.copyPackage(updated, r, l, !rootPkg);
  }
}
