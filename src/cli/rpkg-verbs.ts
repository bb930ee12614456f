/**
 * porchctl's write verbs on GitHub, every call through the one port: a revision NAME is what
 * `porchlight rpkg get` shows, looked up in the repositories the token reaches (`--repo` narrows; see
 * rpkg-context.ts). clone, pull, push and upgrade are in rpkg-content.ts.
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

import type { RepoRef } from "../github/port.js";
import { createRestPort, parseRepoSlug, type RestClientEnv } from "../github/rest-client.js";
import { DELETION_PROPOSED_PREFIX } from "../github/revision-source.js";
import { deletedRevisionBranches, formatDraftBranch } from "../lifecycle/revision-naming.js";
import { initFiles } from "../pkg/init-files.js";
import { commandAt } from "./commands.js";
import { type FlagSpec, parseFlags } from "./flags.js";
import {
  branchOf,
  type VerbCtx as Ctx,
  findRevision,
  type LocatedRevision,
  str,
  tagOf,
  targetRepo,
  VerbError,
  VerbUsage,
} from "./rpkg-context.js";
import { closeDeletionIssue, proposeDeletion } from "./rpkg-deletion.js";

/** The verbs this module runs (clone, pull, push and upgrade in rpkg-content.ts). */
export const RPKG_VERBS = [
  "init",
  "clone",
  "copy",
  "pull",
  "push",
  "propose",
  "approve",
  "reject",
  "propose-delete",
  "del",
  "upgrade",
];

