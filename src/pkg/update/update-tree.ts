/**
 * The package tree an update works on (kpt's update `Command` state): the local files as the update
 * has made them so far, the overrides recorded, and the file operations the strategies share
 * (kpt's `CopyPackage`, `RemovePackageContent`). A failure carries the tree as it is then.
 */
import type { FileTree } from "../files.js";
import { joinRel, KPTFILE, ownFiles, subpackages, subtree } from "../files.js";
import { type KptfileData, marshalKptfile, parseKptfile } from "../kptfile.js";
import type { ResourceOutcome, ResourceOverride } from "../merge3/package-merge.js";
import type { MergeSchemas } from "../merge3/schema.js";

/** A failed update; `files` is the package as kpt leaves it on disk at that point. */
export class UpdateError extends Error {
  readonly files: FileTree;
  constructor(message: string, files: FileTree) {
    super(message);
    this.name = "UpdateError";
    this.files = files;
  }
}

/** One package's versions a strategy merges: the local directory, upstream's updated and original trees. */
export interface StrategyContext {
  localDir: string;
  updated: FileTree;
  origin: FileTree;
  isRoot: boolean;
}

/** The local tree being updated and the operations on it. */
export class UpdateTree {
  tree: FileTree;
  overrides: ResourceOverride[] = [];
  outcomes: ResourceOutcome[] = [];
  constructor(
    files: FileTree,
    /** The package's directory name (default Kptfiles, messages). */
    readonly name: string,
    readonly schemas: MergeSchemas,
  ) {
    this.tree = new Map(files);
  }

  /** @throws UpdateError with the tree as it is now. */
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

  /** The local subpackages (nested included) below `localDir` and in the given upstream trees. */
  localSubpackages(localDir: string, ...upstream: FileTree[]): Set<string> {
    const found = new Set<string>();
    for (const t of [subtree(this.tree, localDir), ...upstream]) {
      for (const d of subpackages(t, "local", true, this.hasUpstream)) found.add(d);
    }
    return found;
  }

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
