/**
 * kpt's `copy-merge` update strategy (`pkg/lib/update/copy-merge.go`): the Kptfile is merged, every
 * upstream file copied over the local one, and files deleted upstream (and present in the original)
 * deleted locally.
 */
import { joinRel, KPTFILE, subtree } from "../files.js";
import { mergeKptfile } from "../kptfile.js";
import type { StrategyContext, UpdateTree } from "./update-tree.js";

/** Copies upstream's files over the package. */
export function copyMerge(u: UpdateTree, ctx: StrategyContext): void {
  const { localDir, updated, origin, isRoot } = ctx;
  const kf = mergeKptfile(u.readKf(u.tree, localDir), u.readKf(updated, ""), u.readKf(origin, ""), true);
  u.writeKf(localDir, kf);
  for (const [file, content] of updated) {
    if (file.split("/").includes(".git")) continue;
    const target = joinRel(localDir, file);
    if (file === KPTFILE && u.tree.has(target)) continue;
    if (file === KPTFILE && !isRoot) continue;
    u.tree.set(target, content);
  }
  for (const file of [...subtree(u.tree, localDir).keys()]) {
    if (file === KPTFILE) continue;
    if (!updated.has(file) && origin.has(file)) u.tree.delete(joinRel(localDir, file));
  }
}
