/**
 * Approve = merge: publishing a proposed revision (Porch: Proposed → Published).
 *
 * Steps, on `pull_request` `closed` with `merged: true`, from a draft branch into the default branch:
 * 1. the packages the pull request touched, as they are in the merge commit (one tree read);
 * 2. per package, its revision: the workspace's own number when the workspace is a revision (`v3`),
 *    otherwise the highest published integer revision + 1 (../revision-naming.ts);
 * 3. render them at the merge commit and apply the merge gate (./merge-gate.ts): a package that is
 *    `Rendered=False`, differs from its render or misses a readiness gate is NOT published (Porch refuses
 *    to approve a revision that does not render) — the comment says why and how to fix it; this matters
 *    on a default branch without the required check (`porchlight protect`), where such a merge is possible;
 * 4. tag the merge commit `<package-path>/v<N>` (a lightweight tag, as Porch makes), compare-and-swap:
 *    the tag is created only if absent, and a conflict takes the next number from the tags that exist
 *    then, so merges in a burst publish one revision each. A published revision
 *    is immutable: an existing tag is never moved — the comment says so. A package already tagged at
 *    this merge commit (a redelivered webhook) is reported, not tagged again;
 * 5. delete the draft branch when `deleteBranchOnPublish` (and the branch is in this repository, and
 *    every package was published — not refused, no existing tag in the way);
 * 6. one comment on the pull request listing the published revisions, headed "Not published" when
 *    nothing was published.
 */
import type { GitHubPort, RepoRef } from "../../github/port.js";
import { PUBLISH_COMMENT_MARKER, type PublishedLine, publishComment } from "../../report/comments.js";
import { describeProblem } from "../../report/gate-report.js";
import { upsertComment } from "../comments.js";
import type { LifecycleDeps } from "../deps.js";
import { evaluateMergeGate } from "../merge-gate.js";
import { renderPackagesAtSha } from "../render-at-sha.js";
import { directoryOf } from "../revision-list.js";
import {
  DELETED_REVISION_PREFIX,
  formatRevisionTag,
  isDeletedRevisionBranch,
  nextRevision,
  packageName,
  parseDraftBranch,
  parseRevisionTag,
  revisionObjectName,
  workspaceRevision,
} from "../revision-naming.js";
import { touchedPackages } from "../touched-packages.js";
import type { PullRequestInput } from "./pull-request-input.js";

/** What happened to one package. */
export type PackagePublication =
  | { packagePath: string; kind: "published"; tag: string; revision: number }
  | { packagePath: string; kind: "already-published"; tag: string; revision: number }
  | { packagePath: string; kind: "tag-exists"; tag: string; revision: number; existingSha?: string }
  /** The revision at this merge commit was published and then deleted (`rpkg del`): never published again. */
  | { packagePath: string; kind: "deleted"; branch: string }
  | { packagePath: string; kind: "refused"; problems: string[] };

/** What happened. */
export type PublishOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "published"; packages: PackagePublication[]; branchDeleted: boolean };

export { PUBLISH_COMMENT_MARKER };

/** Dependencies: the port, the engine (to judge the merge commit), a log, the repository config and limits. */
export type PublishDeps = Pick<LifecycleDeps, "log" | "config" | "engine" | "port" | "limits">;

/** Revision numbers one package tries before giving up (each conflict means another publish won it). */
const MAX_TAG_ATTEMPTS = 20;

/**
 * Takes the package's next revision number compare-and-swap: the tag is created only if absent
 * (GitHub refuses a ref that exists); on a conflict the number is computed again from the tags that
 * exist then (and is never one that already conflicted, should the listing lag). A workspace that IS a
 * revision (`v3`) names its number: when that tag exists it is reported, not renumbered.
 */
