/**
 * Reconciles the PackageVariants of one repository as Porch's controller does, with drafts and pull
 * requests instead of PackageRevisions. Level-triggered, from the default branch's head:
 * 1. read the variants (PackageVariant, and PackageVariantSet expanded to its targets in this
 *    repository) from the configured directory, and the injectable resources;
 * 2. for each valid variant, the downstream package it should hold:
 *    - no downstream yet → a clone of the upstream revision (kpt pkg get) with the variant's mutations;
 *    - the downstream is on another upstream revision → an upgrade (kpt pkg update) + mutations;
 *    - the mutations change the downstream → an edit;
 *    - a downstream the variant does not own is adopted only with `adoptionPolicy: adoptExisting`;
 *    and writes it to the draft `drafts/<package>/variant-<name>` with its pull request (a draft a
 *    person pushed to is left alone; a pull request closed unmerged is not reopened for the same content);
 * 3. drafts of variants that are gone: `deletionPolicy: delete` closes their pull request and deletes
 *    their branch (published tags stay), `orphan` leaves them;
 * 4. reports every variant on the `porchlight/package-variants` check run of the default branch's head.
 */

import path from "node:path/posix";
import { parseAllDocuments } from "yaml";
import type { RepoRef, TreeEntry } from "../../github/port.js";
import { type FileTree, isYamlFile } from "../../pkg/files.js";
import { getPackage } from "../../pkg/get.js";
import { parseKptfile } from "../../pkg/kptfile.js";
import type { ResourceOverride } from "../../pkg/merge3/package-merge.js";
import {
  PACKAGE_VARIANTS_CHECK_NAME,
  type VariantRow,
  variantDraftBody,
  variantDraftTitle,
  variantsCheckOutput,
} from "../../report/package-variants.js";
import { UPGRADE_CHECK_NAME } from "../../report/upgrade.js";
import { appCommitOf, rejectedAt, sameFiles, writeDraft } from "../app-draft.js";
import { ensureCheckRun } from "../ensure-check-run.js";
import { mainThreadLimitProblem } from "../main-thread-limits.js";
import { formatDraftBranch, latestRevision, parseDraftBranch } from "../revision-naming.js";
import { computeUpgrade, downstreamStatus, type UpstreamDeps } from "../upgrade-plan.js";
import { GitHubUpstreamFetcher, readPackageFiles } from "../upstream-port.js";
import { OWNER_ANNOTATION } from "../upstream-source.js";
import { applyVariant, type Injectable } from "./mutations.js";
import {
  PACKAGE_VARIANT_API_VERSION,
  type PackageVariant,
  parsePackageVariant,
  toValidVariant,
  type ValidVariant,
} from "./package-variant.js";
import {
  expandVariantSet,
  PACKAGE_VARIANT_SET_API_VERSION,
  parsePackageVariantSet,
} from "./package-variant-set.js";

/** The workspace prefix of a variant's draft (`drafts/<package>/variant-<name>`). */
export const VARIANT_WORKSPACE_PREFIX = "variant-";

/** The external id of the app's variant commits: the variant and its deletion policy. */
function variantExternalId(pv: ValidVariant, action: string): string {
  return `variant ${pv.name} ${action} deletion=${pv.deletionPolicy}`;
}

function dirOf(setting: string): string {
  return setting.replace(/^\/+|\/+$/g, "");
}

