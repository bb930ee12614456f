/**
 * porchctl's verbs that move package content, on GitHub through the one port:
 *
 * - `clone UPSTREAM PKG --repo O/R --workspace WS [--strategy S]`: a Draft `drafts/PKG/WS` (from the default
 *   branch) holding the upstream package as `kpt pkg get` fetches it — Kptfile `upstream` / `upstreamLock`,
 *   kpt's merge comments, and the package context Porch's clone generates (`data.name`, `data.package-path`).
 *   UPSTREAM is a Published revision NAME in any repository the token reaches, or a git URL
 *   `<host>/<owner>/<repo>.git/<dir>@<ref>` on the same GitHub (porchctl's `--directory` / `--ref` too);
 * - `pull NAME [DIR]`: the revision's files into DIR (which must not exist or be empty), or without DIR a
 *   ResourceList of its resources on stdout (paths in `config.kubernetes.io/path`);
 * - `push NAME DIR`: DIR becomes the Draft's package (one compare-and-swap commit on its branch);
 * - `upgrade NAME --revision N --workspace WS [--strategy S]`: a Draft of the downstream package NAME upgraded
 *   to revision N of its upstream (default: the newest), kpt's update; the local edits it overrides are
 *   printed and reported as a `porchlight/upgrade` check run on its commit.
 */

import { mkdir, readdir } from "node:fs/promises";
import path from "node:path/posix";
import { Document, isMap, parseAllDocuments } from "yaml";
import type { RepoRef } from "../github/port.js";
import { writeDraft } from "../lifecycle/app-draft.js";
import { formatDraftBranch } from "../lifecycle/revision-naming.js";
import { computeUpgrade, downstreamStatus } from "../lifecycle/upgrade-plan.js";
import { readsWithOwnToken } from "../lifecycle/upstream-consent.js";
import { GitHubUpstreamFetcher, readPackageFiles } from "../lifecycle/upstream-port.js";
import { parseUpstreamUrl } from "../lifecycle/upstream-source.js";
import { parsePackageRef } from "../pkg/args.js";
import { readTree, writeTreeChanges } from "../pkg/disk.js";
import { type FileTree, isKrmFile } from "../pkg/files.js";
import { getPackage } from "../pkg/get.js";
import type { UpstreamSpec } from "../pkg/update.js";
import {
  describeOutcome,
  formatFieldPath,
  outcomeAnnotations,
  overrideAnnotations,
  UPGRADE_CHECK_NAME,
  type UpgradeState,
  upgradeCheckOutput,
  upgradeNeedsReview,
} from "../report/upgrade.js";
import {
  branchOf,
  findRevision,
  str,
  tagOf,
  targetRepo,
  upstreamHostOf,
  type VerbCtx,
  VerbError,
  VerbUsage,
  webBaseOf,
} from "./rpkg-context.js";

const STRATEGIES = ["resource-merge", "fast-forward", "force-delete-replace", "copy-merge"];

function strategyOf(ctx: VerbCtx): string | undefined {
  const strategy = str(ctx, "strategy");
  if (strategy !== undefined && !STRATEGIES.includes(strategy))
    throw new VerbUsage(`--strategy ${JSON.stringify(strategy)} is not one of ${STRATEGIES.join(", ")}`);
  return strategy;
}

/**
 * Refuses a `.` or `..` segment in the directory of a clone URL (`<repo>.git/<dir>@<ref>`) or in
 * `--directory`: the package is named as it is in its repository, never normalised to another one.
 */
function refuseDotSegments(arg: string, directory: string | undefined): void {
  const m = /\.git\/([^@]*)/.exec(arg);
  for (const [what, dir] of [
    [`the directory of ${arg}`, m?.[1]],
    ["--directory", directory],
  ] as const) {
    if (dir?.split("/").some((segment) => segment === "." || segment === ".."))
      throw new VerbError(
        `${what} has a "." or ".." segment (${JSON.stringify(dir)}): name the package's directory as it is in the upstream repository, e.g. <repo>.git/base@v1`,
      );
  }
}

