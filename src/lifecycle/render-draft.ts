/**
 * Render a draft on push (Porch: a Draft PackageRevision is re-rendered whenever its resources change).
 *
 * Steps, for a push of `sha` to `drafts/<package-path>/<workspace>`:
 * 1. read the tree at `sha` once (recursive) and find the packages to render (`judgedPackages`): the
 *    top-most package holding each file the push — or the whole draft, compared with the default branch
 *    as its pull request is — changes, and the package the branch names, within the configured directories;
 * 2. read those packages' blobs only and render each with the engine (`pushOnFailure` policy);
 * 3. if the output differs (in more than the functions' result messages under `status.renderStatus`:
 *    `onlyRenderStatusDiffers` in ./merge-gate.ts), write ONE commit (parent `sha`, message naming the
 *    packages, trailer `Rendered-From: <sha>`) and move the branch without force — a 422 "not a fast forward" means a
 *    newer push exists: the result is dropped quietly (`superseded`), the newer push gets its own render;
 * 4. one check run `porchlight/render` on the commit that now holds the content (ours, or `sha`), its
 *    conclusion from the merge gate (`gateCheckReport`) exactly as on a pull request.
 * A crash anywhere completes the check run with failure (never left in progress). The app's own commit
 * comes back as a push: rendering it changes nothing, so it only gets its check — and if a function is
 * not idempotent we still never commit on top of our own commit (no loop).
 */
import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../config/schema.js";
import type { LifecyclePort } from "../github/lifecycle-port.js";
import { GitHubError, type GitHubPort, type RepoRef, type TreeChange } from "../github/port.js";
import type { PackageReport } from "../report/annotations.js";
import { judgedPackages } from "./gate-check.js";
import { contentDrift, type GateVerdict, gateCheckReport } from "./merge-gate.js";
import { CheckRunTracker } from "./render-check.js";
import { type RenderEngine, renderPackagesAtSha } from "./render-packages.js";
import { normalizePrefix, parseDraftBranch } from "./revisions.js";
import type { JobStart, WorkQueue } from "./work-queue.js";

/** Minimal logger (Probot's pino logger fits). */
export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A push to a draft branch, reduced to what the use-case needs. */
export interface DraftPush {
  repo: RepoRef;
  /** Branch name without `refs/heads/`, e.g. `drafts/apps/web/v2`. */
  branch: string;
  /** The pushed head sha. */
  sha: string;
  /** Files added, modified or removed by the push's commits (repository-relative). */
  changedPaths: string[];
  /** Message of the head commit (to recognise the app's own render commit). */
  headCommitMessage?: string;
  /**
   * The repository's default branch: when given (and the port can compare), the packages judged are
   * those the whole draft changes against it, as for its pull request.
   */
  defaultBranch?: string;
}

/** Dependencies of {@link renderDraft}. */
export interface RenderDraftDeps {
  /** The render port; with `compareFiles` (the lifecycle port) a push is judged on the whole draft. */
  port: GitHubPort & Partial<Pick<LifecyclePort, "compareFiles">>;
  engine: RenderEngine;
  log: Log;
  /** Per-branch serialization and duplicate detection; without it every call runs. */
  queue?: WorkQueue;
  /**
   * The repository configuration (`.github/porchlight.yml` from the default branch, the operator's
   * `PORCHLIGHT_PUSH_ON_FAILURE` as the default of `pushOnFailure`); all defaults when absent.
   */
  config?: RepoConfig;
}

/** What happened. */
export type RenderDraftOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "duplicate" }
  | { kind: "superseded" }
  | {
      kind: "reported";
      checkSha: string;
      committedSha?: string;
      conclusion: string;
      packages: string[];
      /** The merge gate on the reported commit (the same rules as a pull request's check). */
      verdict: GateVerdict;
    };

/** The commit trailer naming the commit a render commit was rendered from. */
export const RENDERED_FROM = "Rendered-From";

/** True when `message` carries a `Rendered-From:` trailer (the app's own render commit). */
export function isRenderCommit(message: string | undefined): boolean {
  return new RegExp(`^${RENDERED_FROM}: [0-9a-f]{7,64}\\s*$`, "m").test(message ?? "");
}

/** Up to this many packages are named in the commit subject; more are listed in the body only. */
export const SUBJECT_PACKAGE_LIMIT = 3;

/**
 * The render commit's message: the subject names the packages (`Render apps/web, apps/db`), or counts
 * them (`Render 12 packages`) when there are more than {@link SUBJECT_PACKAGE_LIMIT} — then the body
 * lists them, one a line; it ends with the `Rendered-From: <sha>` trailer.
 */