async function publishPackage(options: {
  repo: RepoRef;
  mergeCommitSha: string;
  packagePath: string;
  workspace: string;
  port: GitHubPort;
}): Promise<PackagePublication> {
  const { repo, mergeCommitSha, packagePath, port, workspace } = options;
  const explicit = workspaceRevision(workspace) !== undefined;
  // A redelivered merge of a revision that was deleted since: deleted stays deleted.
  const deleted = (
    await port.listBranches({ repo, prefix: `${DELETED_REVISION_PREFIX}${packagePath}/` })
  ).find((b) => b.sha === mergeCommitSha && isDeletedRevisionBranch(b.name, packagePath));
  if (deleted) return { packagePath, kind: "deleted", branch: deleted.name };
  let taken = 0;
  for (let attempt = 1; ; attempt++) {
    const tags = (await port.listTags({ repo, prefix: `${packagePath}/` })).filter(
      (t) => parseRevisionTag(t.name)?.packagePath === packagePath,
    );
    const atMerge = tags.find((t) => t.sha === mergeCommitSha);
    if (atMerge) {
      const revision = parseRevisionTag(atMerge.name)?.revision ?? 0;
      return { packagePath, kind: "already-published", tag: atMerge.name, revision };
    }
    const computed = nextRevision({ packagePath, workspace, tags: tags.map((t) => t.name) });
    const revision = explicit ? computed : Math.max(computed, taken + 1);
    const tag = formatRevisionTag({ packagePath, revision });
    const existing = tags.find((t) => parseRevisionTag(t.name)?.revision === revision);
    if (existing) return { packagePath, kind: "tag-exists", tag, revision, existingSha: existing.sha };
    const created = await port.createTag({ repo, name: tag, sha: mergeCommitSha });
    if (created.kind === "created") return { packagePath, kind: "published", tag, revision };
    if (explicit || attempt >= MAX_TAG_ATTEMPTS) return { packagePath, kind: "tag-exists", tag, revision };
    taken = revision;
  }
}

/** Per repository, the end of the chain of publishes this process runs (see {@link inMergeOrder}). */
const publishing = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after every publish of `repo` this process started before it, so merges delivered in
 * order take their numbers in merge order. Across processes the tag's compare-and-swap still gives each
 * merge its own revision.
 */
async function inMergeOrder<T>(repo: RepoRef, work: () => Promise<T>): Promise<T> {
  const key = `${repo.owner}/${repo.repo}`;
  const before = publishing.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  const settled = mine.catch(() => undefined);
  publishing.set(key, settled);
  void settled.then(() => {
    if (publishing.get(key) === settled) publishing.delete(key);
  });
  return mine;
}

/** The comment's lines: package names as Porch shows them (relative to their directory). */
function publishedLines(options: {
  repository: string;
  results: PackagePublication[];
  directories: string[];
}): PublishedLine[] {
  return options.results.map((r): PublishedLine => {
    const dir = directoryOf(r.packagePath, options.directories) ?? "";
    const name = packageName(r.packagePath, dir);
    if (r.kind === "refused") return { kind: "refused", name, problems: r.problems };
    if (r.kind === "already-published") return { kind: "already-published", name, tag: r.tag };
    if (r.kind === "tag-exists") return { kind: "tag-exists", name, tag: r.tag, existingSha: r.existingSha };
    if (r.kind === "deleted") return { kind: "deleted", name, branch: r.branch };
    // Named as `porchlight rpkg get` lists the tag (the tag does not record the workspace).
    const objectName = revisionObjectName({
      repository: options.repository,
      packagePath: r.packagePath,
      workspace: `v${r.revision}`,
    });
    return { kind: "published", name, tag: r.tag, revision: r.revision, objectName };
  });
}

/**
 * Publishes the revision(s) a merged pull request carries. Non-draft branches, pull requests into
 * other branches and unmerged pull requests are ignored. Throws GitHubError when GitHub fails.
 */
export async function publishRevision(input: PullRequestInput, deps: PublishDeps): Promise<PublishOutcome> {
  return inMergeOrder(input.repo, () => publishMerged(input, deps));
}

/** What publishing decided from what it read: the packages to tag, and those the merge gate refused. */
type Publication =
  | { kind: "ignored"; reason: string }
  | {
      kind: "publish";
      mergeCommitSha: string;
      workspace: string;
      /** Per touched package, in order: its gate problems (empty = tag it). */
      packages: { packagePath: string; problems: string[] }[];
    };

/**
 * Which packages may be published, from the packages the merge touched and the merge gate's problems
 * (a package with a problem is refused: Porch refuses to approve a revision that does not render).
 */