/** Where UPSTREAM is: a git URL on this GitHub, or a Published revision NAME. */
async function upstreamOf(ctx: VerbCtx, arg: string): Promise<UpstreamSpec> {
  if (arg.includes("://") || /\.git($|\/|@)/.test(arg)) {
    refuseDotSegments(arg, str(ctx, "directory"));
    const parsed = parsePackageRef(arg);
    const host = upstreamHostOf(ctx.env);
    const up = parseUpstreamUrl(parsed.repo, host);
    if (!up) throw new VerbError(`upstream ${parsed.repo} is not a repository on ${webBaseOf(ctx.env)}`);
    const directory = parsed.directory === "/" ? (str(ctx, "directory") ?? "/") : parsed.directory;
    const ref =
      parsed.ref ??
      str(ctx, "ref") ??
      (await ctx.port.readRepository({ repo: { owner: up.owner, repo: up.name } })).defaultBranch;
    return { repo: parsed.repo, directory: directory.startsWith("/") ? directory : `/${directory}`, ref };
  }
  const from = await findRevision(ctx, arg, { anyRepository: true });
  if (from.lifecycle !== "Published")
    throw new VerbError(`${from.name} is ${from.lifecycle}: clone a Published revision`);
  return {
    repo: `${webBaseOf(ctx.env)}/${from.repo.owner}/${from.repo.repo}.git`,
    directory: `/${from.packagePath}`,
    ref: from.revision > 0 ? tagOf(from) : from.defaultBranch,
  };
}

async function clone(ctx: VerbCtx): Promise<void> {
  const [upstreamArg, pkg] = ctx.names;
  const workspace = str(ctx, "workspace");
  if (!upstreamArg || !pkg || !workspace)
    throw new VerbUsage("clone needs UPSTREAM, PACKAGE_NAME and --workspace");
  const repo = targetRepo(ctx, "clone");
  const strategy = strategyOf(ctx);
  const upstream = await upstreamOf(ctx, upstreamArg);
  const repository = await ctx.port.readRepository({ repo });
  const base = await ctx.port.readBranchHead({ repo, branch: repository.defaultBranch });
  if (!base) throw new VerbError(`the default branch ${repository.defaultBranch} does not exist`);
  if (await ctx.port.readFile({ repo, path: `${pkg}/Kptfile`, ref: base }))
    throw new VerbError(`${pkg} already exists in ${repo.owner}/${repo.repo}: copy or upgrade it instead`);
  const branch = formatDraftBranch({ packagePath: pkg, workspace });
  if (await ctx.port.readBranchHead({ repo, branch })) throw new VerbError(`branch ${branch} already exists`);
  const files = await getPackage({
    upstream,
    name: path.basename(pkg),
    ...(strategy ? { strategy } : {}),
    fetcher: new GitHubUpstreamFetcher({ port: ctx.port, host: upstreamHostOf(ctx.env) }),
    forDeployment: { packagePath: pkg },
  });
  const write = await writeDraft({
    port: ctx.port,
    repo,
    branch,
    baseSha: base,
    dir: pkg,
    files,
    message: `Intermediate commit: clone ${pkg} from ${upstream.repo}${upstream.directory}@${upstream.ref}`,
  });
  if (write.kind === "superseded") throw new VerbError(`${branch} moved while it was written; run it again`);
  ctx.out(`${repository.name}.${pkg.replaceAll("/", ".")}.${workspace} created (branch ${branch})\n`);
}

