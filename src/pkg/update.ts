/**
 * `kpt pkg update` over a package held in memory: fetches the upstream revision the Kptfile names
 * (and the one it was fetched from, `upstreamLock`), then updates the package and every subpackage
 * with the chosen strategy, and records the new `upstreamLock`. Remote subpackages (with their own
 * `upstream`) are updated from their own upstreams.
 *
 * Steps (kpt's `update.Command.Run`):
 * 1. set the root Kptfile's `upstream.git.ref` / `updateStrategy` from the request;
 * 2. for the root and each remote subpackage: fetch updated and original upstream, walk the
 *    package and its remote subpackages (added upstream → copied, deleted upstream and unchanged
 *    locally → removed, added on both sides → error, else updated with the strategy), then write
 *    `upstreamLock`;
 * 3. add kpt's merge comments to every resource.
 */
import path from "node:path/posix";
import { type FileTree, isPackageDir, joinRel, removeAll, rootFirst, subpackages, subtree } from "./files.js";
import { lockFor, mergeKptfile } from "./kptfile.js";
import type { ResourceOutcome, ResourceOverride } from "./merge3/package-merge.js";
import type { MergeSchemas } from "./merge3/schema.js";
import { addMergeComments, pkgDiff } from "./normalize.js";
import { copyMerge } from "./update/copy-merge.js";
import { fastForward } from "./update/fast-forward.js";
import { forceDeleteReplace } from "./update/force-delete-replace.js";
import { resourceMerge } from "./update/resource-merge.js";
import { type StrategyContext, UpdateError, UpdateTree } from "./update/update-tree.js";

export { UpdateError };

/** Where a package revision lives upstream (a Kptfile's `upstream.git`). */
export interface UpstreamSpec {
  repo: string;
  directory: string;
  /** A branch, tag or commit. */
  ref: string;
}

/** A fetched upstream package revision. */
export interface FetchedPackage {
  /** The files below the upstream directory. */
  files: FileTree;
  /** The ref as resolved (kpt prefers the package's own tag `<directory>/<ref>`). */
  ref: string;
  /** The commit (for a tag: what `git ls-remote` lists for it). */
  commit: string;
}

/** Fetches upstream revisions (the git binary for the CLI, GitHub's API for the app). */
export interface UpstreamFetcher {
  fetch(spec: UpstreamSpec): Promise<FetchedPackage>;
}

/** Input of {@link updatePackage}. */
export interface UpdateOptions {
  /** The local package (root Kptfile at `Kptfile`), with its subpackages. */
  files: FileTree;
  /** The package's directory name (kpt's package name, for messages and default Kptfiles). */
  name: string;
  /** New upstream ref (`PKG@REF`); default: the Kptfile's. */
  ref?: string;
  /** Strategy; kpt's CLI default `resource-merge`. */
  strategy?: string;
  fetcher: UpstreamFetcher;
  schemas: MergeSchemas;
  /** Progress lines, as kpt prints them. */
  log?: (line: string) => void;
}

/** What an update did. */
export interface UpdateResult {
  files: FileTree;
  /** Number of packages updated from an upstream (root and remote subpackages). */
  packages: number;
  /** Local edits replaced by upstream values (resource-merge), paths relative to the root package. */
  overrides: ResourceOverride[];
  /** Resources added or deleted on either side (resource-merge), paths relative to the root package. */
  outcomes: ResourceOutcome[];
}

/** kpt's update strategies (`pkg/lib/update/`), by name. */
const STRATEGIES: Record<string, (u: UpdateTree, ctx: StrategyContext) => void> = {
  "resource-merge": resourceMerge,
  "fast-forward": fastForward,
  "force-delete-replace": forceDeleteReplace,
  "copy-merge": copyMerge,
};

class Updater extends UpdateTree {
  constructor(private readonly opts: UpdateOptions) {
    super(opts.files, opts.name, opts.schemas);
  }

