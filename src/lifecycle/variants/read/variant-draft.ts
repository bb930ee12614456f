/**
 * Reading a variant's draft `drafts/<package>/variant-<name>`: its open pull request, whether its head
 * is the app's commit (a person who pushed to it keeps it), and whether that commit already holds the
 * variant's content, is reported on the head, or was rejected (closed unmerged at this head).
 */

import type { FileTree } from "../../../pkg/files.js";
import { UPGRADE_CHECK_NAME } from "../../../report/upgrade.js";
import { appCommitOf, rejectedAt, sameFiles } from "../../app-draft.js";
import { readPackageFiles } from "../../upstream-port.js";
import type { VariantReadContext } from "./variant-target.js";

/** An open pull request of the repository, as the port lists them. */
export type OpenPull = { number: number; headRef: string; sameRepository: boolean };

/** What a variant's draft branch holds (see {@link readVariantDraft}). */
export interface DraftFacts {
  branch: string;
  /** The number of the draft's open pull request from this repository, when there is one. */
  pull: number | undefined;
  /** The branch head; absent when the branch does not exist. */
  head?: {
    sha: string;
    /** The app's commit the head stands for; absent when a person pushed to the draft. */
    ours?: {
      sha: string;
      /** Whether it holds exactly the files the variant should write. */
      holds: boolean;
      /** Whether the head carries the app's report (the head is the app's commit, or a run is there). */
      reported: boolean;
      /** A pull request closed unmerged at this head (only read when it holds and none is open). */
      rejected: number | undefined;
    };
  };
}

/** Whether the app's commit `oursSha` holds `files` below `pkg`, and what the decision needs then. */
async function readOurs(
  ctx: VariantReadContext,
  draft: { branch: string; pkg: string; files: FileTree; headSha: string; pull: number | undefined },
  oursSha: string,
): Promise<NonNullable<NonNullable<DraftFacts["head"]>["ours"]>> {
  const { port } = ctx.deps;
  const { repo } = ctx;
  const written = (await readPackageFiles({ port, repo, sha: oursSha, dir: draft.pkg })).files;
  if (!sameFiles(written, draft.files))
    return { sha: oursSha, holds: false, reported: false, rejected: undefined };
  const reported =
    draft.headSha === oursSha ||
    (await port.listCheckRuns({ repo, sha: draft.headSha, name: UPGRADE_CHECK_NAME })).length > 0;
  const rejected =
    draft.pull !== undefined
      ? undefined
      : await rejectedAt({ port, repo, branch: draft.branch, headSha: draft.headSha });
  return { sha: oursSha, holds: true, reported, rejected };
}

/** Reads the draft `branch` of the variant whose package `pkg` should hold `files`. */
export async function readVariantDraft(
  ctx: VariantReadContext,
  options: { branch: string; pkg: string; files: FileTree; pulls: readonly OpenPull[] },
): Promise<DraftFacts> {
  const { port } = ctx.deps;
  const { repo } = ctx;
  const { branch } = options;
  const pull = options.pulls.find((p) => p.headRef === branch && p.sameRepository)?.number;
  const headSha = await port.readBranchHead({ repo, branch });
  if (!headSha) return { branch, pull };
  const snapshot = await port.readSnapshot({ repo, configPath: ".github/porchlight.yml", branch });
  const head = snapshot.branch ?? { sha: headSha, message: "" };
  const ours = await appCommitOf({ port, repo, head, checkName: UPGRADE_CHECK_NAME, appId: ctx.deps.appId });
  if (!ours) return { branch, pull, head: { sha: head.sha } };
  const facts = await readOurs(ctx, { ...options, headSha: head.sha, pull }, ours.sha);
  return { branch, pull, head: { sha: head.sha, ours: facts } };
}