async function readYamlDir(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  sha: string;
  entries: TreeEntry[];
  dir: string;
}): Promise<Array<{ file: string; data: unknown; error?: string }>> {
  const files = options.entries.filter(
    (e) => e.type === "blob" && e.path.startsWith(`${options.dir}/`) && isYamlFile(e.path),
  );
  if (files.length === 0) return [];
  // A file over the limit is not even read (its size is in the tree).
  const blobs = await options.deps.port.readBlobs({
    repo: options.repo,
    blobs: files
      .filter((e) => !mainThreadLimitProblem(e.path, e.size))
      .map((e) => ({ sha: e.sha, size: e.size })),
  });
  const out: Array<{ file: string; data: unknown; error?: string }> = [];
  for (const e of files.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const bytes = Buffer.from(blobs.get(e.sha) ?? []);
    const tooLarge = mainThreadLimitProblem(e.path, Math.max(e.size ?? 0, bytes.length));
    if (tooLarge) {
      out.push({ file: e.path, data: undefined, error: tooLarge });
      continue;
    }
    const docs = parseAllDocuments(bytes.toString("utf8"));
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc.errors.length > 0)
        out.push({ file: e.path, data: undefined, error: `${e.path}: ${doc.errors[0].message}` });
      else if (doc.contents) out.push({ file: e.path, data: doc.toJS() });
    }
  }
  return out;
}

/**
 * The package (repository-relative root, `""` = the repository's root) that holds directory `dir`:
 * the nearest of `dir` and its parents with a Kptfile; undefined when none does.
 */
function enclosingPackage(entries: readonly TreeEntry[], dir: string): string | undefined {
  const kptfiles = new Set(entries.filter((e) => e.type === "blob").map((e) => e.path));
  for (let d = dir; ; d = d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "") {
    if (kptfiles.has(d === "" ? "Kptfile" : `${d}/Kptfile`)) return d;
    if (d === "") return undefined;
  }
}

/**
 * Problems of the configured variants and injectors directories: one inside a package would be
 * read as that package's content (rendered, its resources changed by the pipeline).
 */
function directoryProblems(entries: readonly TreeEntry[], settings: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [setting, dir] of Object.entries(settings)) {
    const owner = enclosingPackage(entries, dir);
    if (owner === undefined) continue;
    out.push(
      `.github/porchlight.yml packageVariants.${setting} "${dir}/" lies inside package "${owner || "."}": ` +
        "its files would be rendered as that package's content; name a directory outside every package",
    );
  }
  return out;
}