export function decidePublication(options: {
  packagePaths: string[];
  problems: { packagePath: string; text: string }[];
}): { packagePath: string; problems: string[] }[] {
  return options.packagePaths.map((packagePath) => ({
    packagePath,
    problems: options.problems.filter((p) => p.packagePath === packagePath).map((p) => p.text),
  }));
}

/** The draft branch goes only when every package was published and the branch is the app's to delete. */
export function deletesBranch(options: {
  deleteBranchOnPublish: boolean;
  sameRepository: boolean;
  results: PackagePublication[];
}): boolean {
  return (
    options.deleteBranchOnPublish &&
    options.sameRepository &&
    options.results.every((r) => r.kind === "published" || r.kind === "already-published")
  );
}

/** Reads the merge (touched packages, their render at the merge commit) and decides what to publish. */
async function readPublication(input: PullRequestInput, deps: PublishDeps): Promise<Publication> {
  const { port, config } = deps;
  const { repo, pull } = input;
  const mergeCommitSha = pull.mergeCommitSha;
  if (!pull.merged || !mergeCommitSha) return { kind: "ignored", reason: "not merged" };
  const draft = parseDraftBranch(pull.headRef, { draftPrefix: config.draftBranchPrefix });
  if (!draft) return { kind: "ignored", reason: `${pull.headRef} is not a draft branch` };
  if (pull.baseRef !== input.defaultBranch)
    return { kind: "ignored", reason: `base ${pull.baseRef} is not the default branch` };

  const files = await port.listPullRequestFiles({ repo, number: pull.number });
  const tree = await port.readTree({ repo, sha: mergeCommitSha });
  const packagePaths = touchedPackages({
    entries: tree.entries,
    changedPaths: files,
    branchPackage: draft.packagePath,
  }).filter((p) => p !== "" && directoryOf(p, config.directories) !== undefined);
  if (packagePaths.length === 0) return { kind: "ignored", reason: "the pull request touched no package" };

  // Approve only what passes the merge gate at the merge commit (our own render of that exact sha): an
  // unprotected default branch lets a failing pull request be merged, but it is not published.
  const rendered = await renderPackagesAtSha({
    port,
    repo,
    sha: mergeCommitSha,
    tree,
    packagePaths,
    engine: deps.engine,
    pushOnFailure: config.pushOnFailure,
    kptfileStatus: config.kptfileStatus,
    limits: deps.limits,
  });
  const verdict = evaluateMergeGate({
    packages: rendered.packages,
    changes: rendered.changes,
    enforceReadinessGates: config.enforceReadinessGates,
  });
  const problems = verdict.problems.map((p) => ({ packagePath: p.packagePath, text: describeProblem(p) }));
  return {
    kind: "publish",
    mergeCommitSha,
    workspace: draft.workspace,
    packages: decidePublication({ packagePaths, problems }),
  };
}

async function publishMerged(input: PullRequestInput, deps: PublishDeps): Promise<PublishOutcome> {
  const { port, config } = deps;
  const { repo, pull } = input;
  const publication = await readPublication(input, deps);
  if (publication.kind === "ignored") return publication;
  const { mergeCommitSha } = publication;
  const results: PackagePublication[] = [];
  for (const { packagePath, problems } of publication.packages) {
    results.push(
      problems.length > 0
        ? { packagePath, kind: "refused", problems }
        : await publishPackage({ repo, mergeCommitSha, packagePath, workspace: publication.workspace, port }),
    );
  }
  for (const r of results)
    deps.log.info(
      `publish ${repo.owner}/${repo.repo}#${pull.number}: ${r.packagePath} ${r.kind} ${"tag" in r ? r.tag : "branch" in r ? r.branch : ""}`,
    );
  // A draft that was not published (refused, or its tag already exists) stays: it is where the fix goes.
  const branchDeleted = deletesBranch({ ...config, sameRepository: input.sameRepository, results })
    ? await port.deleteBranch({ repo, branch: pull.headRef })
    : false;
  await upsertComment({
    port,
    repo,
    issueNumber: pull.number,
    marker: PUBLISH_COMMENT_MARKER,
    body: publishComment({
      mergeCommitSha,
      headRef: pull.headRef,
      lines: publishedLines({ repository: repo.repo, results, directories: config.directories }),
      branchDeleted,
    }),
  });
  return { kind: "published", packages: results, branchDeleted };
}
