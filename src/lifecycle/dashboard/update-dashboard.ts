/**
 * Keeps a repository's package dashboard issue up to date (opted in with `dashboard: true` in
 * `.github/porchlight.yml`; Renovate's Dependency Dashboard pattern). Reads the revisions (branches,
 * tags, pull requests, the default branch's packages), the `porchlight/render` verdict of each open
 * draft and proposal, and this repository's downstreams from the downstream index; builds the body
 * (src/report/dashboard.ts, pure); then writes once: creates the issue, or edits it only when its body
 * differs (a closed dashboard is reopened while the setting is on). Nothing is written when it is off.
 */
import type { GitHubPort, Issue, RepoRef } from "../../github/port.js";
import { readRevisionRefs } from "../../github/revision-source.js";
import {
  DASHBOARD_LABEL,
  DASHBOARD_MARKER,
  DASHBOARD_TITLE,
  type DashboardInput,
  dashboardBody,
  type OpenRevision,
  type Verdict,
} from "../../report/dashboard.js";
import type { LifecycleDeps } from "../deps.js";
import type { DownstreamIndex } from "../downstream-index.js";
import { deriveRevisions, topLevelPackages } from "../revision-list.js";
import { latestRevision, normalizePrefix, parseDraftBranch, UPGRADE_WORKSPACE } from "../revision-naming.js";
import { repoKey } from "../upstream-source.js";
import { RENDER_CHECK_NAME } from "../verdict.js";

/** What the dashboard needs beyond the job's deps: the downstream index, when the app keeps one. */
export type DashboardDeps = Pick<LifecycleDeps, "port" | "config" | "log" | "installationId"> & {
  index?: DownstreamIndex;
};

async function verdictOf(port: GitHubPort, repo: RepoRef, sha: string): Promise<Verdict> {
  const runs = await port.listCheckRuns({ repo, sha, name: RENDER_CHECK_NAME });
  const run = runs[0];
  if (!run) return "none";
  if (run.status !== "completed") return "pending";
  return run.conclusion === "success" ? "success" : run.conclusion === "failure" ? "failure" : "neutral";
}

/** Reads everything the dashboard shows. */
export async function readDashboard(repo: RepoRef, deps: DashboardDeps): Promise<DashboardInput> {
  const { port, config } = deps;
  const info = await port.readRepository({ repo });
  const draftPrefix = normalizePrefix(config.draftBranchPrefix);
  const refs = await readRevisionRefs(port, { repo, defaultBranch: info.defaultBranch, draftPrefix });
  const rows = deriveRevisions({
    repository: info.name,
    defaultBranch: info.defaultBranch,
    branches: refs.branches,
    tags: refs.tags,
    pullRequests: refs.pullRequests,
    mainPackages: topLevelPackages(refs.defaultBranchPaths).map((path) => ({
      path,
      sha: refs.defaultBranchSha,
    })),
    draftPrefix,
    directories: config.directories,
  });
  const tagNames = refs.tags.map((t) => t.name);
  const packages = [...new Set(rows.map((r) => r.packagePath))].map((path) => ({
    path,
    latest: latestRevision(tagNames, path),
  }));
  const open: OpenRevision[] = [];
  for (const r of rows) {
    if (r.lifecycle !== "Draft" && r.lifecycle !== "Proposed") continue;
    const branch = r.ref.replace(/^refs\/heads\//, "");
    open.push({
      package: r.packagePath,
      workspace: r.workspace,
      lifecycle: r.lifecycle,
      branch,
      ...(r.pullRequest !== undefined ? { pullRequest: r.pullRequest } : {}),
      verdict: await verdictOf(port, repo, r.sha),
      upgrade: parseDraftBranch(branch, { draftPrefix })?.workspace === UPGRADE_WORKSPACE,
    });
  }
  const self = repoKey(`${repo.owner}/${repo.repo}`);
  const entries = deps.index
    ? (await deps.index.all(deps.installationId)).filter((e) => e.upstream.repo === self)
    : [];
  return {
    repository: `${repo.owner}/${repo.repo}`,
    packages,
    open,
    downstreams: entries.map((e) => ({
      package: e.upstream.package,
      latest: latestRevision(tagNames, e.upstream.package),
      downstream: `${e.repo}/${e.package}`,
      revision: e.lock.revision,
      variant: e.variant,
    })),
  };
}

/** The app's dashboard issue among `issues` (labelled, written by a bot, carrying the marker). */
function ownIssue(issues: readonly Issue[]): Issue | undefined {
  return issues.find((i) => i.author.endsWith("[bot]") && i.body.startsWith(DASHBOARD_MARKER));
}

/** Creates or updates the dashboard of `repo`; returns a line for the log. */
export async function updateDashboard(repo: RepoRef, deps: DashboardDeps): Promise<string> {
  if (!deps.config.dashboard) return "dashboard off";
  const body = dashboardBody(await readDashboard(repo, deps));
  const existing = ownIssue(await deps.port.listIssues({ repo, label: DASHBOARD_LABEL }));
  if (!existing) {
    const number = await deps.port.createIssue({
      repo,
      title: DASHBOARD_TITLE,
      body,
      labels: [DASHBOARD_LABEL],
    });
    return `dashboard #${number} created`;
  }
  if (existing.body === body && existing.state === "open") return `dashboard #${existing.number} unchanged`;
  await deps.port.updateIssue({ repo, number: existing.number, body, state: "open" });
  return `dashboard #${existing.number} updated`;
}