/** Reconciles the repository's variants; returns a line for the log. */
export async function reconcileVariants(
  input: { repo: RepoRef; defaultBranch: string; defaultSha: string },
  deps: UpstreamDeps,
): Promise<string> {
  const { repo, defaultSha } = input;
  const { port } = deps;
  const ownRepo = `${repo.owner}/${repo.repo}`;
  const tree = await port.readTree({ repo, sha: defaultSha });
  const variantsDir = dirOf(deps.config.packageVariants.directory);
  const rows: VariantRow[] = [];
  const problems: string[] = directoryProblems(tree.entries, {
    directory: variantsDir,
    injectors: dirOf(deps.config.packageVariants.injectors),
  });
  const notes: string[] = [];

  // 1. Variants and injectables.
  const variants: PackageVariant[] = [];
  for (const item of await readYamlDir({
    deps,
    repo,
    sha: defaultSha,
    entries: tree.entries,
    dir: variantsDir,
  })) {
    if (item.error) {
      problems.push(item.error);
      continue;
    }
    try {
      const pv = parsePackageVariant(item.file, item.data);
      if (pv) variants.push(pv);
      const set = parsePackageVariantSet(item.file, item.data);
      if (set) {
        const expanded = expandVariantSet(set, ownRepo);
        variants.push(...expanded.variants);
        problems.push(...expanded.errors.map((e) => `${item.file}: ${e}`));
        if (expanded.elsewhere.length > 0) {
          notes.push(
            `${item.file}: PackageVariantSet ${set.name}: the targets in ${expanded.elsewhere.join(", ")} are reconciled by a copy of this set committed there (a variant never writes to another repository)`,
          );
        }
      }
      if (!pv && !set) problems.push(notAVariant(item.file, item.data));
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  const injectables: Injectable[] = [];
  for (const item of await readYamlDir({
    deps,
    repo,
    sha: defaultSha,
    entries: tree.entries,
    dir: dirOf(deps.config.packageVariants.injectors),
  })) {
    const obj = item.data as
      | { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } }
      | undefined;
    if (
      obj &&
      typeof obj.apiVersion === "string" &&
      typeof obj.kind === "string" &&
      typeof obj.metadata?.name === "string"
    ) {
      injectables.push({
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: obj.metadata.name,
        data: obj as Record<string, unknown>,
      });
    }
  }

  // 2. Each variant's downstream.
  const names = new Set<string>();
  const prefix = deps.config.draftBranchPrefix;
  const pulls = await port.listPullRequests({ repo, state: "open", base: input.defaultBranch });
  for (const raw of variants) {
    let pv: ValidVariant;
    try {
      pv = toValidVariant(raw, ownRepo);
      if (names.has(pv.name)) throw new Error(`duplicate PackageVariant name ${JSON.stringify(pv.name)}`);
    } catch (err) {
      rows.push({
        name: raw.name,
        file: raw.file,
        downstream: raw.spec.downstream?.package ?? "",
        state: "invalid",
        message: String((err as Error).message),
      });
      continue;
    }
    names.add(pv.name);
    const row: VariantRow = {
      name: pv.name,
      file: pv.file,
      downstream: pv.downstream.package,
      state: "current",
    };
    rows.push(row);
    try {
      const [uOwner, uName] = pv.upstream.repo.split("/");
      const access = await deps.access({ owner: uOwner, repo: uName });
      if (!access.allowed) throw new Error(access.reason);
      const revision =
        pv.upstream.revision ??
        latestRevision(
          (
            await port.listTags({ repo: { owner: uOwner, repo: uName }, prefix: `${pv.upstream.package}/v` })
          ).map((t) => t.name),
          pv.upstream.package,
        );
      if (revision === undefined)
        throw new Error(`${pv.upstream.repo} has no published revision of ${pv.upstream.package}`);
      const resolved = { ...pv, upstream: { ...pv.upstream, revision } };
      await reconcileOne({
        pv: resolved,
        repo,
        defaultSha,
        input,
        deps,
        tree: tree.entries,
        injectables,
        pulls,
        row,
        prefix,
      });
    } catch (err) {
      row.state = "failed";
      row.message = err instanceof Error ? err.message : String(err);
    }
  }

  // 3. Drafts of variants that are gone.
  for (const branch of await port.listBranches({ repo, prefix })) {
    const draft = parseDraftBranch(branch.name, { draftPrefix: prefix });
    if (!draft?.workspace.startsWith(VARIANT_WORKSPACE_PREFIX)) continue;
    const name = draft.workspace.slice(VARIANT_WORKSPACE_PREFIX.length);
    if (names.has(name) || variants.some((v) => v.name === name)) continue;
    const head = await port.readSnapshot({ repo, configPath: ".github/porchlight.yml", branch: branch.name });
    if (!head.branch) continue;
    const ours = await appCommitOf({
      port,
      repo,
      head: head.branch,
      checkName: UPGRADE_CHECK_NAME,
      appId: deps.appId,
    });
    const policy = /deletion=(\w+)/.exec(ours?.externalId ?? "")?.[1];
    const pull = pulls.find((p) => p.headRef === branch.name && p.sameRepository);
    if (!ours || policy !== "delete") {
      rows.push({
        name,
        file: "",
        downstream: draft.packagePath,
        state: "orphaned",
        message: ours ? "deletionPolicy orphan: draft kept" : "someone pushed to the draft: kept",
      });
      continue;
    }
    if (pull) await port.updatePullRequest({ repo, number: pull.number, state: "closed" });
    await port.deleteBranch({ repo, branch: branch.name });
    rows.push({ name, file: "", downstream: draft.packagePath, state: "deleted" });
  }

  // 4. The report on the default branch's head.
  const output = variantsCheckOutput(rows, problems, notes);
  const failed = problems.length > 0 || rows.some((r) => r.state === "invalid" || r.state === "failed");
  await ensureCheckRun(port, {
    repo,
    name: PACKAGE_VARIANTS_CHECK_NAME,
    sha: defaultSha,
    externalId: `variants ${hashText(output.summary)}`,
    conclusion: failed ? "failure" : "success",
    output,
  });
  return `${rows.length} variant(s)${problems.length ? `, ${problems.length} problem(s)` : ""}`;
}

/** The problem of a resource in the variants directory that porchlight does not reconcile. */
function notAVariant(file: string, data: unknown): string {
  const obj = (data ?? {}) as { apiVersion?: unknown; kind?: unknown };
  const what =
    typeof obj.kind === "string"
      ? `${String(obj.apiVersion ?? "")} ${obj.kind}`.trim()
      : "a document without kind";
  return `${file}: ${what} is not reconciled: this directory holds ${PACKAGE_VARIANT_API_VERSION} PackageVariant and ${PACKAGE_VARIANT_SET_API_VERSION} PackageVariantSet resources`;
}

function hashText(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16);
}

