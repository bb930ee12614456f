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
import {
  dirExists,
  type FileTree,
  isKrmFile,
  isPackageDir,
  joinRel,
  KPTFILE,
  ownFiles,
  removeAll,
  rootFirst,
  subpackages,
  subtree,
} from "./files.js";
import {
  defaultKptfile,
  type KptfileData,
  lockFor,
  marshalKptfile,
  mergeKptfile,
  parseKptfile,
} from "./kptfile.js";
import {
  mergePackageResources,
  type ResourceOutcome,
  type ResourceOverride,
} from "./merge3/package-merge.js";
import type { MergeSchemas } from "./merge3/schema.js";
import { addMergeComments, pkgDiff } from "./normalize.js";

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

/** A failed update; `files` is the package as kpt leaves it on disk at that point. */
export class UpdateError extends Error {
  readonly files: FileTree;
  constructor(message: string, files: FileTree) {
    super(message);
    this.name = "UpdateError";
    this.files = files;
  }
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

const KNOWN_STRATEGIES = new Set(["resource-merge", "fast-forward", "force-delete-replace", "copy-merge"]);

class Updater {
  tree: FileTree;
  overrides: ResourceOverride[] = [];
  outcomes: ResourceOutcome[] = [];
  constructor(
    files: FileTree,
    private readonly opts: UpdateOptions,
  ) {
    this.tree = new Map(files);
  }

  fail(message: string): never {
    throw new UpdateError(message, this.tree);
  }

  readKf(tree: FileTree, dir: string): KptfileData | undefined {
    const file = joinRel(dir, KPTFILE);
    const content = tree.get(file);
    return content ? parseKptfile(file, content) : undefined;
  }

  writeKf(dir: string, data: KptfileData): void {
    this.tree.set(joinRel(dir, KPTFILE), Buffer.from(marshalKptfile(data), "utf8"));
  }

