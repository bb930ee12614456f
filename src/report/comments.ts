/**
 * The pull request comments porchlight keeps (one per purpose, found again by its HTML marker and
 * updated in place): propose (cannot be proposed yet / renders cleanly now), publish, reject, and a
 * configuration that could not be read. Pure: the lifecycle decides, this module words it.
 */

/** Marker of the one comment proposing keeps up to date on a pull request. */
export const PROPOSE_COMMENT_MARKER = "<!-- porchlight:propose -->";
/** Marker of the publish comment. */
export const PUBLISH_COMMENT_MARKER = "<!-- porchlight:publish -->";
/** Marker of the reject comment. */
export const REJECT_COMMENT_MARKER = "<!-- porchlight:reject -->";
/** Marker of the comment saying the configuration could not be read. */
export const CONFIG_COMMENT_MARKER = "<!-- porchlight:config -->";

const short = (sha: string) => sha.slice(0, 7);

/** A pull request as the comments name it. */
export interface CommentedPull {
  headRef: string;
  headSha: string;
  /** GitHub draft pull request (before any conversion). */
  draft: boolean;
}

/**
 * Porch refuses to propose a revision that does not render: the failing steps, `converted` saying
 * whether the pull request is (now) a GitHub draft.
 */
export function proposeFailureComment(pr: CommentedPull, lines: string[], converted: boolean): string {
  const why = converted
    ? "Porch refuses to propose a package revision whose render fails (a function failed, or reported an error result), so this pull request was turned back into a **draft** (a GitHub draft pull request is a Draft revision)."
    : "Porch refuses to propose a package revision whose render fails (a function failed, or reported an error result): this pull request stays a **draft** until it renders.";
  return [
    PROPOSE_COMMENT_MARKER,
    "### ⛔ This revision cannot be proposed yet",
    "",
    why,
    "",
    `Failing at \`${short(pr.headSha)}\`:`,
    "",
    ...lines,
    "",
    `Push a fix to \`${pr.headRef}\`; once the \`porchlight/render\` check passes, mark the pull request ready for review.`,
  ].join("\n");
}

/** The all-clear after a complaint. */
export function proposeFixedComment(pr: CommentedPull): string {
  const next = pr.draft
    ? "Mark the pull request ready for review to propose the revision."
    : "The revision is proposed; merging it publishes it.";
  return [
    PROPOSE_COMMENT_MARKER,
    "### ✅ Renders cleanly now",
    "",
    `Every package this pull request touches renders at \`${short(pr.headSha)}\`. ${next}`,
  ].join("\n");
}

/** The rejected proposal goes back to Draft; the branch is kept. */
export function rejectComment(options: { packagePath: string; workspace: string; headRef: string }): string {
  return [
    REJECT_COMMENT_MARKER,
    "### ↩️ Proposal rejected",
    "",
    `Package \`${options.packagePath}\`, workspace \`${options.workspace}\` is a **Draft** revision again.`,
    `The branch \`${options.headRef}\` is kept: push to it to keep authoring, and reopen this pull request (or open a new one) to propose it again.`,
  ].join("\n");
}

/** A merged (or closed) pull request that was not processed because the configuration is unusable. */
export function configNotProcessedComment(message: string): string {
  return `${CONFIG_COMMENT_MARKER}\n### ⚠️ Not processed\n\n\`\`\`\n${message}\n\`\`\`\n\nNothing was published or changed.`;
}

/** What publishing did to one package, with the names the comment shows. */
export type PublishedLine =
  | { kind: "published"; name: string; tag: string; revision: number; objectName: string }
  | { kind: "already-published"; name: string; tag: string }
  | { kind: "tag-exists"; name: string; tag: string; existingSha?: string | undefined }
  | { kind: "deleted"; name: string; branch: string }
  | { kind: "refused"; name: string; problems: string[] };

/** The publish comment: what was published (or why not), and what happened to the draft branch. */
export function publishComment(options: {
  mergeCommitSha: string;
  headRef: string;
  lines: PublishedLine[];
  branchDeleted: boolean;
}): string {
  const { lines: results } = options;
  // "Published" only when this merge published something (or a redelivery finds it published).
  const heading = results.some((r) => r.kind === "published" || r.kind === "already-published")
    ? "### 📦 Published"
    : "### ⛔ Not published";
  const lines = [PUBLISH_COMMENT_MARKER, heading, ""];
  for (const r of results) {
    const pkg = `\`${r.name}\``;
    if (r.kind === "refused") {
      lines.push(
        `- ${pkg}: ⛔ **not published** — at the merge commit \`${short(options.mergeCommitSha)}\` it does not pass the merge gate:`,
        ...r.problems.map((p) => `  ${p.replace(/\n/g, "\n  ")}`),
      );
    } else if (r.kind === "published") {
      lines.push(
        `- ${pkg} revision ${r.revision}: tag \`${r.tag}\` on \`${short(options.mergeCommitSha)}\` (PackageRevision \`${r.objectName}\`)`,
      );
    } else if (r.kind === "already-published") {
      lines.push(`- ${pkg} was already published as \`${r.tag}\` at this merge commit`);
    } else if (r.kind === "deleted") {
      lines.push(
        `- ${pkg}: its revision at this merge commit was deleted (\`porchlight rpkg del\`; the commit is kept at branch \`${r.branch}\`) and is not published again`,
      );
    } else {
      lines.push(
        `- ${pkg}: ⚠️ tag \`${r.tag}\` already exists${r.existingSha ? ` at \`${short(r.existingSha)}\`` : ""} and was **not moved** — a published revision is immutable. Publish this content as a new revision from a new draft workspace.`,
      );
    }
  }
  if (results.some((r) => r.kind === "refused"))
    lines.push(
      "",
      "Porch refuses to approve a package revision that does not render (or whose readiness gates are not met), so no tag was created for it. To publish it: push a fix to a draft branch of the package, let the `porchlight/render` check pass, and merge its pull request. Require that check on the default branch (`porchlight protect <owner/repo>`) so such a merge is blocked.",
    );
  lines.push("");
  lines.push(
    options.branchDeleted
      ? `The draft branch \`${options.headRef}\` was deleted.`
      : `The draft branch \`${options.headRef}\` was kept.`,
  );
  return lines.join("\n");
}