export function renderCommitMessage(options: { packages: PackageReport[]; sha: string }): string {
  const names = options.packages.map((p) => p.packagePath || ".");
  const failed = options.packages.filter((p) => !p.result.ok).map((p) => p.packagePath || ".");
  const many = names.length > SUBJECT_PACKAGE_LIMIT;
  const subject = many ? `Render ${names.length} packages` : `Render ${names.join(", ")}`;
  const failedNames = failed.length > SUBJECT_PACKAGE_LIMIT ? `${failed.length} packages` : failed.join(", ");
  const status = failed.length
    ? `Rendering failed for ${failedNames}; stored with the Kptfile status (pushOnFailure).`
    : "Rendered by porchlight (kpt fn render).";
  const list = many ? `\n\nPackages:\n${names.map((n) => `- ${n}`).join("\n")}` : "";
  return `${subject}\n\n${status}${list}\n\n${RENDERED_FROM}: ${options.sha}\n`;
}

async function commitChanges(options: {
  port: GitHubPort;
  push: DraftPush;
  baseTreeSha: string;
  changes: TreeChange[];
  message: string;
  /** Called with the new commit's sha just before the ref moves (its push webhook may come at once). */
  beforeRefUpdate?: (sha: string) => void;
}): Promise<{ kind: "committed"; sha: string } | { kind: "superseded"; message: string }> {
  const { port, push } = options;
  const treeSha = await port.createTree({
    repo: push.repo,
    baseTreeSha: options.baseTreeSha,
    changes: options.changes,
  });
  const sha = await port.createCommit({
    repo: push.repo,
    message: options.message,
    treeSha,
    parents: [push.sha],
  });
  options.beforeRefUpdate?.(sha);
  const moved = await port.updateBranch({ repo: push.repo, branch: push.branch, sha });
  return moved.kind === "updated" ? { kind: "committed", sha } : moved;
}

function isGitHubOutage(error: unknown): boolean {
  return error instanceof GitHubError && error.kind === "unavailable";
}

/** "GitHub failed" (retry later) versus "GitHub refused / porchlight failed" (a bug to report). */
function describeFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (isGitHubOutage(error))
    return `GitHub was unavailable (${text}). Push again or re-run the check to retry.`;
  if (error instanceof GitHubError)
    return `GitHub refused a request (${text}). This is likely a porchlight bug.`;
  return `porchlight failed: ${text}. This is a porchlight bug.`;
}

/**
 * What the draft changes: the push's own paths, plus — with `compareFiles` and the default branch —
 * every path the branch changes against the default branch (what its pull request's files are), so a
 * push and the pull request judge the same packages. A 404 (no common history) keeps the push's paths.
 */
async function draftChangedPaths(push: DraftPush, deps: RenderDraftDeps): Promise<string[]> {
  if (!push.defaultBranch || !deps.port.compareFiles) return push.changedPaths;
  try {
    const files = await deps.port.compareFiles({ repo: push.repo, base: push.defaultBranch, head: push.sha });
    return [...new Set([...push.changedPaths, ...files])].sort();
  } catch (error) {
    if (error instanceof GitHubError && error.status === 404) return push.changedPaths;
    throw error;
  }
}

