/**
 * Renders the packages a commit changes WITHOUT committing anything, applies the merge gate and
 * reports one `porchlight/render` check run on that commit. Shared by every use-case that judges a
 * commit instead of authoring it: propose (pull request head), merge queue (`merge_group.head_sha`),
 * re-run, and direct pushes to the default branch (the app never commits there).
 *
 * Steps: 1. one recursive tree read at `sha`; 2. touched packages = top-most packages holding the
 * changed paths (plus the draft branch's package), limited to the configured directories; none →
 * a `neutral` check ("touches no package") so a required check never waits forever; 3. render them in
 * memory (same engine as a draft push); 4. gate (./merge-gate.ts); 5. check run with the render
 * report, the gate section and annotations. A crash completes the check run with failure.
 */
import type { RepoConfig } from "../config/schema.js";
import type { GitHubPort, RepoRef, RepoTree } from "../github/port.js";
import { truncateSummary } from "../report/check-summary.js";
import { type GateVerdict, gateCheckReport } from "./merge-gate.js";
import { CheckRunTracker, RENDER_CHECK_NAME } from "./render-check.js";
import type { Log } from "./render-draft.js";
import { type RenderEngine, type RenderedPackages, renderPackagesAtSha } from "./render-packages.js";
import { directoryOf } from "./revision-list.js";
import { touchedPackages } from "./touched-packages.js";

/** Dependencies of the judging use-cases. */
export interface GateDeps {
  port: GitHubPort;
  engine: RenderEngine;
  log: Log;
  /** The repository configuration (`.github/porchlight.yml` from the default branch). */
  config: RepoConfig;
}

/** What {@link checkCommit} found and reported. */
export type CommitCheck =
  | { kind: "no-package"; checkRunId: number }
  | {
      kind: "judged";
      checkRunId: number;
      conclusion: string;
      verdict: GateVerdict;
      rendered: RenderedPackages;
      packagePaths: string[];
    };

/**
 * The packages judged at a commit — the same rule on every path that renders: the top-most package
 * holding each changed path, plus the package a draft branch names (`branchPackage`), limited to the
 * configured `directories` (`/` = the whole repository). Repository-relative, `""` = root package.
 */
export function judgedPackages(options: {
  tree: RepoTree;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  directories: readonly string[];
}): string[] {
  return touchedPackages({
    entries: options.tree.entries,
    changedPaths: options.changedPaths,
    branchPackage: options.branchPackage,
  }).filter((p) => directoryOf(p, options.directories) !== undefined);
}

/**
 * Judges commit `sha`: `changedPaths` are the files the change touches (pull request files, merge-group
 * diff, pushed files); `branchPackage` the package a draft branch names. `notes` are added to the
 * summary. Throws GitHubError when GitHub fails (after completing the check run with failure).
 */
export async function checkCommit(options: {
  repo: RepoRef;
  sha: string;
  changedPaths: readonly string[];
  branchPackage?: string | undefined;
  /** Judge every package of the commit (re-run of a default-branch commit, whose diff is unknown). */
  allPackages?: boolean;
  notes?: string[];
  deps: GateDeps;
}): Promise<CommitCheck> {
  const { repo, sha, deps } = options;
  const check = new CheckRunTracker({ port: deps.port, repo });
  try {
    const tree = await deps.port.readTree({ repo, sha });
    const packagePaths = judgedPackages({
      tree,
      changedPaths: options.allPackages ? tree.entries.map((e) => e.path) : options.changedPaths,
      branchPackage: options.branchPackage,
      directories: deps.config.directories,
    });
    if (packagePaths.length === 0) {
      const { id } = await deps.port.createCheckRun({
        repo,
        name: RENDER_CHECK_NAME,
        headSha: sha,
        status: "completed",
        conclusion: "neutral",
        output: {
          title: "No package changed",
          summary: `## porchlight/render\n\nThis change touches no kpt package (no directory with a Kptfile${deps.config.directories.join() === "/" ? "" : ` under ${deps.config.directories.join(", ")}`}): nothing to render.`,
        },
      });
      return { kind: "no-package", checkRunId: id };
    }
    const rendered = await renderPackagesAtSha({
      port: deps.port,
      repo,
      sha,
      tree,
      packagePaths,
      engine: deps.engine,
      pushOnFailure: deps.config.pushOnFailure,
    });
    const { report, verdict, annotations } = gateCheckReport({
      packages: rendered.packages,
      changes: rendered.changes,
      enforceReadinessGates: deps.config.enforceReadinessGates,
      notes: options.notes ?? [],
    });
    const checkRunId = await check.publish({ headSha: sha, report, annotations, externalId: sha });
    return { kind: "judged", checkRunId, conclusion: report.conclusion, verdict, rendered, packagePaths };
  } catch (error) {
    if (!check.completed) {
      await check
        .fail({ headSha: sha, message: error instanceof Error ? error.message : String(error) })
        .catch((e: unknown) => deps.log.error(`could not fail the check run on ${sha}: ${String(e)}`));
    }
    throw error;
  }
}

/**
 * Reports an unusable `.github/porchlight.yml` as one failed `porchlight/render` check run on `sha`
 * (the message names the file and the field) — instead of crashing or silently using defaults.
 */
export async function reportConfigError(options: {
  port: GitHubPort;
  repo: RepoRef;
  sha: string;
  message: string;
}): Promise<number> {
  const { id } = await options.port.createCheckRun({
    repo: options.repo,
    name: RENDER_CHECK_NAME,
    headSha: options.sha,
    status: "completed",
    conclusion: "failure",
    output: {
      title: "Invalid .github/porchlight.yml",
      summary: truncateSummary(
        `## porchlight/render\n\nThe repository configuration cannot be used, so nothing was rendered:\n\n\`\`\`\n${options.message}\n\`\`\`\n\nFix the file on the default branch (it is only read from there), then re-run this check.`,
      ),
    },
  });
  return id;
}
