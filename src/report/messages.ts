/**
 * The short texts users read in check runs and logs, beyond the render report itself (./check-summary.ts):
 * notes added to a summary, the outputs of checks that report no render (configuration error, no
 * package, a crash), size-limit refusals and failure descriptions. Pure.
 */
import type { CheckOutput } from "../github/port.js";
import { truncateSummary } from "./check-summary.js";

const short = (sha: string) => sha.slice(0, 7);

/** Human size: `812 B`, `40.1 MB` (decimal units, as GitHub shows file sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes;
  let unit = "B";
  for (const u of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = u;
  }
  return `${value.toFixed(1)} ${unit}`;
}

/**
 * Why a package was not rendered: a file (or the whole package) over the operator's limit — naming the
 * file, its size, the limit and the setting that raises it.
 */
export function oversizeMessage(options: {
  file: string;
  size: number;
  limit: number;
  setting: string;
  packagePath?: string;
  packageSize?: number;
}): string {
  const limit = `${formatBytes(options.limit)} (${options.setting}, set by the operator of this app)`;
  if (options.packagePath !== undefined && options.packageSize !== undefined)
    return `package ${options.packagePath} is ${formatBytes(options.packageSize)}, over the limit of ${limit}; its largest file is ${options.file} (${formatBytes(options.size)}). Nothing was rendered.`;
  return `${options.file} is ${formatBytes(options.size)}, over the limit of ${limit} for one file. Nothing was rendered.`;
}

/** Summary notes of a draft render, by what happened to its output. */
export const renderNotes = {
  unchanged: (sha: string) => `Rendering ${short(sha)} changed nothing: no commit.`,
  onlyResults: (sha: string) =>
    `Rendering ${short(sha)} changed no resource and no condition (only the functions' result messages in status.renderStatus): no commit.`,
  loopGuard: () =>
    "Rendering the app's own render commit changed it again (a function is not idempotent): not committed.",
  committed: (committed: string, from: string) =>
    `Rendered output committed as ${short(committed)} (rendered from ${short(from)}).`,
  rerun: (pullRequest?: number) => (pullRequest ? `Re-run for pull request #${pullRequest}.` : "Re-run."),
  mergeQueue: () => "Merge queue: rendered in memory, nothing committed.",
  defaultBranch: () =>
    "Direct push to the default branch: checked only; porchlight never commits to the default branch.",
  execNotAllowed: () =>
    "This app runs `exec:` functions only when its operator sets PORCHLIGHT_ALLOW_EXEC=true.",
  annotationsOmitted: (omitted: number, limit: number) =>
    `${omitted} more result(s) naming a file are not annotated (limit ${limit}).`,
};

/** The failed check reporting an unusable `.github/porchlight.yml` (nothing is rendered with it). */
export function configErrorOutput(message: string): CheckOutput {
  return {
    title: "Invalid .github/porchlight.yml",
    summary: truncateSummary(
      `## porchlight/render\n\nThe repository configuration cannot be used, so nothing was rendered:\n\n\`\`\`\n${message}\n\`\`\`\n\nFix the file on the default branch (it is only read from there), then re-run this check.`,
    ),
  };
}

/** The neutral check of a change that touches no package (so a required check never waits forever). */
export function noPackageOutput(directories: readonly string[]): CheckOutput {
  const where = directories.join() === "/" ? "" : ` under ${directories.join(", ")}`;
  return {
    title: "No package changed",
    summary: `## porchlight/render\n\nThis change touches no kpt package (no directory with a Kptfile${where}): nothing to render.`,
  };
}

/** The neutral check of a branch that looks like a Draft branch but is not one (nothing is rendered). */
export function notADraftOutput(branch: string, reason: string): CheckOutput {
  return {
    title: "Not a Draft: nothing rendered",
    summary: `## porchlight/render\n\nBranch \`${branch}\` is not treated as a Draft revision: ${reason}.\n\nporchlight renders and commits only on Draft branches; this commit was not rendered.`,
  };
}

/** The neutral check of a Published revision proposed for deletion (branch `deletion-proposed/<tag>`). */
export function deletionProposedOutput(tag: string): CheckOutput {
  return {
    title: `DeletionProposed: ${tag}`,
    summary: `## porchlight/render\n\nPublished revision \`${tag}\` is proposed for deletion (DeletionProposed).\n\n- approve the deletion: \`porchlight rpkg del\` — the tag is deleted and its commit kept at branch \`deleted/${tag}\`;\n- reject it: \`porchlight rpkg reject\` (or delete this branch) — the revision is Published again.`,
  };
}

/** The failed check of a render that stopped before it could report. */
export function crashOutput(message: string): CheckOutput {
  return {
    title: "porchlight failed to render this commit",
    summary: truncateSummary(
      `## porchlight/render\n\nRendering stopped before it could report:\n\n\`\`\`\n${message}\n\`\`\``,
    ),
  };
}

/** "GitHub failed" (retry later), "GitHub refused" (a request we should not have made) or a crash. */
export function describeFailure(error: unknown, kind: "unavailable" | "rejected" | "crash"): string {
  const text = error instanceof Error ? error.message : String(error);
  if (kind === "unavailable")
    return `GitHub was unavailable (${text}). It is retried; re-run the check to retry now.`;
  if (kind === "rejected") return `GitHub refused a request (${text}).`;
  return `porchlight failed: ${text}. This is a porchlight bug.`;
}