  async run(): Promise<UpdateResult> {
    const root = this.readKf(this.tree, "");
    if (!root) this.fail(`no Kptfile found in package ${JSON.stringify(this.opts.name)}`);
    const git = root.kptfile.upstream?.git;
    if (!git) this.fail("package must have an upstream reference");
    const originalRef = git.ref;
    if (this.opts.ref) git.ref = this.opts.ref;
    const strategy = this.opts.strategy ?? "resource-merge";
    root.kptfile.upstream!.updateStrategy = strategy;
    this.writeKf("", root);

    let count = 0;
    const stack = [""];
    while (stack.length > 0) {
      const p = stack.pop()!;
      count++;
      await this.updateRemotePackage(p, p === "");
      for (const sub of this.directSubpackages(p)) {
        const subKf = this.readKf(this.tree, sub)!;
        const sg = subKf.kptfile.upstream?.git;
        if (!sg) continue;
        if (
          sg.repo === git.repo &&
          sg.ref === originalRef &&
          path.normalize(sg.directory ?? "").startsWith(path.normalize(git.directory ?? ""))
        ) {
          if (this.opts.ref) sg.ref = this.opts.ref;
          subKf.kptfile.upstream!.updateStrategy = strategy;
          this.writeKf(sub, subKf);
        }
        stack.push(sub);
      }
    }
    this.opts.log?.(`\nUpdated ${count} package(s).`);
    this.tree = addMergeComments(this.tree);
    return { files: this.tree, packages: count, overrides: this.overrides, outcomes: this.outcomes };
  }

  directSubpackages(p: string): string[] {
    const below = subtree(this.tree, p);
    return subpackages(below, "all", false, this.hasUpstream)
      .map((d) => joinRel(p, d))
      .sort();
  }

  /** kpt's `updateRootPackage`: one package with its own upstream. */
  async updateRemotePackage(p: string, isRoot: boolean): Promise<void> {
    const kf = this.readKf(this.tree, p)!;
    const up = kf.kptfile.upstream!.git!;
    this.opts.log?.(`Package ${JSON.stringify(isRoot ? this.opts.name : p)}:`);
    this.opts.log?.(`Fetching upstream from ${up.repo}@${up.ref}`);
    const updated = await this.opts.fetcher.fetch({
      repo: up.repo ?? "",
      directory: up.directory ?? "/",
      ref: up.ref ?? "",
    });
    let origin: FileTree = new Map();
    const lock = kf.kptfile.upstreamLock?.git;
    if (lock) {
      this.opts.log?.(`Fetching origin from ${up.repo}@${up.ref}`);
      origin = (
        await this.opts.fetcher.fetch({
          repo: lock.repo ?? "",
          directory: lock.directory ?? "/",
          ref: lock.commit ?? "",
        })
      ).files;
    }
    const stack = ["."];
    while (stack.length > 0) {
      const rel = stack.pop()!;
      this.updateSubpackage(p, rel, updated.files, origin, rel === ".");
      const found = new Set<string>();
      const local = subtree(this.tree, joinRel(p, rel === "." ? "" : rel));
      for (const t of [
        local,
        subtree(updated.files, rel === "." ? "" : rel),
        subtree(origin, rel === "." ? "" : rel),
      ]) {
        for (const d of subpackages(t, "remote", false, this.hasUpstream)) found.add(d);
      }
      for (const d of [...found].sort(rootFirst)) stack.push(joinRel(rel === "." ? "" : rel, d));
    }
    const after = this.readKf(this.tree, p)!;
    after.kptfile.upstreamLock = lockFor({
      repo: up.repo ?? "",
      directory: up.directory ?? "/",
      ref: updated.ref,
      commit: updated.commit,
    });
    this.writeKf(p, after);
  }