async function renderDraftNow(
  push: DraftPush,
  deps: RenderDraftDeps,
  start: JobStart = { queued: false },
): Promise<RenderDraftOutcome> {
  const { port, log } = deps;
  // A push that waited behind another render of its branch may be stale by now (a burst of pushes):
  // when the branch no longer points at it, skip it — no render, no commit, and no check (the sha is
  // no longer any branch's head; the newer push gets its own render and check).
  if (start.queued && port.readBranchHead) {
    const head = await port.readBranchHead({ repo: push.repo, branch: push.branch });
    if (head !== push.sha) {
      log.info(`${push.branch}@${push.sha}: the branch moved on (now ${head ?? "deleted"}); not rendered`);
      return { kind: "superseded" };
    }
  }
  const config = deps.config ?? DEFAULT_REPO_CONFIG;
  const check = new CheckRunTracker({ port, repo: push.repo });
  let crashed: unknown;
  try {
    const tree = await port.readTree({ repo: push.repo, sha: push.sha });
    const draft = parseDraftBranch(push.branch, { draftPrefix: config.draftBranchPrefix });
    const paths = judgedPackages({
      tree,
      changedPaths: await draftChangedPaths(push, deps),
      branchPackage: draft?.packagePath,
      directories: config.directories,
    });
    if (paths.length === 0) return { kind: "ignored", reason: "the push touched no package" };
    const rendered = await renderPackagesAtSha({
      port,
      repo: push.repo,
      sha: push.sha,
      tree,
      packagePaths: paths,
      engine: deps.engine,
      pushOnFailure: config.pushOnFailure,
    });
    const notes: string[] = [];
    let committedSha: string | undefined;
    if (rendered.changes.length === 0) {
      notes.push(`Rendering ${push.sha.slice(0, 7)} changed nothing: no commit.`);
    } else if (contentDrift(rendered.packages, rendered.changes).size === 0) {
      // Only the steps' results in the Kptfile's status.renderStatus differ (a re-render of rendered
      // content reports "no value changed" where the first render said "1 value(s) changed"): no noise commit.
      notes.push(
        `Rendering ${push.sha.slice(0, 7)} changed no resource and no condition (only the functions' result messages in status.renderStatus): no commit.`,
      );
    } else if (isRenderCommit(push.headCommitMessage)) {
      notes.push(
        "Rendering the app's own render commit changed it again (a function is not idempotent): not committed.",
      );
      log.warn(`${push.branch}@${push.sha}: render of a render commit differs; not committing (loop guard)`);
    } else {
      const message = renderCommitMessage({ packages: rendered.packages, sha: push.sha });
      const outcome = await commitChanges({
        port,
        push,
        baseTreeSha: rendered.tree.treeSha,
        changes: rendered.changes,
        message,
        // Claim our commit's key before the ref moves: GitHub delivers its push while this task still
        // runs, and that push must not be rendered again — this task posts its one check.
        beforeRefUpdate: (sha) => deps.queue?.markDone(workKey({ ...push, sha })),
      });
      if (outcome.kind === "superseded") {
        log.info(
          `${push.branch}@${push.sha}: superseded by a newer push (${outcome.message}); result dropped`,
        );
        return { kind: "superseded" };
      }
      committedSha = outcome.sha;
      notes.push(
        `Rendered output committed as ${outcome.sha.slice(0, 7)} (rendered from ${push.sha.slice(0, 7)}).`,
      );
    }
    // The merge gate's rules, on the commit that now holds the content: our commit holds exactly the
    // render output (nothing left to change); the pushed sha is judged with what rendering would change.
    const { report, verdict, annotations } = gateCheckReport({
      packages: rendered.packages,
      changes: committedSha ? [] : rendered.changes,
      enforceReadinessGates: config.enforceReadinessGates,
      notes,
    });
    const checkSha = committedSha ?? push.sha;
    await check.publish({ headSha: checkSha, report, annotations, externalId: push.sha });
    return {
      kind: "reported",
      checkSha,
      conclusion: report.conclusion,
      packages: paths,
      verdict,
      ...(committedSha ? { committedSha } : {}),
    };
  } catch (error) {
    crashed = error;
    throw error;
  } finally {
    if (crashed !== undefined && !check.completed) {
      const message = describeFailure(crashed);
      (isGitHubOutage(crashed) ? log.warn : log.error).call(log, `${push.branch}@${push.sha}: ${message}`);
      await check.fail({ headSha: push.sha, message }).catch((e: unknown) => {
        log.error(
          `could not complete the check run for ${push.sha}: ${e instanceof Error ? e.message : String(e)}`,
        );
      });
    }
  }
}

/** The queue lane of a draft branch: renders of one branch run one at a time. */
export function draftLane(options: { repo: RepoRef; branch: string }): string {
  return `${options.repo.owner}/${options.repo.repo}#${options.branch}`;
}

/** The queue key of a draft push: (repo, sha, branch). */
function workKey(push: Pick<DraftPush, "repo" | "sha" | "branch">): string {
  return `${push.repo.owner}/${push.repo.repo}@${push.sha}#${push.branch}`;
}

/**
 * Renders the packages a draft push touched and reports the check run. With a queue, work is keyed
 * by (repo, sha, branch) — a redelivered webhook is a `duplicate` — and serialized per branch (newest
 * head wins). The packages are a function of that key (the tree at `sha` plus the branch's package),
 * so it identifies (repo, sha, packages); the branch is part of it because the same sha pushed to two
 * draft branches must be rendered onto each. Throws GitHubError when GitHub fails (after completing
 * the check run with failure).
 */
export async function renderDraft(push: DraftPush, deps: RenderDraftDeps): Promise<RenderDraftOutcome> {
  const prefix = normalizePrefix((deps.config ?? DEFAULT_REPO_CONFIG).draftBranchPrefix);
  if (!push.branch.startsWith(prefix)) return { kind: "ignored", reason: `not a ${prefix}** branch` };
  if (!deps.queue) return renderDraftNow(push, deps);
  const key = workKey(push);
  const queued = await deps.queue.run({
    lane: draftLane(push),
    key,
    task: (start) => renderDraftNow(push, deps, start),
  });
  if (queued.kind !== "done") {
    deps.log.info(`${push.branch}@${push.sha}: ${queued.kind}, not rendered again`);
    return queued;
  }
  // Our own commit's key was claimed before its ref update (see `beforeRefUpdate`): its push is a duplicate.
  return queued.value;
}
