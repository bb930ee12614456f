/**
 * porchctl's write verbs on GitHub, every call through the one port: a revision NAME is what
 * `porchlight rpkg get` shows, looked up in `--repo`.
 *
 * - `init PKG --workspace WS [--description D --keywords K,.. --site URL]`: branch `drafts/PKG/WS` from the
 *   default branch with `PKG/Kptfile`, `README.md` and `package-context.yaml`, as Porch's init;
 * - `copy NAME --workspace WS`: a new Draft from a Published revision (branch at its commit);
 * - `propose NAME`: a ready pull request from the draft branch (or marks its draft pull request ready);
 * - `approve NAME`: merges the proposal — refused (exit 1) unless `porchlight/render` on its head is
 *   `success`, the check the app's merge gate reports;
 * - `reject NAME`: closes the proposal (Proposed → Draft), or withdraws a deletion proposal
 *   (DeletionProposed → Published);
 * - `propose-delete NAME`: Published → DeletionProposed (branch `deletion-proposed/<tag>` at its commit);
 * - `del NAME`: a Draft: its pull request closed and its branch deleted; a DeletionProposed revision: its
 *   tag deleted, its commit kept reachable from branch `deleted/<tag>` (nothing is lost).
 */

import type { GitHubPort, RepoRef } from "../github/port.js";
import { createRestPort, parseRepoSlug, type RestClientEnv } from "../github/rest-client.js";
import { DELETED_PREFIX, DELETION_PROPOSED_PREFIX } from "../github/revision-source.js";
import type { PackageRevisionInfo } from "../lifecycle/revision-list.js";
import { formatDraftBranch } from "../lifecycle/revision-naming.js";
import { packageContextText } from "../pkg/package-context.js";
import { commandAt } from "./commands.js";
import { type FlagSpec, parseFlags } from "./flags.js";
import { listRepoRevisions } from "./rpkg-revisions.js";

/** The verbs this module runs. */
export const RPKG_VERBS = ["init", "copy", "propose", "approve", "reject", "propose-delete", "del"];

/** Where the command reads its environment and writes its output. */
export interface VerbIo {
  env: RestClientEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

class VerbError extends Error {}
class VerbUsage extends Error {}

const FLAGS: FlagSpec[] = [
  { name: "repo", type: "string" },
  { name: "workspace", type: "string" },
  { name: "description", type: "string" },
  { name: "keywords", type: "string" },
  { name: "site", type: "string" },
  { name: "namespace", short: "n", type: "string" },
];

interface Ctx {
  port: GitHubPort;
  repo: RepoRef;
  flags: Map<string, boolean | string | string[]>;
  names: string[];
  out: (text: string) => void;
}

const str = (ctx: Ctx, flag: string) => ctx.flags.get(flag) as string | undefined;

/** The revision called `name` in the repository; refused naming the candidates when it is not there. */
async function findRevision(
  ctx: Ctx,
  name: string,
): Promise<PackageRevisionInfo & { defaultBranch: string }> {
  const listed = await listRepoRevisions(ctx.port, ctx.repo);
  const found = listed.rows.filter((r) => r.name === name);
  if (found.length === 1) return { ...found[0]!, defaultBranch: listed.defaultBranch };
  const near = listed.rows.filter((r) => r.name.startsWith(`${name}.`) || r.packageName === name);
  throw new VerbError(
    found.length > 1
      ? `${name} is ambiguous: ${found.map((r) => `${r.name} (${r.lifecycle}, ${r.ref})`).join(", ")}`
      : `no package revision ${name} in ${ctx.repo.owner}/${ctx.repo.repo}${near.length ? `; did you mean ${near.map((r) => r.name).join(", ")}?` : " (see porchlight rpkg get)"}`,
  );
}

const branchOf = (r: PackageRevisionInfo) => r.ref.replace(/^refs\/heads\//, "");
const tagOf = (r: PackageRevisionInfo) => r.ref.replace(/^refs\/tags\//, "");

async function openPull(ctx: Ctx, branch: string) {
  const pulls = await ctx.port.listBranchPullRequests({ repo: ctx.repo, branch });
  return pulls.find((p) => p.state === "open");
}

function kptfileText(name: string, ctx: Ctx): string {
  const info: string[] = [];
  if (str(ctx, "site")) info.push(`  site: ${str(ctx, "site")}`);
  const description = str(ctx, "description") ?? "sample description";
  info.push(`  description: ${description}`);
  const keywords = (str(ctx, "keywords") ?? "").split(",").filter(Boolean);
  if (keywords.length) info.push("  keywords:", ...keywords.map((k) => `    - ${k.trim()}`));
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n  annotations:\n    config.kubernetes.io/local-config: "true"\ninfo:\n${info.join("\n")}\n`;
}

async function init(ctx: Ctx): Promise<void> {
  const [pkg] = ctx.names;
  const workspace = str(ctx, "workspace");
  if (!pkg || !workspace) throw new VerbUsage("init needs PACKAGE and --workspace");
  const branch = formatDraftBranch({ packagePath: pkg, workspace });
  const repository = await ctx.port.readRepository({ repo: ctx.repo });
  const base = await ctx.port.readBranchHead({ repo: ctx.repo, branch: repository.defaultBranch });
  if (!base) throw new VerbError(`the default branch ${repository.defaultBranch} does not exist`);
  const created = await ctx.port.createBranch({ repo: ctx.repo, branch, sha: base });
  if (created.kind === "exists") throw new VerbError(`branch ${branch} already exists`);
  const name = pkg.split("/").at(-1) ?? pkg;
  const file = (path: string, content: string) => ({
    path: `${pkg}/${path}`,
    content: new TextEncoder().encode(content),
    mode: "100644" as const,
  });
  const description = str(ctx, "description") ?? "sample description";
  const outcome = await ctx.port.commitFiles({
    repo: ctx.repo,
    branch,
    expectedHead: base,
    message: `Intermediate commit: init ${pkg}`,
    changes: {
      additions: [
        file("Kptfile", kptfileText(name, ctx)),
        file("README.md", `# ${name}\n\n## Description\n${description}\n`),
        file("package-context.yaml", packageContextText({ name })),
      ],
      deletions: [],
    },
  });
  if (outcome.kind !== "committed") throw new VerbError(`could not commit to ${branch}: ${outcome.message}`);
  ctx.out(`${repository.name}.${pkg.replaceAll("/", ".")}.${workspace} created (branch ${branch})\n`);
}