async function reconcileOne(options: {
  pv: ValidVariant & { upstream: { revision: number } };
  repo: RepoRef;
  defaultSha: string;
  input: { defaultBranch: string };
  deps: UpstreamDeps;
  tree: TreeEntry[];
  injectables: Injectable[];
  pulls: Awaited<ReturnType<UpstreamDeps["port"]["listPullRequests"]>>;
  row: VariantRow;
  prefix: string;
}): Promise<void> {
  const { pv, repo, deps, row } = options;
  const { port } = deps;
  const pkg = pv.downstream.package;
  const [uOwner, uName] = pv.upstream.repo.split("/");
  const upstreamUrl = `${deps.webBase}/${uOwner}/${uName}`;
  const hasDownstream = options.tree.some((e) => e.path === `${pkg}/Kptfile`);
  let base: Awaited<ReturnType<typeof readPackageFiles>> | undefined;
  let action: "clone" | "upgrade" | "edit";
  let files: FileTree;
  let overrides: ResourceOverride[] = [];
  if (!hasDownstream) {
    action = "clone";
    files = await getPackage({
      upstream: {
        repo: upstreamUrl,
        directory: `/${pv.upstream.package}`,
        ref: `${pv.upstream.package}/v${pv.upstream.revision}`,
      },
      name: path.basename(pkg),
      fetcher: new GitHubUpstreamFetcher({ port, host: deps.host, access: deps.access }),
      // Porch's clone into a deployment repository: data.name and data.package-path of the context.
      forDeployment: { packagePath: pkg },
    });
  } else {
    base = await readPackageFiles({
      port,
      repo,
      sha: options.defaultSha,
      dir: pkg,
      tree: { treeSha: "", entries: options.tree },
    });
    const kf = parseKptfile(`${pkg}/Kptfile`, base.files.get("Kptfile")!);
    const owner = kf.kptfile.metadata?.annotations?.[OWNER_ANNOTATION];
    if (owner !== pv.name && pv.adoptionPolicy !== "adoptExisting") {
      row.state = "failed";
      row.message = `${pkg} exists and is not owned by this variant (adoptionPolicy adoptNone)`;
      return;
    }
    const status = await downstreamStatus({
      port,
      host: deps.host,
      repo,
      pkg,
      sha: options.defaultSha,
      access: deps.access,
    });
    if (status && status.current !== pv.upstream.revision) {
      action = "upgrade";
      const upgrade = await computeUpgrade({
        port,
        host: deps.host,
        pkg,
        status,
        to: pv.upstream.revision,
        access: deps.access,
      });
      files = upgrade.files;
      overrides = upgrade.overrides;
    } else {
      action = "edit";
      files = base.files;
    }
  }
  const mutated = applyVariant({ files, variant: pv, injectables: options.injectables });
  row.injections = mutated.injections;
  if (base && sameFiles(base.files, mutated.files)) {
    row.state = "current";
    return;
  }
  const branch = formatDraftBranch(
    { packagePath: pkg, workspace: `${VARIANT_WORKSPACE_PREFIX}${pv.name}` },
    { draftPrefix: options.prefix },
  );
  const pull = options.pulls.find((p) => p.headRef === branch && p.sameRepository);
  const headSha = await port.readBranchHead({ repo, branch });
  if (headSha) {
    const snapshot = await port.readSnapshot({ repo, configPath: ".github/porchlight.yml", branch });
    const head = snapshot.branch ?? { sha: headSha, message: "" };
    const ours = await appCommitOf({ port, repo, head, checkName: UPGRADE_CHECK_NAME, appId: deps.appId });
    if (!ours) {
      row.state = "held";
      row.message = "someone pushed to the draft; porchlight leaves it";
      row.pull = pull?.number;
      return;
    }
    const written = (await readPackageFiles({ port, repo, sha: ours.sha, dir: pkg })).files;
    if (sameFiles(written, mutated.files)) {
      // The draft holds this variant: its head (the render of the app's commit) gets the report too.
      if (
        head.sha !== ours.sha &&
        (await port.listCheckRuns({ repo, sha: head.sha, name: UPGRADE_CHECK_NAME })).length === 0
      ) {
        await postVariantCheck({ deps, repo, sha: head.sha, pv, action, overrides });
      }
      const rejected = pull ? undefined : await rejectedAt({ port, repo, branch, headSha: head.sha });
      if (rejected !== undefined) {
        row.state = "rejected";
        row.message = `pull request #${rejected} was closed without merging; a change of the variant or of its upstream proposes again`;
        row.pull = rejected;
        return;
      }
      row.state = action;
      row.pull = pull?.number ?? (await openPull({ options, branch, action }));
      return;
    }
  }
  const write = await writeDraft({
    port,
    repo,
    branch,
    baseSha: options.defaultSha,
    dir: pkg,
    files: mutated.files,
    message: `PackageVariant ${pv.name}: ${action} ${pkg} (${pv.upstream.repo} ${pv.upstream.package}/v${pv.upstream.revision})\n`,
  });
  if (write.kind === "superseded")
    throw new Error(`${branch} moved while it was written; the next run retries`);
  await postVariantCheck({ deps, repo, sha: write.sha, pv, action, overrides });
  row.state = action;
  if (pull) {
    await port.updatePullRequest({
      repo,
      number: pull.number,
      title: variantDraftTitle(pv, action),
      body: variantDraftBody({ pv, action, overrides }),
    });
    row.pull = pull.number;
  } else row.pull = await openPull({ options, branch, action, overrides });
}

