/**
 * The reads of an upgrade (./upgrade-downstream.ts): each fact ./upgrade-decision.ts asks for, read from
 * GitHub into {@link UpgradeRun} — the decision's facts and the data the writer needs.
 */
import type { RepoRef } from "../../github/port.js";
import { UPGRADE_CHECK_NAME, upgradeNeedsReview } from "../../report/upgrade.js";
import { appCommitOf, rejectedAt, sameFiles } from "../app-draft.js";
import {
  type ComputedUpgrade,
  computeUpgrade,
  type DownstreamStatus,
  downstreamStatus,
  type UpstreamDeps,
} from "../upgrade-plan.js";
import { readPackageFiles, UpstreamBlockedError } from "../upstream-port.js";
import type { UpgradeFacts } from "./upgrade-decision.js";
import { readUpstreamDeletion } from "./upstream-deleted.js";

/** The job's input, and what was read for it (beyond the facts the decision sees). */
export interface UpgradeRun {
  input: { repo: RepoRef; pkg: string; defaultBranch: string; defaultSha: string };
  deps: UpstreamDeps;
  branch: string;
  facts: UpgradeFacts;
  status?: DownstreamStatus;
  upgrade?: ComputedUpgrade;
  /** The draft's head (the render of the app's commit, or that commit). */
  head?: string;
  ours?: string;
}

async function readStatus(run: UpgradeRun): Promise<void> {
  const { input, deps } = run;
  try {
    const status = await downstreamStatus({
      ...input,
      port: deps.port,
      host: deps.host,
      sha: input.defaultSha,
      access: deps.access,
    });
    run.status = status;
    run.facts.status = status
      ? { kind: "read", variant: Boolean(status.variant), current: status.current, latest: status.latest }
      : { kind: "none" };
  } catch (error) {
    if (!(error instanceof UpstreamBlockedError)) throw error;
    run.facts.status = { kind: "blocked", reason: error.message };
  }
}

async function readUpgrade(run: UpgradeRun): Promise<void> {
  const { deps, input } = run;
  const to = run.status!.latest!;
  try {
    const upgrade = await computeUpgrade({
      port: deps.port,
      host: deps.host,
      pkg: input.pkg,
      status: run.status!,
      to,
      access: deps.access,
    });
    run.upgrade = upgrade;
    run.facts.upgrade = {
      ok: true,
      overrides: upgrade.overrides.length,
      needsReview: upgradeNeedsReview(upgrade.state),
    };
  } catch (err) {
    run.facts.upgrade = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** The app draft and its pull request (see {@link DraftFacts}). */
async function readDraft(run: UpgradeRun): Promise<void> {
  const { deps, input, branch } = run;
  const { port } = deps;
  const repo = input.repo;
  const pulls = await port.listPullRequests({ repo, state: "open", base: input.defaultBranch });
  const open = pulls.find((p) => p.headRef === branch && p.sameRepository);
  const pull = open && { number: open.number, draft: Boolean(open.draft) };
  const headSha = await port.readBranchHead({ repo, branch });
  if (!headSha) {
    run.facts.draft = { pull, branch: undefined };
    return;
  }
  const snapshot = await port.readSnapshot({ repo, configPath: ".github/porchlight.yml", branch });
  const head = snapshot.branch ?? { sha: headSha, message: "" };
  const ours = await appCommitOf({ port, repo, head, checkName: UPGRADE_CHECK_NAME, appId: deps.appId });
  run.head = head.sha;
  run.ours = ours?.sha;
  const written = ours && (await readPackageFiles({ port, repo, sha: ours.sha, dir: input.pkg })).files;
  const holdsUpgrade = Boolean(written && sameFiles(written, run.upgrade!.files));
  const headReported =
    !holdsUpgrade ||
    head.sha === ours?.sha ||
    (await port.listCheckRuns({ repo, sha: head.sha, name: UPGRADE_CHECK_NAME })).length > 0;
  const rejected =
    holdsUpgrade && !pull ? await rejectedAt({ port, repo, branch, headSha: head.sha }) : undefined;
  run.facts.draft = {
    pull,
    branch: { head: head.sha, ours: ours?.sha, holdsUpgrade, headReported, rejected },
  };
}

/** The app's open upgrade pull request, if any (one request). */
async function readObsolete(run: UpgradeRun): Promise<void> {
  const { deps, input, branch } = run;
  const pulls = await deps.port.listPullRequests({
    repo: input.repo,
    state: "open",
    base: input.defaultBranch,
  });
  const open = pulls.find((p) => p.headRef === branch && p.sameRepository);
  run.facts.obsolete = open ? { number: open.number } : null;
}

/** Reads `fact` into `run`. Throws GitHub's errors (the job retries). */
export async function readFact(
  run: UpgradeRun,
  fact: "status" | "deletion" | "upgrade" | "draft" | "obsolete",
) {
  if (fact === "status") return readStatus(run);
  if (fact === "obsolete") return readObsolete(run);
  if (fact === "deletion")
    run.facts.deletion = (await readUpstreamDeletion(run.deps.port, run.input.pkg, run.status!)) ?? null;
  else if (fact === "upgrade") await readUpgrade(run);
  else await readDraft(run);
}