  hasUpstream = (content: Buffer, dir: string): boolean =>
    parseKptfile(joinRel(dir, KPTFILE), content).kptfile.upstream !== undefined;

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
    if (!KNOWN_STRATEGIES.has(strategy)) this.fail(`unrecognized update strategy ${requested}`);
    this.opts.log?.(
      `Updating package ${JSON.stringify(path.basename(localDir || this.opts.name))} with strategy ${JSON.stringify(strategy)}.`,
    );
    const ctx: StrategyContext = { localDir, updated, origin, isRoot };
    switch (strategy) {
      case "fast-forward":
        this.fastForward(ctx);
        break;
      case "force-delete-replace":
        this.replace(ctx);
        break;
      case "copy-merge":
        this.copyMerge(ctx);
        break;
      default:
        this.resourceMerge(ctx);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Strategies

  resourceMerge(ctx: StrategyContext): void {
    const { localDir, updated, origin, isRoot } = ctx;
    if (!isRoot) {
      const l = this.readKf(this.tree, localDir)?.kptfile.upstream?.git;
      const o = this.readKf(origin, "")?.kptfile.upstream?.git;
      if (JSON.stringify(l) !== JSON.stringify(o)) return;
    }
    const found = new Set<string>();
    for (const t of [subtree(this.tree, localDir), updated, origin]) {
      for (const d of subpackages(t, "local", true, this.hasUpstream)) found.add(d);
    }
    for (const rel of [".", ...[...found].sort(rootFirst)]) {
      const r = rel === "." ? "" : rel;
      this.resourceMergeOne(
        joinRel(localDir, r),
        subtree(updated, r),
        subtree(origin, r),
        r,
        rel === "." && isRoot,
      );
    }
  }

  resourceMergeOne(
    localDir: string,
    updated: FileTree,
    origin: FileTree,
    rel: string,
    isRoot: boolean,
  ): void {
    const localExists = dirExists(this.tree, localDir);
    const updatedExists = updated.size > 0 || rel === "";
    const originExists = origin.size > 0 || rel === "";
    if (!originExists && localExists && updatedExists) {
      this.fail(`subpackage ${JSON.stringify(rel)} added in both upstream and local`);
    }
    if (!originExists && !localExists && updatedExists) {
      this.copyPackage(updated, "", localDir, !isRoot);
      return;
    }
    if (originExists && localExists && !updatedExists) {
      if (pkgDiff(origin, "", this.tree, localDir).size === 0) removeAll(this.tree, localDir);
      return;
    }
    if (!(originExists && localExists && updatedExists)) return;
    // Kptfile, then resources, then other files.
    const local = subtree(this.tree, localDir);
    const kf = mergeKptfile(
      this.readKf(local, ""),
      this.readKf(updated, ""),
      this.readKf(origin, ""),
      !isRoot,
    );
    this.writeKf(localDir, kf);
    const before = subtree(this.tree, localDir);
    const overrides: ResourceOverride[] = [];
    const outcomes: ResourceOutcome[] = [];
    const merged = mergePackageResources({
      local: before,
      origin,
      updated,
      schemas: this.opts.schemas,
      overrides,
      outcomes,
    });
    for (const o of overrides) this.overrides.push({ ...o, file: joinRel(localDir, o.file) });
    for (const o of outcomes) this.outcomes.push({ ...o, file: joinRel(localDir, o.file) });
    this.replaceSubtree(localDir, before, merged);
    this.replaceNonKrmFiles(updated, origin, localDir);
  }

  /** kpt's `ReplaceNonKRMFiles`: other files follow upstream unless changed or added locally. */
  replaceNonKrmFiles(updated: FileTree, origin: FileTree, localDir: string): void {
    const nonKrm = (t: FileTree) => new Set(ownFiles(t).filter((f) => !isKrmFile(f) && !f.includes(".git")));
    const local = subtree(this.tree, localDir);
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
      if (!updatedFiles.has(file)) this.tree.delete(joinRel(localDir, file));
    }
    for (const file of updatedFiles) {
      if (modified.has(file)) continue;
      this.tree.set(joinRel(localDir, file), updated.get(file)!);
    }
  }

  fastForward(ctx: StrategyContext): void {
    const { localDir, origin } = ctx;
    const found = new Set<string>();
    for (const t of [subtree(this.tree, localDir), origin]) {
      for (const d of subpackages(t, "local", true, this.hasUpstream)) found.add(d);
    }
    const diffs = new Set<string>();
    for (const rel of [".", ...[...found].sort(rootFirst)]) {
      const r = rel === "." ? "" : rel;
      const l = joinRel(localDir, r);
      const localExists = dirExists(this.tree, l);
      const originExists = r === "" ? true : dirExists(origin, r);
      if (!localExists || !originExists) {
        diffs.add("%s (Package)");
        diffs.add(rel);
        continue;
      }
      const d = pkgDiff(this.tree, l, origin, r);
      if (d.has(KPTFILE) && r === "" && !this.kptfileChanged(l, origin)) d.delete(KPTFILE);
      for (const f of d) diffs.add(f);
    }
    if (diffs.size > 0) {
      const list = [...diffs].sort();
      this.fail(
        `local package files have been modified: [${list.join(" ")}].\n  use a different update --strategy.`,
      );
    }
    this.replace(ctx);
    const kf = this.readKf(this.tree, localDir);
    if (kf) {
      kf.status = withoutRenderStatus(kf.status);
      this.writeKf(localDir, kf);
    }
  }

  /** kpt 1.0's `hasKfDiff`: the root Kptfile changed beyond upstream, upstreamLock and render status. */
  kptfileChanged(localDir: string, origin: FileTree): boolean {
    const local = this.readKf(this.tree, localDir)!;
    const strip = (d: KptfileData, name?: string) =>
      JSON.stringify({
        ...d.kptfile,
        metadata: { ...d.kptfile.metadata, ...(name === undefined ? {} : { name }) },
        upstream: undefined,
        upstreamLock: undefined,
        status: withoutRenderStatus(d.status),
      });
    const o = this.readKf(origin, "");
    if (!o) return strip(local) !== strip(defaultKptfile(path.basename(localDir || this.opts.name)));
    return strip(local) !== strip(o, local.kptfile.metadata?.name);
  }

