/**
 * Reconciles the PackageVariants of one repository as Porch's controller does, with drafts and pull
 * requests instead of PackageRevisions. Level-triggered, from the default branch's head; each phase
 * in its folder, as the controller reads, decides, then writes:
 * 1. `read/`: the variants (PackageVariant, and PackageVariantSet expanded to its targets in this
 *    repository) and the injectable resources of the configured directories; for each valid variant
 *    what its downstream should hold (clone, upgrade or edit, or a downstream it may not adopt) and
 *    its draft `drafts/<package>/variant-<name>`; the drafts of variants that are gone;
 * 2. `decide/` (pure): each variant's row and writes (a draft a person pushed to is left alone; a pull
 *    request closed unmerged is not reopened for the same content), each gone draft's fate
 *    (`deletionPolicy`), the report;
 * 3. `write/`: the one writer applies the plans; then the report goes on the
 *    `porchlight/package-variants` check run of the default branch's head.
 */
import type { RepoRef } from "../../github/port.js";
import { PACKAGE_VARIANTS_CHECK_NAME, type VariantRow } from "../../report/package-variants.js";
import { ensureCheckRun } from "../ensure-check-run.js";
import { formatDraftBranch } from "../revision-naming.js";
import type { UpstreamDeps } from "../upgrade-plan.js";
import { decideGoneDraft } from "./decide/gone-drafts.js";
import { decideVariant, holdsVariant, type VariantPlan } from "./decide/variant-plan.js";
import { variantsReport } from "./decide/variants-report.js";
import type { Injectable } from "./mutations.js";
import { applyVariant } from "./mutations.js";
import { VARIANT_WORKSPACE_PREFIX } from "./naming.js";
import { type PackageVariant, toValidVariant, type ValidVariant } from "./package-variant.js";
import { readGoneDrafts } from "./read/gone-drafts.js";
import { type OpenPull, readVariantDraft } from "./read/variant-draft.js";
import { readVariantSources } from "./read/variant-sources.js";
import { readVariantTarget, resolveVariant, type VariantReadContext } from "./read/variant-target.js";
import { applyGonePlan, applyVariantPlan, type VariantWriteContext } from "./write/apply-plans.js";

export { VARIANT_WORKSPACE_PREFIX } from "./naming.js";

/** The row of a variant that failed before anything was written. */
function failedRow(pv: ValidVariant, err: unknown): VariantRow {
  const message = err instanceof Error ? err.message : String(err);
  return { name: pv.name, file: pv.file, downstream: pv.downstream.package, state: "failed", message };
}

/** Reads what one valid variant needs and decides its plan. */
async function planVariant(
  ctx: VariantReadContext & { pulls: readonly OpenPull[]; injectables: readonly Injectable[] },
  valid: ValidVariant,
): Promise<VariantPlan> {
  const pv = await resolveVariant(ctx.deps, valid);
  const target = await readVariantTarget(ctx, pv);
  if (target.kind === "refused") return { row: { ...failedRow(pv, new Error(target.message)) } };
  const mutated = applyVariant({ files: target.files, variant: pv, injectables: ctx.injectables });
  const content = { ...target, files: mutated.files, injections: mutated.injections };
  if (holdsVariant(content)) return decideVariant(pv, content, undefined);
  const branch = formatDraftBranch(
    { packagePath: pv.downstream.package, workspace: `${VARIANT_WORKSPACE_PREFIX}${pv.name}` },
    { draftPrefix: ctx.deps.config.draftBranchPrefix },
  );
  try {
    const pkg = pv.downstream.package;
    const draft = await readVariantDraft(ctx, { branch, pkg, files: mutated.files, pulls: ctx.pulls });
    return decideVariant(pv, content, draft);
  } catch (err) {
    return { row: { ...failedRow(pv, err), injections: mutated.injections } };
  }
}

/** Validates the declared variants: the valid ones, and a row for each invalid or duplicate one. */
function validateVariants(
  variants: readonly PackageVariant[],
  ownRepo: string,
): Array<{ valid: ValidVariant } | { invalid: VariantRow }> {
  const names = new Set<string>();
  return variants.map((raw) => {
    try {
      const pv = toValidVariant(raw, ownRepo);
      if (names.has(pv.name)) throw new Error(`duplicate PackageVariant name ${JSON.stringify(pv.name)}`);
      names.add(pv.name);
      return { valid: pv };
    } catch (err) {
      const downstream = raw.spec.downstream?.package ?? "";
      const message = String((err as Error).message);
      return { invalid: { name: raw.name, file: raw.file, downstream, state: "invalid", message } };
    }
  });
}

/** Reconciles the repository's variants; returns a line for the log. */
export async function reconcileVariants(
  input: { repo: RepoRef; defaultBranch: string; defaultSha: string },
  deps: UpstreamDeps,
): Promise<string> {
  const { repo, defaultSha } = input;
  const { port } = deps;
  const tree = await port.readTree({ repo, sha: defaultSha });
  const sources = await readVariantSources({ deps, repo, entries: tree.entries });
  const pulls = await port.listPullRequests({ repo, state: "open", base: input.defaultBranch });
  const ctx = { deps, repo, defaultSha, tree: tree.entries, pulls, injectables: sources.injectables };
  const plans: VariantPlan[] = [];
  for (const checked of validateVariants(sources.variants, `${repo.owner}/${repo.repo}`)) {
    if ("invalid" in checked) plans.push({ row: checked.invalid });
    else
      plans.push(
        await planVariant(ctx, checked.valid).catch((err) => ({ row: failedRow(checked.valid, err) })),
      );
  }
  const names = new Set([...sources.variants.map((v) => v.name), ...plans.map((p) => p.row.name)]);
  const gone = (await readGoneDrafts({ deps, repo, names, pulls })).map(decideGoneDraft);

  const writes: VariantWriteContext = { deps, repo, defaultBranch: input.defaultBranch, defaultSha };
  const rows: VariantRow[] = [];
  for (const plan of plans) rows.push(await applyVariantPlan(writes, plan));
  for (const plan of gone) rows.push(await applyGonePlan(writes, plan));
  const report = variantsReport(rows, sources.problems, sources.notes);
  await ensureCheckRun(port, { repo, name: PACKAGE_VARIANTS_CHECK_NAME, sha: defaultSha, ...report });
  const { problems } = sources;
  return `${rows.length} variant(s)${problems.length ? `, ${problems.length} problem(s)` : ""}`;
}
