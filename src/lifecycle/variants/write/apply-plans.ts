/**
 * The one writer of the variants use-case: applies what was decided. A variant's draft commit
 * (compare-and-swap on the draft's head), the app's report on it (which also marks the commit as the
 * app's), its pull request; a gone draft's pull request closed and branch deleted. Fills the rows'
 * pull request numbers; a variant whose writes fail gets a failed row, the others go on.
 */
import type { RepoRef } from "../../../github/port.js";
import type { VariantRow } from "../../../report/package-variants.js";
import { variantDraftBody, variantDraftTitle } from "../../../report/package-variants.js";
import { UPGRADE_CHECK_NAME } from "../../../report/upgrade.js";
import { writeDraft } from "../../app-draft.js";
import type { UpstreamDeps } from "../../upgrade-plan.js";
import type { GonePlan } from "../decide/gone-drafts.js";
import type { PullWrite, VariantPlan, VariantWrites } from "../decide/variant-plan.js";
import { variantExternalId } from "../naming.js";

/** Where the writes go: the repository, its default branch and head. */
export interface VariantWriteContext {
  deps: UpstreamDeps;
  repo: RepoRef;
  defaultBranch: string;
  defaultSha: string;
}

/** The app's report on a variant draft commit (also what marks the commit as the app's). */
async function postVariantCheck(ctx: VariantWriteContext, w: VariantWrites, sha: string): Promise<void> {
  const { variant: pv, action, overrides } = w;
  await ctx.deps.port.createCheckRun({
    repo: ctx.repo,
    name: UPGRADE_CHECK_NAME,
    headSha: sha,
    status: "completed",
    conclusion: overrides.length > 0 ? "neutral" : "success",
    output: {
      title: `PackageVariant ${pv.name}: ${action}`,
      summary: variantDraftBody({ pv, action, overrides }),
    },
    externalId: variantExternalId(pv, action),
  });
}

/** The pull request as decided; resolves its number. */
async function writePull(ctx: VariantWriteContext, w: VariantWrites, pull: PullWrite): Promise<number> {
  const { variant: pv, action } = w;
  const { port } = ctx.deps;
  if (pull.kind === "keep") return pull.number;
  if (pull.kind === "update") {
    const body = variantDraftBody({ pv, action, overrides: w.overrides });
    await port.updatePullRequest({
      repo: ctx.repo,
      number: pull.number,
      title: variantDraftTitle(pv, action),
      body,
    });
    return pull.number;
  }
  const created = await port.createPullRequest({
    repo: ctx.repo,
    head: w.branch,
    base: ctx.defaultBranch,
    title: variantDraftTitle(pv, action),
    body: variantDraftBody({ pv, action, overrides: pull.overrides }),
  });
  return created.number;
}

/** Applies one variant's writes, in order; throws when the draft moved while it was written. */
async function applyWrites(ctx: VariantWriteContext, w: VariantWrites, row: VariantRow): Promise<void> {
  let reportOn = w.reportOn;
  if (w.commit) {
    const write = await writeDraft({
      port: ctx.deps.port,
      repo: ctx.repo,
      branch: w.branch,
      baseSha: ctx.defaultSha,
      dir: w.variant.downstream.package,
      files: w.commit.files,
      message: w.commit.message,
    });
    if (write.kind === "superseded")
      throw new Error(`${w.branch} moved while it was written; the next run retries`);
    reportOn = write.sha;
  }
  if (reportOn !== undefined) await postVariantCheck(ctx, w, reportOn);
  if (w.pull) row.pull = await writePull(ctx, w, w.pull);
}

/** Applies a variant's plan; its row, failed with the reason when a write fails. */
export async function applyVariantPlan(ctx: VariantWriteContext, plan: VariantPlan): Promise<VariantRow> {
  const row = { ...plan.row };
  if (!plan.writes) return row;
  try {
    await applyWrites(ctx, plan.writes, row);
  } catch (err) {
    row.state = "failed";
    row.message = err instanceof Error ? err.message : String(err);
  }
  return row;
}

/** Ends a gone variant's draft as decided (`deletionPolicy: delete`): pull request closed, branch deleted. */
export async function applyGonePlan(ctx: VariantWriteContext, plan: GonePlan): Promise<VariantRow> {
  if (plan.remove) {
    const { branch, pull } = plan.remove;
    if (pull !== undefined)
      await ctx.deps.port.updatePullRequest({ repo: ctx.repo, number: pull, state: "closed" });
    await ctx.deps.port.deleteBranch({ repo: ctx.repo, branch });
  }
  return plan.row;
}
