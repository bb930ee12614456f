/**
 * Reading what a valid variant's downstream package should hold (Porch's PackageVariant controller:
 * clone when there is no downstream, upgrade when it is on another upstream revision, else edit in
 * place), before the variant's mutations: the upstream revision it follows, the current downstream
 * files and the candidate files, or why the variant may not touch the downstream.
 */
import path from "node:path/posix";
import type { RepoRef, TreeEntry } from "../../../github/port.js";
import type { FileTree } from "../../../pkg/files.js";
import { getPackage } from "../../../pkg/get.js";
import { parseKptfile } from "../../../pkg/kptfile.js";
import type { ResourceOverride } from "../../../pkg/merge3/package-merge.js";
import { latestRevision } from "../../revision-naming.js";
import { computeUpgrade, downstreamStatus, type UpstreamDeps } from "../../upgrade-plan.js";
import { GitHubUpstreamFetcher, readPackageFiles } from "../../upstream-port.js";
import { OWNER_ANNOTATION } from "../../upstream-source.js";
import type { ValidVariant } from "../package-variant.js";

/** A valid variant with the upstream revision it follows resolved (its own, or the latest tag). */
export type ResolvedVariant = ValidVariant & { upstream: { revision: number } };

/** How the downstream changes: Porch's clone, upgrade, or edit. */
export type VariantAction = "clone" | "upgrade" | "edit";

/** What the downstream should hold before the mutations, or why the variant may not touch it. */
export type VariantTarget =
  | { kind: "refused"; message: string }
  | {
      kind: "target";
      action: VariantAction;
      /** The downstream's files on the default branch; absent for a clone. */
      base: FileTree | undefined;
      /** The candidate files: the clone, the upgrade's merge, or `base`. */
      files: FileTree;
      /** Resources the upgrade's merge took from the downstream over the upstream. */
      overrides: ResourceOverride[];
    };

/** What the variant readers read from: the repository, its default branch's head and tree. */
export interface VariantReadContext {
  deps: UpstreamDeps;
  repo: RepoRef;
  defaultSha: string;
  tree: TreeEntry[];
}

/**
 * The variant with its upstream revision resolved. Throws when the operator does not allow reading
 * the upstream repository or it has no published revision of the package.
 */
export async function resolveVariant(deps: UpstreamDeps, pv: ValidVariant): Promise<ResolvedVariant> {
  const [owner, repo] = pv.upstream.repo.split("/");
  const access = await deps.access({ owner, repo });
  if (!access.allowed) throw new Error(access.reason);
  const revision =
    pv.upstream.revision ??
    latestRevision(
      (await deps.port.listTags({ repo: { owner, repo }, prefix: `${pv.upstream.package}/v` })).map(
        (t) => t.name,
      ),
      pv.upstream.package,
    );
  if (revision === undefined)
    throw new Error(`${pv.upstream.repo} has no published revision of ${pv.upstream.package}`);
  return { ...pv, upstream: { ...pv.upstream, revision } };
}

/** kpt pkg get of the upstream revision into the downstream's path (Porch's clone). */
async function cloneTarget(ctx: VariantReadContext, pv: ResolvedVariant): Promise<VariantTarget> {
  const { deps } = ctx;
  const pkg = pv.downstream.package;
  const [owner, name] = pv.upstream.repo.split("/");
  const files = await getPackage({
    upstream: {
      repo: `${deps.webBase}/${owner}/${name}`,
      directory: `/${pv.upstream.package}`,
      ref: `${pv.upstream.package}/v${pv.upstream.revision}`,
    },
    name: path.basename(pkg),
    fetcher: new GitHubUpstreamFetcher({ port: deps.port, host: deps.host, access: deps.access }),
    // Porch's clone into a deployment repository: data.name and data.package-path of the context.
    forDeployment: { packagePath: pkg },
  });
  return { kind: "target", action: "clone", base: undefined, files, overrides: [] };
}

/** Reads what `pv`'s downstream should hold (see {@link VariantTarget}). */
export async function readVariantTarget(
  ctx: VariantReadContext,
  pv: ResolvedVariant,
): Promise<VariantTarget> {
  const { deps, repo } = ctx;
  const { port } = deps;
  const pkg = pv.downstream.package;
  if (!ctx.tree.some((e) => e.path === `${pkg}/Kptfile`)) return cloneTarget(ctx, pv);
  const base = (
    await readPackageFiles({
      port,
      repo,
      sha: ctx.defaultSha,
      dir: pkg,
      tree: { treeSha: "", entries: ctx.tree },
    })
  ).files;
  const kf = parseKptfile(`${pkg}/Kptfile`, base.get("Kptfile")!);
  const owner = kf.kptfile.metadata?.annotations?.[OWNER_ANNOTATION];
  if (owner !== pv.name && pv.adoptionPolicy !== "adoptExisting") {
    return {
      kind: "refused",
      message: `${pkg} exists and is not owned by this variant (adoptionPolicy adoptNone)`,
    };
  }
  const { host, access } = deps;
  const status = await downstreamStatus({ port, host, repo, pkg, sha: ctx.defaultSha, access });
  if (!status || status.current === pv.upstream.revision) {
    return { kind: "target", action: "edit", base, files: base, overrides: [] };
  }
  const upgrade = await computeUpgrade({ port, host, pkg, status, to: pv.upstream.revision, access });
  return { kind: "target", action: "upgrade", base, files: upgrade.files, overrides: upgrade.overrides };
}