/** The app's report on a variant draft commit (also what marks the commit as the app's). */
async function postVariantCheck(options: {
  deps: UpstreamDeps;
  repo: RepoRef;
  sha: string;
  pv: ValidVariant;
  action: string;
  overrides: ResourceOverride[];
}): Promise<void> {
  const { pv, action, overrides } = options;
  await options.deps.port.createCheckRun({
    repo: options.repo,
    name: UPGRADE_CHECK_NAME,
    headSha: options.sha,
    status: "completed",
    conclusion: overrides.length > 0 ? "neutral" : "success",
    output: {
      title: `PackageVariant ${pv.name}: ${action}`,
      summary: variantDraftBody({ pv, action, overrides }),
    },
    externalId: variantExternalId(pv, action),
  });
}

async function openPull(args: {
  options: { pv: ValidVariant; repo: RepoRef; deps: UpstreamDeps; input: { defaultBranch: string } };
  branch: string;
  action: "clone" | "upgrade" | "edit";
  overrides?: ResourceOverride[];
}): Promise<number> {
  const { pv, repo, deps, input } = args.options;
  const created = await deps.port.createPullRequest({
    repo,
    head: args.branch,
    base: input.defaultBranch,
    title: variantDraftTitle(pv, args.action),
    body: variantDraftBody({ pv, action: args.action, overrides: args.overrides ?? [] }),
  });
  return created.number;
}