  replace(ctx: StrategyContext): void {
    const { localDir, updated, isRoot } = ctx;
    const found = new Set<string>();
    for (const t of [subtree(this.tree, localDir), updated]) {
      for (const d of subpackages(t, "local", true, this.hasUpstream)) found.add(d);
    }
    for (const rel of [".", ...[...found].sort(rootFirst)]) {
      const r = rel === "." ? "" : rel;
      const rootPkg = rel === "." && isRoot;
      const l = joinRel(localDir, r);
      this.removePackageContent(l, !rootPkg);
      if (!dirExists(updated, r)) removeAll(this.tree, l);
      else this.copyPackage(updated, r, l, !rootPkg);
    }
  }

  copyMerge(ctx: StrategyContext): void {
    const { localDir, updated, origin, isRoot } = ctx;
    const kf = mergeKptfile(
      this.readKf(this.tree, localDir),
      this.readKf(updated, ""),
      this.readKf(origin, ""),
      true,
    );
    this.writeKf(localDir, kf);
    for (const [file, content] of updated) {
      if (file.split("/").includes(".git")) continue;
      const target = joinRel(localDir, file);
      if (file === KPTFILE && this.tree.has(target)) continue;
      if (file === KPTFILE && !isRoot) continue;
      this.tree.set(target, content);
    }
    for (const file of [...subtree(this.tree, localDir).keys()]) {
      if (file === KPTFILE) continue;
      if (!updated.has(file) && origin.has(file)) this.tree.delete(joinRel(localDir, file));
    }
  }

  // ------------------------------------------------------------------------------------------
  // Copying

  /** kpt's `CopyPackage` (matcher None): the package's own files; the root Kptfile only when asked. */
  copyPackage(src: FileTree, srcDir: string, dst: string, copyRootKptfile: boolean): void {
    const below = subtree(src, srcDir);
    for (const file of ownFiles(below)) {
      if (file === KPTFILE) {
        if (this.tree.has(joinRel(dst, KPTFILE))) continue;
        if (!copyRootKptfile) continue;
      }
      this.tree.set(joinRel(dst, file), below.get(file)!);
    }
  }

  /** kpt's `RemovePackageContent`: the package's own files (not subpackages), optionally its Kptfile. */
  removePackageContent(dir: string, removeRootKptfile: boolean): void {
    const below = subtree(this.tree, dir);
    for (const file of ownFiles(below)) {
      if (file === KPTFILE && !removeRootKptfile) continue;
      this.tree.delete(joinRel(dir, file));
    }
  }

  replaceSubtree(dir: string, before: FileTree, after: FileTree): void {
    for (const file of before.keys()) if (!after.has(file)) this.tree.delete(joinRel(dir, file));
    for (const [file, content] of after) this.tree.set(joinRel(dir, file), content);
  }
}

interface StrategyContext {
  localDir: string;
  updated: FileTree;
  origin: FileTree;
  isRoot: boolean;
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

/**
 * Updates a package to a new upstream revision, as `kpt pkg update PKG@REF --strategy S` does.
 * Throws {@link UpdateError} with the partially updated files, as kpt leaves them: on refusals
 * (fast-forward with local changes, subpackage added on both sides, unknown strategy), merges that
 * cannot be done (`cause`: `MergeError`) and unreadable files (`cause`: `KptfileError`,
 * `YamlSyntaxError`).
 */
export async function updatePackage(options: UpdateOptions): Promise<UpdateResult> {
  const updater = new Updater(options.files, options);
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
