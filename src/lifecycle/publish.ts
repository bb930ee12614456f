/**
 * Approve = merge: publishing a proposed revision (Porch: Proposed → Published).
 *
 * Steps, on `pull_request` `closed` with `merged: true`, from a draft branch into the default branch:
 * 1. the packages the pull request touched, as they are in the merge commit (one tree read);
 * 2. per package, its revision: the workspace's own number when the workspace is a revision (`v3`),
 *    otherwise the highest published integer revision + 1 (./revisions.ts);
 * 3. tag the merge commit `<package-path>/v<N>` (a lightweight tag, as Porch makes). A published revision
 *    is immutable: an existing tag is never moved — the comment says so. A package already tagged at
 *    this merge commit (a redelivered webhook) is reported, not tagged again;
 * 4. delete the draft branch when `deleteBranchOnPublish` (and the branch is in this repository);
 * 5. one comment on the pull request listing the published revisions.
 */
import type { LifecyclePort } from "../github/lifecycle-port.js";
import type { RepoRef } from "../github/port.js";
import { upsertComment } from "./comments.js";
import type { GateDeps } from "./gate-check.js";
import { directoryOf } from "./revision-list.js";
import {
  formatRevisionTag,
  nextRevision,
  packageName,
  parseDraftBranch,
  parseRevisionTag,
  revisionObjectName,
} from "./revisions.js";
import { touchedPackages } from "./touched-packages.js";

/** A merged pull request, reduced to what publishing needs. */
export interface MergedPullRequest {
  repo: RepoRef;
  number: number;
  headRef: string;
  baseRef: string;
  mergeCommitSha: string;
  sameRepository: boolean;
  defaultBranch: string;
}

/** What happened to one package. */
export type PackagePublication =
  | { packagePath: string; kind: "published"; tag: string; revision: number }
  | { packagePath: string; kind: "already-published"; tag: string; revision: number }
  | { packagePath: string; kind: "tag-exists"; tag: string; revision: number; existingSha?: string };

/** What happened. */
export type PublishOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "published"; packages: PackagePublication[]; branchDeleted: boolean };

/** Marker of the publish comment. */
export const PUBLISH_COMMENT_MARKER = "<!-- porchlight:publish -->";

/** Dependencies: the lifecycle port, a log and the repository config. */
export type PublishDeps = Pick<GateDeps, "log" | "config"> & { port: LifecyclePort };

async function publishPackage(options: {
  pr: MergedPullRequest;
  packagePath: string;
  workspace: string;
  port: LifecyclePort;
}): Promise<PackagePublication> {
  const { pr, packagePath, port } = options;
  const tags = (await port.listTags({ repo: pr.repo, prefix: `${packagePath}/` })).filter(
    (t) => parseRevisionTag(t.name)?.packagePath === packagePath,
  );
  const atMerge = tags.find((t) => t.sha === pr.mergeCommitSha);
  if (atMerge) {
    const revision = parseRevisionTag(atMerge.name)?.revision ?? 0;
    return { packagePath, kind: "already-published", tag: atMerge.name, revision };
  }
  const revision = nextRevision({ packagePath, workspace: options.workspace, tags: tags.map((t) => t.name) });
  const tag = formatRevisionTag({ packagePath, revision });
  const existing = tags.find((t) => parseRevisionTag(t.name)?.revision === revision);
  if (existing) return { packagePath, kind: "tag-exists", tag, revision, existingSha: existing.sha };
  const created = await port.createTag({ repo: pr.repo, name: tag, sha: pr.mergeCommitSha });
  return created.kind === "created"
    ? { packagePath, kind: "published", tag, revision }
    : { packagePath, kind: "tag-exists", tag, revision };
}

function publishComment(options: {
  pr: MergedPullRequest;
  workspace: string;
  results: PackagePublication[];
  branchDeleted: boolean;
  directories: string[];
}): string {
  const { pr, results } = options;
  const lines = [PUBLISH_COMMENT_MARKER, "### 📦 Published", ""];
  for (const r of results) {
    const dir = directoryOf(r.packagePath, options.directories) ?? "";
    // Named as `porchlight rpkg get` lists the tag (the tag does not record the workspace).
    const name = revisionObjectName({
      repository: pr.repo.repo,
      packagePath: r.packagePath,
      workspace: `v${r.revision}`,
    });
    const pkg = `\`${packageName(r.packagePath, dir)}\``;
    if (r.kind === "published")
      lines.push(
        `- ${pkg} revision ${r.revision}: tag \`${r.tag}\` on \`${pr.mergeCommitSha.slice(0, 7)}\` (PackageRevision \`${name}\`)`,
      );
    else if (r.kind === "already-published")
      lines.push(`- ${pkg} was already published as \`${r.tag}\` at this merge commit`);
    else
      lines.push(
        `- ${pkg}: ⚠️ tag \`${r.tag}\` already exists${r.existingSha ? ` at \`${r.existingSha.slice(0, 7)}\`` : ""} and was **not moved** — a published revision is immutable. Publish this content as a new revision from a new draft workspace.`,
      );
  }
  lines.push("");
  lines.push(
    options.branchDeleted
      ? `The draft branch \`${pr.headRef}\` was deleted.`
      : `The draft branch \`${pr.headRef}\` was kept.`,
  );
  return lines.join("\n");
}

/**
 * Publishes the revision(s) a merged pull request carries. Non-draft branches, pull requests into
 * other branches and unmerged pull requests are ignored. Throws GitHubError when GitHub fails.
 */
export async function publishRevision(pr: MergedPullRequest, deps: PublishDeps): Promise<PublishOutcome> {
  const { port, config } = deps;
  const draft = parseDraftBranch(pr.headRef, { draftPrefix: config.draftBranchPrefix });
  if (!draft) return { kind: "ignored", reason: `${pr.headRef} is not a draft branch` };
  if (pr.baseRef !== pr.defaultBranch)
    return { kind: "ignored", reason: `base ${pr.baseRef} is not the default branch` };

  const files = await port.listPullRequestFiles({ repo: pr.repo, number: pr.number });
  const tree = await port.readTree({ repo: pr.repo, sha: pr.mergeCommitSha });
  const packagePaths = touchedPackages({
    entries: tree.entries,
    changedPaths: files,
    branchPackage: draft.packagePath,
  }).filter((p) => p !== "" && directoryOf(p, config.directories) !== undefined);

  if (packagePaths.length === 0) return { kind: "ignored", reason: "the pull request touched no package" };

  const results: PackagePublication[] = [];
  for (const packagePath of packagePaths) {
    results.push(await publishPackage({ pr, packagePath, workspace: draft.workspace, port }));
  }
  for (const r of results)
    deps.log.info(
      `publish ${pr.repo.owner}/${pr.repo.repo}#${pr.number}: ${r.packagePath} ${r.kind} ${r.tag}`,
    );

  const branchDeleted =
    config.deleteBranchOnPublish && pr.sameRepository
      ? await port.deleteBranch({ repo: pr.repo, branch: pr.headRef })
      : false;
  await upsertComment({
    port,
    repo: pr.repo,
    issueNumber: pr.number,
    marker: PUBLISH_COMMENT_MARKER,
    body: publishComment({
      pr,
      workspace: draft.workspace,
      results,
      branchDeleted,
      directories: config.directories,
    }),
  });
  return { kind: "published", packages: results, branchDeleted };
}