/** The resources of a package as one ResourceList, paths and indexes annotated as kpt annotates them. */
export function resourceListText(files: FileTree): string {
  const items: unknown[] = [];
  for (const file of [...files.keys()].sort()) {
    if (!isKrmFile(file)) continue;
    const docs = parseAllDocuments(files.get(file)!.toString("utf8"));
    for (const [index, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
      if (!isMap(doc.contents)) continue;
      for (const key of ["config.kubernetes.io", "internal.config.kubernetes.io"]) {
        doc.setIn(["metadata", "annotations", `${key}/path`], file);
        doc.setIn(["metadata", "annotations", `${key}/index`], String(index));
      }
      items.push(doc.contents);
    }
  }
  return new Document({ apiVersion: "config.kubernetes.io/v1", kind: "ResourceList", items }).toString();
}

async function pull(ctx: VerbCtx): Promise<void> {
  const [name, dir] = ctx.names;
  if (!name || ctx.names.length > 2) throw new VerbUsage("pull needs PACKAGE_REVISION [DIR]");
  const r = await findRevision(ctx, name);
  const { files } = await readPackageFiles({ port: ctx.port, repo: r.repo, sha: r.sha, dir: r.packagePath });
  if (dir === undefined) return ctx.out(resourceListText(files));
  const present = await readdir(dir).catch(() => undefined);
  if (present && present.length > 0) throw new VerbError(`${dir} exists and is not empty`);
  await mkdir(dir, { recursive: true });
  await writeTreeChanges(dir, new Map(), files);
  ctx.out(`${r.name} pulled into ${dir} (${files.size} files at ${r.sha.slice(0, 7)})\n`);
}

async function push(ctx: VerbCtx): Promise<void> {
  const [name, dir] = ctx.names;
  if (!name || !dir || ctx.names.length > 2) throw new VerbUsage("push needs PACKAGE_REVISION and DIR");
  const r = await findRevision(ctx, name);
  if (r.lifecycle !== "Draft")
    throw new VerbError(
      `${r.name} is ${r.lifecycle}: only a Draft can be pushed to (reject a proposal first)`,
    );
  const files = await readTree(dir).catch((error: Error) => {
    throw new VerbError(`${dir}: ${error.message}`);
  });
  if (!files.has("Kptfile")) throw new VerbError(`${dir} has no Kptfile: it is not a package`);
  const write = await writeDraft({
    port: ctx.port,
    repo: r.repo,
    branch: branchOf(r),
    baseSha: r.sha,
    dir: r.packagePath,
    files,
    message: `Intermediate commit: push ${r.packagePath}`,
  });
  if (write.kind === "superseded")
    throw new VerbError(`${branchOf(r)} moved since ${r.sha.slice(0, 7)}: pull it again`);
  ctx.out(
    write.kind === "unchanged" ? `${r.name} unchanged\n` : `${r.name} pushed (${write.sha.slice(0, 7)})\n`,
  );
}

/** Prints the upgrade's local edits that upstream overrode and its resource-level outcomes, one a line. */
function describeOverrides(ctx: VerbCtx, state: Omit<UpgradeState, "commit">): void {
  for (const o of state.outcomes ?? []) ctx.out(`  ${describeOutcome(o).replace(/`|\*\*/g, "")}\n`);
  if (state.overrides.length === 0) {
    ctx.out("every local edit is kept\n");
    return;
  }
  ctx.out(`${state.overrides.length} local edit(s) overridden by upstream:\n`);
  for (const o of state.overrides)
    ctx.out(`  ${o.file}: ${o.resource.kind} ${o.resource.name} ${formatFieldPath(o.path)}\n`);
}

async function upgrade(ctx: VerbCtx): Promise<void> {
  const [name] = ctx.names;
  const workspace = str(ctx, "workspace");
  if (!name || !workspace) throw new VerbUsage("upgrade needs PACKAGE_REVISION and --workspace");
  const strategy = strategyOf(ctx);
  const wanted = str(ctx, "revision");
  if (wanted !== undefined && !/^[1-9]\d*$/.test(wanted))
    throw new VerbUsage(`--revision ${JSON.stringify(wanted)} is not a revision number`);
  const r = await findRevision(ctx, name);
  if (r.lifecycle !== "Published")
    throw new VerbError(`${r.name} is ${r.lifecycle}: upgrade a Published revision`);
  const host = upstreamHostOf(ctx.env);
  const status = await downstreamStatus({
    port: ctx.port,
    host,
    repo: r.repo,
    pkg: r.packagePath,
    sha: r.sha,
    access: readsWithOwnToken,
  });
  if (!status) throw new VerbError(`${r.name} has no upstream on ${webBaseOf(ctx.env)} in its Kptfile`);
  const to = wanted === undefined ? status.latest : Number(wanted);
  if (to === undefined) throw new VerbError(`${status.upstreamPackage} has no published revision upstream`);
  const computed = await computeUpgrade({
    port: ctx.port,
    host,
    pkg: r.packagePath,
    status: strategy ? { ...status, strategy } : status,
    to,
  }).catch((error: Error) => {
    throw new VerbError(`the upgrade to ${status.upstreamPackage}/v${to} cannot be merged: ${error.message}`);
  });
  const branch = formatDraftBranch({ packagePath: r.packagePath, workspace });
  if (await ctx.port.readBranchHead({ repo: r.repo, branch }))
    throw new VerbError(`branch ${branch} already exists`);
  const base = await ctx.port.readBranchHead({ repo: r.repo, branch: r.defaultBranch });
  const write = await writeDraft({
    port: ctx.port,
    repo: r.repo,
    branch,
    baseSha: base ?? r.sha,
    dir: r.packagePath,
    files: computed.files,
    executables: status.executables,
    message: `Upgrade ${r.packagePath} to ${status.upstreamPackage}/v${to} (kpt pkg update, ${computed.strategy})`,
  });
  if (write.kind === "superseded") throw new VerbError(`${branch} moved while it was written; run it again`);
  ctx.out(`${r.repository}.${r.packagePath.replaceAll("/", ".")}.${workspace} created (branch ${branch}): `);
  ctx.out(`${status.upstreamPackage} v${status.current ?? "?"} -> v${to}, ${computed.strategy}; `);
  describeOverrides(ctx, computed.state);
  await reportUpgrade(ctx, r.repo, { ...computed.state, commit: write.sha });
}

/** The `porchlight/upgrade` run on the upgrade's commit (a user token may not create check runs: a warning). */
async function reportUpgrade(ctx: VerbCtx, repo: RepoRef, state: UpgradeState): Promise<void> {
  try {
    const { files } = await readPackageFiles({ port: ctx.port, repo, sha: state.commit, dir: state.package });
    const text = (file: string) =>
      files.get(state.package ? file.slice(state.package.length + 1) : file)?.toString("utf8");
    const annotations = [
      ...overrideAnnotations({ overrides: state.overrides, packagePath: state.package, text }),
      ...outcomeAnnotations({ outcomes: state.outcomes ?? [], packagePath: state.package, text }),
    ];
    await ctx.port.createCheckRun({
      repo,
      name: UPGRADE_CHECK_NAME,
      headSha: state.commit,
      status: "completed",
      conclusion: upgradeNeedsReview(state) ? "neutral" : "success",
      output: upgradeCheckOutput(state, annotations),
      externalId: `upgrade ${state.package} to=v${state.to}`,
    });
  } catch (error) {
    ctx.err(`warning: the ${UPGRADE_CHECK_NAME} check run was not created: ${(error as Error).message}\n`);
  }
}

const CONTENT_VERBS = { clone, pull, push, upgrade } as const;

/** Runs clone, pull, push or upgrade; throws VerbUsage / VerbError. */
export async function runContentVerb(verb: string, ctx: VerbCtx): Promise<void> {
  const run = CONTENT_VERBS[verb as keyof typeof CONTENT_VERBS];
  if (!run) throw new VerbUsage(`unknown command ${JSON.stringify(verb)} for "porchlight rpkg"`);
  await run(ctx);
}