  /** kpt's `updatePackage` for a package below a remote package (or the remote package itself). */
  updateSubpackage(p: string, rel: string, updated: FileTree, origin: FileTree, isRoot: boolean): void {
    const r = rel === "." ? "" : rel;
    const localDir = joinRel(p, r);
    const localExists = isPackageDir(this.tree, localDir);
    const updatedExists = isRoot || isPackageDir(updated, r);
    const originExists = isRoot || isPackageDir(origin, r);
    const name = path.basename(localDir || this.opts.name);
    if (!originExists && localExists && updatedExists) {
      this.opts.log?.(`Package ${JSON.stringify(name)} added in both local and upstream.`);
      this.fail(`subpackage ${JSON.stringify(rel)} added in both upstream and local`);
    } else if (!originExists && !localExists && updatedExists) {
      this.opts.log?.(`Adding package ${JSON.stringify(name)} from upstream.`);
      this.copyPackage(updated, r, localDir, !isRoot);
    } else if (originExists && !localExists && updatedExists) {
      this.opts.log?.(`Ignoring package ${JSON.stringify(name)} in upstream since it is deleted from local.`);
    } else if (originExists && localExists && !updatedExists) {
      if (pkgDiff(origin, r, this.tree, localDir).size === 0) {
        this.opts.log?.(
          `Deleting package ${JSON.stringify(name)} from local since it is removed in upstream.`,
        );
        removeAll(this.tree, localDir);
      } else {
        this.opts.log?.(
          `Package ${JSON.stringify(name)} deleted from upstream, but keeping local since it has changes.`,
        );
      }
    } else if (originExists || localExists || updatedExists) {
      if (originExists && localExists && updatedExists) this.mergeRemote(p, r, updated, origin, isRoot);
    }
  }

  /** kpt's `update.mergePackage`: normalize the three versions, then apply the strategy. */
  mergeRemote(p: string, r: string, updatedAll: FileTree, originAll: FileTree, isRoot: boolean): void {
    const localDir = joinRel(p, r);
    this.tree = addMergeComments(this.tree, localDir);
    const updated = addMergeComments(subtree(updatedAll, r));
    const origin = addMergeComments(subtree(originAll, r));
    const unfetched = (t: FileTree): boolean => {
      const kf = this.readKf(t, "");
      if (!kf) {
        if (isRoot) return false;
        this.fail(`no Kptfile found in ${JSON.stringify(localDir)}`);
      }
      return kf.kptfile.upstream !== undefined && kf.kptfile.upstreamLock === undefined;
    };
    const updatedUnfetched = unfetched(updated);
    const originUnfetched = unfetched(origin);
    if (updatedUnfetched) {
      this.writeKf(
        localDir,
        mergeKptfile(
          this.readKf(this.tree, localDir),
          this.readKf(updated, ""),
          this.readKf(origin, ""),
          true,
        ),
      );
      return;
    }
    if (originUnfetched) this.fail("no origin available for package");
    const strategy = this.readKf(this.tree, localDir)?.kptfile.upstream?.updateStrategy ?? "";
    const requested = this.opts.strategy ?? "resource-merge";
    if (!Object.hasOwn(STRATEGIES, strategy)) this.fail(`unrecognized update strategy ${requested}`);
    this.opts.log?.(
      `Updating package ${JSON.stringify(path.basename(localDir || this.opts.name))} with strategy ${JSON.stringify(strategy)}.`,
    );
    STRATEGIES[strategy](this, { localDir, updated, origin, isRoot });
  }
}

/**
 * Updates a package to a new upstream revision, as `kpt pkg update PKG@REF --strategy S` does.
 * Throws {@link UpdateError} with the partially updated files, as kpt leaves them: on refusals
 * (fast-forward with local changes, subpackage added on both sides, unknown strategy), merges that
 * cannot be done (`cause`: `MergeError`) and unreadable files (`cause`: `KptfileError`,
 * `YamlSyntaxError`).
 */
export async function updatePackage(options: UpdateOptions): Promise<UpdateResult> {
  const updater = new Updater(options);
  try {
    return await updater.run();
  } catch (err) {
    if (err instanceof UpdateError) throw err;
    // Like kpt, what was written before the failure stays written (the new ref first of all).
    const failure = new UpdateError(err instanceof Error ? err.message : String(err), updater.tree);
    failure.cause = err;
    throw failure;
  }
}