async function copy(ctx: Ctx): Promise<void> {
  const workspace = str(ctx, "workspace");
  if (!ctx.names[0] || !workspace) throw new VerbUsage("copy needs SOURCE_PACKAGE_REVISION and --workspace");
  const from = await findRevision(ctx, ctx.names[0]);
  if (from.revision <= 0 && from.lifecycle !== "Published")
    throw new VerbError(`${from.name} is a ${from.lifecycle}: copy a Published revision`);
  const branch = formatDraftBranch({ packagePath: from.packagePath, workspace });
  const created = await ctx.port.createBranch({ repo: ctx.repo, branch, sha: from.sha });
  if (created.kind === "exists") throw new VerbError(`branch ${branch} already exists`);
  ctx.out(
    `${from.repository}.${from.packagePath.replaceAll("/", ".")}.${workspace} created (branch ${branch})\n`,
  );
}

async function propose(ctx: Ctx, r: PackageRevisionInfo & { defaultBranch: string }): Promise<void> {
  if (r.lifecycle === "Proposed") return ctx.out(`${r.name} is already proposed\n`);
  if (r.lifecycle !== "Draft")
    throw new VerbError(`${r.name} is ${r.lifecycle}: only a Draft can be proposed`);
  const branch = branchOf(r);
  const open = await openPull(ctx, branch);
  if (open?.draft) {
    if (!ctx.port.markPullRequestReady || !open.nodeId)
      throw new VerbError("cannot mark the pull request ready");
    await ctx.port.markPullRequestReady({ nodeId: open.nodeId });
  } else if (!open) {
    await ctx.port.createPullRequest({
      repo: ctx.repo,
      head: branch,
      base: r.defaultBranch,
      title: `${r.packageName}: ${r.workspace}`,
      body: `Proposes package revision \`${r.name}\` (package \`${r.packagePath}\`, workspace \`${r.workspace}\`). Merging it approves (publishes) it.`,
    });
  }
  ctx.out(`${r.name} proposed\n`);
}

async function approve(ctx: Ctx, r: PackageRevisionInfo): Promise<void> {
  if (r.lifecycle !== "Proposed")
    throw new VerbError(`${r.name} is ${r.lifecycle}: only a Proposed revision can be approved`);
  const pull = await openPull(ctx, branchOf(r));
  if (!pull) throw new VerbError(`${r.name} has no open pull request`);
  const runs = await ctx.port.listCheckRuns({ repo: ctx.repo, sha: pull.headSha, name: "porchlight/render" });
  const run = runs.filter((c) => c.status === "completed").sort((a, b) => b.id - a.id)[0];
  if (run?.conclusion !== "success")
    throw new VerbError(
      `approve refused: porchlight/render on ${pull.headSha.slice(0, 7)} is ${run ? run.conclusion : "not concluded yet"}; the merge gate would refuse this revision`,
    );
  const merged = await ctx.port.mergePullRequest({ repo: ctx.repo, number: pull.number, sha: pull.headSha });
  if (merged.kind !== "merged") throw new VerbError(`approve refused by GitHub: ${merged.message}`);
  ctx.out(`${r.name} approved (pull request #${pull.number} merged; porchlight publishes the revision)\n`);
}