/** Where the command reads its environment and writes its output. */
export interface VerbIo {
  env: RestClientEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const FLAGS: FlagSpec[] = [
  { name: "repo", type: "string" },
  { name: "repository", type: "string" },
  { name: "workspace", type: "string" },
  { name: "description", type: "string" },
  { name: "keywords", type: "string" },
  { name: "site", type: "string" },
  { name: "namespace", short: "n", type: "string" },
  { name: "strategy", type: "string" },
  { name: "directory", type: "string" },
  { name: "ref", type: "string" },
  { name: "revision", type: "string" },
];

async function openPull(ctx: Ctx, r: LocatedRevision) {
  const pulls = await ctx.port.listBranchPullRequests({ repo: r.repo, branch: branchOf(r) });
  return pulls.find((p) => p.state === "open");
}

async function init(ctx: Ctx): Promise<void> {
  const [pkg] = ctx.names;
  const workspace = str(ctx, "workspace");
  if (!pkg || !workspace) throw new VerbUsage("init needs PACKAGE and --workspace");
  const repo = targetRepo(ctx, "init");
  const branch = formatDraftBranch({ packagePath: pkg, workspace });
  const repository = await ctx.port.readRepository({ repo });
  const base = await ctx.port.readBranchHead({ repo, branch: repository.defaultBranch });
  if (!base) throw new VerbError(`the default branch ${repository.defaultBranch} does not exist`);
  // As Porch's init: a new package only (its Kptfile would replace the existing one's on approve).
  if (await ctx.port.readFile({ repo, path: `${pkg}/Kptfile`, ref: base }))
    throw new VerbError(`${pkg} already exists in ${repo.owner}/${repo.repo}: copy it instead`);
  const created = await ctx.port.createBranch({ repo, branch, sha: base });
  if (created.kind === "exists") throw new VerbError(`branch ${branch} already exists`);
  const name = pkg.split("/").at(-1) ?? pkg;
  const file = (path: string, content: string) => ({
    path: `${pkg}/${path}`,
    content: new TextEncoder().encode(content),
    mode: "100644" as const,
  });
  const info = {
    description: str(ctx, "description"),
    keywords: str(ctx, "keywords"),
    site: str(ctx, "site"),
  };
  const outcome = await ctx.port.commitFiles({
    repo,
    branch,
    expectedHead: base,
    message: `Intermediate commit: init ${pkg}`,
    changes: {
      additions: initFiles(name, info).map(([path, text]) => file(path, text)),
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
  const created = await ctx.port.createBranch({ repo: from.repo, branch, sha: from.sha });
  if (created.kind === "exists") throw new VerbError(`branch ${branch} already exists`);
  ctx.out(
    `${from.repository}.${from.packagePath.replaceAll("/", ".")}.${workspace} created (branch ${branch})\n`,
  );
}

async function propose(ctx: Ctx, r: LocatedRevision): Promise<void> {
  if (r.lifecycle === "Proposed") return ctx.out(`${r.name} is already proposed\n`);
  if (r.lifecycle !== "Draft")
    throw new VerbError(`${r.name} is ${r.lifecycle}: only a Draft can be proposed`);
  const branch = branchOf(r);
  const open = await openPull(ctx, r);
  if (open?.draft) {
    if (!ctx.port.markPullRequestReady || !open.nodeId)
      throw new VerbError("cannot mark the pull request ready");
    await ctx.port.markPullRequestReady({ nodeId: open.nodeId });
  } else if (!open) {
    await ctx.port.createPullRequest({
      repo: r.repo,
      head: branch,
      base: r.defaultBranch,
      title: `${r.packageName}: ${r.workspace}`,
      body: `Proposes package revision \`${r.name}\` (package \`${r.packagePath}\`, workspace \`${r.workspace}\`). Merging it approves (publishes) it.`,
    });
  }
  ctx.out(`${r.name} proposed\n`);
}

async function approve(ctx: Ctx, r: LocatedRevision): Promise<void> {
  if (r.lifecycle !== "Proposed")
    throw new VerbError(`${r.name} is ${r.lifecycle}: only a Proposed revision can be approved`);
  const pull = await openPull(ctx, r);
  if (!pull) throw new VerbError(`${r.name} has no open pull request`);
  const runs = await ctx.port.listCheckRuns({ repo: r.repo, sha: pull.headSha, name: "porchlight/render" });
  const run = runs.filter((c) => c.status === "completed").sort((a, b) => b.id - a.id)[0];
  if (run?.conclusion !== "success")
    throw new VerbError(
      `approve refused: porchlight/render on ${pull.headSha.slice(0, 7)} is ${run ? run.conclusion : "not concluded yet"}; the merge gate would refuse this revision`,
    );
  const merged = await ctx.port.mergePullRequest({ repo: r.repo, number: pull.number, sha: pull.headSha });
  if (merged.kind !== "merged") throw new VerbError(`approve refused by GitHub: ${merged.message}`);
  ctx.out(`${r.name} approved (pull request #${pull.number} merged; porchlight publishes the revision)\n`);
}

async function reject(ctx: Ctx, r: LocatedRevision): Promise<void> {
  if (r.lifecycle === "DeletionProposed") {
    await ctx.port.deleteBranch({ repo: r.repo, branch: `${DELETION_PROPOSED_PREFIX}${tagOf(r)}` });
    await closeDeletionIssue(
      ctx,
      r,
      `Deletion rejected (\`porchlight rpkg reject\`): \`${r.name}\` is Published again.`,
    );
    return ctx.out(`${r.name} deletion proposal rejected: Published\n`);
  }
  if (r.lifecycle !== "Proposed") throw new VerbError(`${r.name} is ${r.lifecycle}: nothing to reject`);
  const pull = await openPull(ctx, r);
  if (pull) await ctx.port.updatePullRequest({ repo: r.repo, number: pull.number, state: "closed" });
  ctx.out(`${r.name} rejected: Draft\n`);
}

async function proposeDelete(ctx: Ctx, r: LocatedRevision): Promise<void> {
  if (r.lifecycle === "DeletionProposed") return ctx.out(`${r.name} is already proposed for deletion\n`);
  if (r.lifecycle !== "Published" || r.revision <= 0)
    throw new VerbError(
      `${r.name} is ${r.lifecycle}: only a Published revision can be proposed for deletion (delete a Draft with del)`,
    );
  await proposeDeletion(ctx, r);
  ctx.out(`${r.name} proposed for deletion\n`);
}

/**
 * Creates the branch that keeps a deleted revision's commit reachable and returns its name:
 * `deleted/<tag>`, or `deleted/<tag>-<sha12>` when the first keeps another commit (the number was
 * published again after a deletion). Throws VerbError when neither can keep `sha` (the tag stays).
 */
async function keepDeletedCommit(ctx: Ctx, repo: RepoRef, tag: string, sha: string): Promise<string> {
  for (const branch of deletedRevisionBranches(tag, sha)) {
    if ((await ctx.port.createBranch({ repo, branch, sha })).kind === "created") return branch;
    const existing = await ctx.port.listBranches({ repo, prefix: branch });
    if (existing.some((b) => b.name === branch && b.sha === sha)) return branch;
  }
  throw new VerbError(
    `cannot keep ${sha} reachable: deleted/${tag} and its alternative exist at other commits`,
  );
}

async function del(ctx: Ctx, r: LocatedRevision): Promise<void> {
  if (r.lifecycle === "Draft" || r.lifecycle === "Proposed") {
    const pull = await openPull(ctx, r);
    if (pull) await ctx.port.updatePullRequest({ repo: r.repo, number: pull.number, state: "closed" });
    await ctx.port.deleteBranch({ repo: r.repo, branch: branchOf(r) });
    return ctx.out(`${r.name} deleted\n`);
  }
  if (r.lifecycle !== "DeletionProposed")
    throw new VerbError(
      `${r.name} is ${r.lifecycle}: propose its deletion first (porchlight rpkg propose-delete ${r.name})`,
    );
  if (!ctx.port.deleteTag) throw new VerbError("this GitHub client cannot delete tags");
  const tag = tagOf(r);
  // Nothing is lost: the revision's commit stays reachable from deleted/<tag> before the tag goes.
  const kept = await keepDeletedCommit(ctx, r.repo, tag, r.sha);
  await ctx.port.deleteTag({ repo: r.repo, name: tag });
  await ctx.port.deleteBranch({ repo: r.repo, branch: `${DELETION_PROPOSED_PREFIX}${tag}` });
  await closeDeletionIssue(
    ctx,
    r,
    `Deleted (\`porchlight rpkg del\`): the tag \`${tag}\` is gone; its commit ${r.sha} is kept at branch \`${kept}\`.`,
  );
  ctx.out(`${r.name} deleted (its commit ${r.sha.slice(0, 7)} is kept at branch ${kept})\n`);
}

const ON_REVISION = { propose, approve, reject, "propose-delete": proposeDelete, del } as const;

/** The repository `--repo` (or porchctl's `--repository`) names; `undefined` when neither is given. */
function repoFlag(values: Map<string, boolean | string | string[]>): RepoRef | undefined {
  const given = (values.get("repo") ?? values.get("repository")) as string | undefined;
  if (given === undefined) return undefined;
  try {
    return parseRepoSlug(given);
  } catch (error) {
    throw new VerbUsage(`--repo: ${(error as Error).message}`);
  }
}

/** Runs `porchlight rpkg <verb> ...`; resolves to the exit code (1 on usage or GitHub errors). */
export async function runRpkgVerb(argv: string[], io: VerbIo): Promise<number> {
  const [verb = "", ...rest] = argv;
  const usage = commandAt(`rpkg ${verb}`)?.usage ?? "";
  try {
    const parsed = parseFlags(rest, FLAGS);
    const ctx: Ctx = {
      port: createRestPort(io.env),
      env: io.env,
      repo: repoFlag(parsed.values),
      flags: parsed.values,
      names: parsed.positional,
      out: io.stdout,
      err: io.stderr,
      listings: new Map(),
    };
    if (verb === "init") await init(ctx);
    else if (verb === "copy") await copy(ctx);
    else if (verb in ON_REVISION) {
      if (ctx.names.length === 0) throw new VerbUsage(`${verb} needs a PACKAGE_REVISION name`);
      const run = ON_REVISION[verb as keyof typeof ON_REVISION];
      for (const name of ctx.names) await run(ctx, await findRevision(ctx, name));
    } else {
      const { runContentVerb } = await import("./rpkg-content.js");
      await runContentVerb(verb, ctx);
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
