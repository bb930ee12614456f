/**
 * A downstream whose upstream package was deleted (Porch: its upstream PackageRevisions are gone):
 * its Kptfile is not on the upstream repository's default branch any more, or every published
 * revision of it was deleted (`rpkg del`). Its upgrades end: the open upgrade pull request and the
 * open upgrade-failed issues are closed, each with a note saying what was deleted and what the
 * downstream can do, and the downstream's `porchlight/upgrade` check says so. Level-triggered: a
 * closed pull request or issue is not touched again, the check is posted once per commit.
 */
import type { RepoRef } from "../../github/port.js";
import { UPGRADE_CHECK_NAME, UPGRADE_FAILED_LABEL } from "../../report/upgrade.js";
import {
  UPSTREAM_DELETED_MARKER,
  type UpstreamDeletion,
  upstreamDeletedId,
  upstreamDeletedNote,
  upstreamDeletedOutput,
} from "../../report/upstream-deleted.js";
import { upsertComment } from "../comments.js";
import { ensureCheckRun } from "../ensure-check-run.js";
import {
  DELETED_REVISION_PREFIX,
  formatDraftBranch,
  formatRevisionTag,
  isDeletedRevisionBranch,
  parseRevisionTag,
  UPGRADE_WORKSPACE,
} from "../revision-naming.js";
import type { DownstreamStatus, UpstreamDeps } from "../upgrade-plan.js";
import type { UpstreamPort } from "../upstream-port.js";

/**
 * Branches keeping deleted revisions of `pkg` (`deleted/<pkg>/v<N>[-<sha12>]`), newest revision first.
 */
async function keptRevisions(port: UpstreamPort, upstream: RepoRef, pkg: string): Promise<string[]> {
  if (!pkg) return [];
  const branches = await port.listBranches({ repo: upstream, prefix: `${DELETED_REVISION_PREFIX}${pkg}/v` });
  const revision = (name: string) =>
    parseRevisionTag(name.slice(DELETED_REVISION_PREFIX.length).replace(/-[0-9a-f]{12}$/, ""))?.revision ?? 0;
  return branches
    .map((b) => b.name)
    .filter((name) => isDeletedRevisionBranch(name, pkg))
    .sort((a, b) => revision(b) - revision(a) || a.localeCompare(b));
}

/**
 * Reads whether the upstream package of a downstream (`status`, read by `downstreamStatus`) was
 * deleted; undefined while it is on its default branch and has a published revision (or the downstream
 * never was on one). Throws GitHub's errors.
 */
export async function readUpstreamDeletion(
  port: UpstreamPort,
  pkg: string,
  status: DownstreamStatus,
): Promise<UpstreamDeletion | undefined> {
  const { upstream, upstreamPackage } = status;
  const { defaultBranch } = await port.readRepository({ repo: upstream });
  const commit = await port.readBranchHead({ repo: upstream, branch: defaultBranch });
  if (!commit) return undefined;
  const path = upstreamPackage ? `${upstreamPackage}/Kptfile` : "Kptfile";
  const removed = (await port.readFile({ repo: upstream, path, ref: commit })) === undefined;
  const revisionsDeleted = status.latest === undefined && status.current !== undefined;
  if (!removed && !revisionsDeleted) return undefined;
  const kept = status.latest === undefined ? await keptRevisions(port, upstream, upstreamPackage) : [];
  const newest =
    status.latest !== undefined && upstreamPackage
      ? formatRevisionTag({ packagePath: upstreamPackage, revision: status.latest })
      : kept[0]?.slice(DELETED_REVISION_PREFIX.length).replace(/-[0-9a-f]{12}$/, "");
  return {
    pkg,
    upstream: `${upstream.owner}/${upstream.repo}`,
    upstreamPackage,
    kind: removed ? "removed" : "revisions-deleted",
    branch: defaultBranch,
    commit,
    lastRevision: newest,
    kept,
  };
}

/**
 * Ends the upgrades of downstream `pkg` whose upstream was deleted: closes its open upgrade pull request
 * and open upgrade-failed issues, each with the note (comment first, so a retry after a failed close
 * finds the note and does not post it twice), then the `porchlight/upgrade` check on `defaultSha`.
 * Returns the numbers closed.
 */
export async function endUpgrades(
  input: {
    repo: RepoRef;
    pkg: string;
    defaultBranch: string;
    defaultSha: string;
    deletion: UpstreamDeletion;
  },
  deps: UpstreamDeps,
): Promise<number[]> {
  const { repo, pkg, deletion } = input;
  const { port } = deps;
  const branch = formatDraftBranch(
    { packagePath: pkg, workspace: UPGRADE_WORKSPACE },
    { draftPrefix: deps.config.draftBranchPrefix },
  );
  const pulls = (await port.listPullRequests({ repo, state: "open", base: input.defaultBranch })).filter(
    (p) => p.headRef === branch && p.sameRepository,
  );
  const issues = (await port.listIssues({ repo, label: UPGRADE_FAILED_LABEL })).filter(
    (i) => i.state === "open" && i.title.startsWith(`Upgrade of ${pkg} to `),
  );
  const closed: number[] = [];
  for (const [number, on] of [
    ...pulls.map((p) => [p.number, "pull"] as const),
    ...issues.map((i) => [i.number, "issue"] as const),
  ]) {
    const body = upstreamDeletedNote(deletion, on);
    await upsertComment({ port, repo, issueNumber: number, marker: UPSTREAM_DELETED_MARKER, body });
    if (on === "pull") await port.updatePullRequest({ repo, number, state: "closed" });
    else await port.updateIssue({ repo, number, state: "closed" });
    closed.push(number);
  }
  await ensureCheckRun(port, {
    repo,
    name: UPGRADE_CHECK_NAME,
    sha: input.defaultSha,
    externalId: upstreamDeletedId(deletion),
    conclusion: "neutral",
    output: upstreamDeletedOutput(deletion),
  });
  deps.log.info(
    `${repo.owner}/${repo.repo}/${pkg}: upstream ${deletion.upstream} ${deletion.upstreamPackage} deleted; closed ${closed.length}`,
  );
  return closed;
}
