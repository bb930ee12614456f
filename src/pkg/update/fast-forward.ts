/**
 * kpt's `fast-forward` update strategy (`pkg/lib/update/fast-forward.go`): refused when the local
 * package differs from the original upstream (beyond the root Kptfile's upstream, lock and render
 * status), else the package is replaced by upstream's.
 */
import path from "node:path/posix";
import { dirExists, type FileTree, joinRel, KPTFILE, rootFirst } from "../files.js";
import { defaultKptfile, type KptfileData } from "../kptfile.js";
import { pkgDiff } from "../normalize.js";
import { forceDeleteReplace } from "./force-delete-replace.js";
import type { StrategyContext, UpdateTree } from "./update-tree.js";

/** @throws UpdateError naming the locally modified files. */
export function fastForward(u: UpdateTree, ctx: StrategyContext): void {
  const { localDir } = ctx;
  const diffs = localChanges(u, ctx);
  if (diffs.size > 0) {
    const list = [...diffs].sort();
    u.fail(
      `local package files have been modified: [${list.join(" ")}].\n  use a different update --strategy.`,
    );
  }
  forceDeleteReplace(u, ctx);
  const kf = u.readKf(u.tree, localDir);
  if (kf) {
    kf.status = withoutRenderStatus(kf.status);
    u.writeKf(localDir, kf);
  }
}

/** The files (and packages) that differ between the local package and the original upstream. */
function localChanges(u: UpdateTree, { localDir, origin }: StrategyContext): Set<string> {
  const found = u.localSubpackages(localDir, origin);
  const diffs = new Set<string>();
  for (const rel of [".", ...[...found].sort(rootFirst)]) {
    const r = rel === "." ? "" : rel;
    const l = joinRel(localDir, r);
    const localExists = dirExists(u.tree, l);
    const originExists = r === "" ? true : dirExists(origin, r);
    if (!localExists || !originExists) {
      diffs.add("%s (Package)");
      diffs.add(rel);
      continue;
    }
    const d = pkgDiff(u.tree, l, origin, r);
    if (d.has(KPTFILE) && r === "" && !kptfileChanged(u, l, origin)) d.delete(KPTFILE);
    for (const f of d) diffs.add(f);
  }
  return diffs;
}

/** kpt 1.0's `hasKfDiff`: the root Kptfile changed beyond upstream, upstreamLock and render status. */
function kptfileChanged(u: UpdateTree, localDir: string, origin: FileTree): boolean {
  const local = u.readKf(u.tree, localDir)!;
  const strip = (d: KptfileData, name?: string) =>
    JSON.stringify({
      ...d.kptfile,
      metadata: { ...d.kptfile.metadata, ...(name === undefined ? {} : { name }) },
      upstream: undefined,
      upstreamLock: undefined,
      status: withoutRenderStatus(d.status),
    });
  const o = u.readKf(origin, "");
  if (!o) return strip(local) !== strip(defaultKptfile(path.basename(localDir || u.name)));
  return strip(local) !== strip(o, local.kptfile.metadata?.name);
}

function withoutRenderStatus(status: unknown): unknown {
  if (!status || typeof status !== "object") return status;
  const s = { ...(status as Record<string, unknown>) };
  delete s.renderStatus;
  if (Array.isArray(s.conditions)) {
    const kept = s.conditions.filter(
      (c) => !(c && typeof c === "object" && (c as { type?: unknown }).type === "Rendered"),
    );
    if (kept.length > 0) s.conditions = kept;
    else delete s.conditions;
  }
  return Object.keys(s).length > 0 ? s : undefined;
}