async function reject(ctx: Ctx, r: PackageRevisionInfo): Promise<void> {
  if (r.lifecycle === "DeletionProposed") {
    await ctx.port.deleteBranch({ repo: ctx.repo, branch: `${DELETION_PROPOSED_PREFIX}${tagOf(r)}` });
    return ctx.out(`${r.name} deletion proposal rejected: Published\n`);
  }
  if (r.lifecycle !== "Proposed") throw new VerbError(`${r.name} is ${r.lifecycle}: nothing to reject`);
  const pull = await openPull(ctx, branchOf(r));
  if (pull) await ctx.port.updatePullRequest({ repo: ctx.repo, number: pull.number, state: "closed" });
  ctx.out(`${r.name} rejected: Draft\n`);
}

async function proposeDelete(ctx: Ctx, r: PackageRevisionInfo): Promise<void> {
  if (r.lifecycle === "DeletionProposed") return ctx.out(`${r.name} is already proposed for deletion\n`);
  if (r.lifecycle !== "Published" || r.revision <= 0)
    throw new VerbError(
      `${r.name} is ${r.lifecycle}: only a Published revision can be proposed for deletion (delete a Draft with del)`,
    );
  await ctx.port.createBranch({
    repo: ctx.repo,
    branch: `${DELETION_PROPOSED_PREFIX}${tagOf(r)}`,
    sha: r.sha,
  });
  ctx.out(`${r.name} proposed for deletion\n`);
}

async function del(ctx: Ctx, r: PackageRevisionInfo): Promise<void> {
  if (r.lifecycle === "Draft" || r.lifecycle === "Proposed") {
    const pull = await openPull(ctx, branchOf(r));
    if (pull) await ctx.port.updatePullRequest({ repo: ctx.repo, number: pull.number, state: "closed" });
    await ctx.port.deleteBranch({ repo: ctx.repo, branch: branchOf(r) });
    return ctx.out(`${r.name} deleted\n`);
  }
  if (r.lifecycle !== "DeletionProposed")
    throw new VerbError(
      `${r.name} is ${r.lifecycle}: propose its deletion first (porchlight rpkg propose-delete ${r.name})`,
    );
  if (!ctx.port.deleteTag) throw new VerbError("this GitHub client cannot delete tags");
  const tag = tagOf(r);
  // Nothing is lost: the revision's commit stays reachable from deleted/<tag> before the tag goes.
  await ctx.port.createBranch({ repo: ctx.repo, branch: `${DELETED_PREFIX}${tag}`, sha: r.sha });
  await ctx.port.deleteTag({ repo: ctx.repo, name: tag });
  await ctx.port.deleteBranch({ repo: ctx.repo, branch: `${DELETION_PROPOSED_PREFIX}${tag}` });
  ctx.out(`${r.name} deleted (its commit ${r.sha.slice(0, 7)} is kept at branch ${DELETED_PREFIX}${tag})\n`);
}

const ON_REVISION = { propose, approve, reject, "propose-delete": proposeDelete, del } as const;

/** Runs `porchlight rpkg <verb> ...`; resolves to the exit code (1 on usage or GitHub errors). */
export async function runRpkgVerb(argv: string[], io: VerbIo): Promise<number> {
  const [verb = "", ...rest] = argv;
  const usage = commandAt(`rpkg ${verb}`)?.usage ?? "";
  try {
    const parsed = parseFlags(rest, FLAGS);
    let repo: RepoRef;
    try {
      repo = parseRepoSlug(parsed.values.get("repo") as string | undefined);
    } catch (error) {
      throw new VerbUsage(`--repo: ${(error as Error).message}`);
    }
    const ctx: Ctx = {
      port: createRestPort(io.env),
      repo,
      flags: parsed.values,
      names: parsed.positional,
      out: io.stdout,
    };
    if (verb === "init") await init(ctx);
    else if (verb === "copy") await copy(ctx);
    else {
      if (ctx.names.length === 0) throw new VerbUsage(`${verb} needs a PACKAGE_REVISION name`);
      const run = ON_REVISION[verb as keyof typeof ON_REVISION];
      for (const name of ctx.names) await run(ctx, await findRevision(ctx, name));
    }
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof VerbUsage || /^(unknown|flag needs)/.test(message))
      io.stderr(`Error: ${message}\n\n${usage}`);
    else io.stderr(`Error: porchlight rpkg ${verb}: ${message}\n`);
    return 1;
  }
}
