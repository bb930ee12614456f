/**
 * Deciding, purely, what one variant's reconciliation does from what was read: the row the report
 * shows and the writes that bring the draft to the variant's content (Porch's PackageVariant
 * controller deciding between leaving, proposing and updating a downstream PackageRevision).
 */
import type { FileTree } from "../../../pkg/files.js";
import type { ResourceOverride } from "../../../pkg/merge3/package-merge.js";
import type { VariantRow } from "../../../report/package-variants.js";
import { sameFiles } from "../../app-draft.js";
import type { DraftFacts } from "../read/variant-draft.js";
import type { ResolvedVariant, VariantAction } from "../read/variant-target.js";

/** The downstream content the variant should hold: the target's files with its mutations applied. */
export interface VariantContent {
  action: VariantAction;
  base: FileTree | undefined;
  files: FileTree;
  overrides: ResourceOverride[];
  injections: VariantRow["injections"];
}

/** How the draft's pull request ends up: kept as it is, updated (title, body), or opened. */
export type PullWrite =
  | { kind: "keep"; number: number }
  | { kind: "update"; number: number }
  | { kind: "open"; overrides: ResourceOverride[] };

/** The writes of one variant, in order: the draft commit, the app's report, the pull request. */
export interface VariantWrites {
  variant: ResolvedVariant;
  action: VariantAction;
  overrides: ResourceOverride[];
  branch: string;
  /** Commit `files` to the draft (then report on the new commit). */
  commit?: { files: FileTree; message: string };
  /** Report on this existing commit (the draft's head that lacks the app's report). */
  reportOn?: string;
  /** Absent: the pull request is not touched (a rejected proposal). */
  pull?: PullWrite;
}

/** One variant's outcome: the row (its `pull` filled by the writer when it opens one) and the writes. */
export interface VariantPlan {
  row: VariantRow;
  writes?: VariantWrites;
}

/** Whether the downstream on the default branch already holds the variant's content. */
export function holdsVariant(content: VariantContent): boolean {
  return content.base !== undefined && sameFiles(content.base, content.files);
}

/** The app's commit message for a variant's draft. */
export function variantCommitMessage(pv: ResolvedVariant, action: VariantAction): string {
  const pkg = pv.downstream.package;
  return `PackageVariant ${pv.name}: ${action} ${pkg} (${pv.upstream.repo} ${pv.upstream.package}/v${pv.upstream.revision})\n`;
}

/**
 * The plan of a variant whose content is `content` and whose draft is `draft` (absent: not read,
 * because the default branch already holds the content). Pure.
 */
export function decideVariant(
  pv: ResolvedVariant,
  content: VariantContent,
  draft: DraftFacts | undefined,
): VariantPlan {
  const row: VariantRow = {
    name: pv.name,
    file: pv.file,
    downstream: pv.downstream.package,
    state: "current",
    injections: content.injections,
  };
  if (holdsVariant(content) || draft === undefined) return { row };
  const { action, overrides } = content;
  const writes = { variant: pv, action, overrides, branch: draft.branch };
  const ours = draft.head?.ours;
  if (draft.head && !ours) {
    return {
      row: {
        ...row,
        state: "held",
        message: "someone pushed to the draft; porchlight leaves it",
        pull: draft.pull,
      },
    };
  }
  if (ours?.holds) {
    const reportOn = ours.reported ? undefined : draft.head?.sha;
    if (ours.rejected !== undefined) {
      const message = `pull request #${ours.rejected} was closed without merging; a change of the variant or of its upstream proposes again`;
      const rejected: VariantRow = { ...row, state: "rejected", message, pull: ours.rejected };
      return { row: rejected, ...(reportOn ? { writes: { ...writes, reportOn } } : {}) };
    }
    const pull: PullWrite =
      draft.pull !== undefined ? { kind: "keep", number: draft.pull } : { kind: "open", overrides: [] };
    return { row: { ...row, state: action }, writes: { ...writes, ...(reportOn ? { reportOn } : {}), pull } };
  }
  const pull: PullWrite =
    draft.pull !== undefined ? { kind: "update", number: draft.pull } : { kind: "open", overrides };
  const commit = { files: content.files, message: variantCommitMessage(pv, action) };
  return { row: { ...row, state: action }, writes: { ...writes, commit, pull } };
}
