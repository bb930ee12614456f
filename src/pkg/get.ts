/**
 * `kpt pkg get` over files in memory: a new package whose Kptfile records where it came from
 * (`upstream`: repo, directory, ref and update strategy; `upstreamLock`: the ref as resolved and
 * its commit), holding the upstream package's files (subpackages included; subpackages that name
 * their own upstream and were never fetched are fetched from theirs), with kpt's merge comments
 * added to every resource.
 */
import { type FileTree, joinRel, KPTFILE, subpackages, subtree } from "./files.js";
import {
  defaultKptfile,
  type KptfileData,
  lockFor,
  marshalKptfile,
  mergeKptfile,
  parseKptfile,
} from "./kptfile.js";
import { addMergeComments } from "./normalize.js";
import { generatePackageContext } from "./package-context.js";
import type { UpstreamFetcher, UpstreamSpec } from "./update.js";

/** Input of {@link getPackage}. */
export interface GetOptions {
  upstream: UpstreamSpec;
  /** The new package's name (its directory name). */
  name: string;
  /** `upstream.updateStrategy`; kpt's default `resource-merge`. */
  strategy?: string;
  fetcher: UpstreamFetcher;
  /** Progress lines, as kpt prints them. */
  log?: (line: string) => void;
  /**
   * Customize the package for deployment (kpt's `--for-deployment`, Porch's clone into a deployment
   * repository): generate its package context (`data.name`, and `data.package-path` when given).
   */
  forDeployment?: { packagePath?: string };
}

/** Fetches a package as `kpt pkg get REPO/DIR@REF DEST` does; returns the new package's files. */
export async function getPackage(options: GetOptions): Promise<FileTree> {
  const tree: FileTree = new Map();
  const write = (dir: string, data: KptfileData) =>
    tree.set(joinRel(dir, KPTFILE), Buffer.from(marshalKptfile(data), "utf8"));
  const read = (dir: string) => parseKptfile(joinRel(dir, KPTFILE), tree.get(joinRel(dir, KPTFILE))!);
  const root = defaultKptfile(options.name);
  root.kptfile.upstream = {
    type: "git",
    git: { ...options.upstream },
    updateStrategy: options.strategy ?? "resource-merge",
  };
  write("", root);

  let count = 0;
  const stack = [""];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const kf = read(p);
    const git = kf.kptfile.upstream?.git;
    if (git && !kf.kptfile.upstreamLock) {
      count++;
      options.log?.(`Package ${JSON.stringify(p === "" ? options.name : p)}:`);
      options.log?.(`Fetching ${git.repo}@${git.ref}`);
      const spec = { repo: git.repo ?? "", directory: git.directory ?? "/", ref: git.ref ?? "" };
      const fetched = await options.fetcher.fetch(spec);
      options.log?.(`Adding package ${JSON.stringify(spec.directory.replace(/^\//, ""))}.`);
      for (const [file, content] of fetched.files) {
        if (file === KPTFILE) continue;
        tree.set(joinRel(p, file), content);
      }
      const upstreamKf = fetched.files.has(KPTFILE)
        ? parseKptfile(KPTFILE, fetched.files.get(KPTFILE)!)
        : undefined;
      const merged = mergeKptfile(read(p), upstreamKf, undefined, false);
      merged.kptfile.upstreamLock = lockFor({ ...spec, ref: fetched.ref, commit: fetched.commit });
      write(p, merged);
    }
    const hasUpstream = (content: Buffer, dir: string) =>
      parseKptfile(joinRel(dir, KPTFILE), content).kptfile.upstream !== undefined;
    for (const sub of subpackages(subtree(tree, p), "all", false, hasUpstream).sort())
      stack.push(joinRel(p, sub));
  }
  options.log?.(`\nFetched ${count} package(s).`);
  const fetched = addMergeComments(tree);
  if (!options.forDeployment) return fetched;
  options.log?.("\nCustomizing package for deployment.");
  const customized = generatePackageContext(fetched, options.forDeployment);
  options.log?.("\nCustomized package for deployment.");
  return customized;
}
