/**
 * One comment per purpose on a pull request, updated in place instead of piling up: the comment is
 * found by an HTML marker (`<!-- porchlight:... -->`) that the body starts with.
 */
import type { GitHubPort, IssueComment, RepoRef } from "../github/port.js";

/** What {@link upsertComment} did. */
export type UpsertOutcome = "created" | "updated" | "unchanged" | "skipped";

/**
 * Creates the comment carrying `marker`, or updates the existing one (the newest, if several).
 * `onlyIfExists` updates but never creates (e.g. an all-clear that only makes sense after a complaint).
 * The body must contain the marker. No request is made when the body is already the same.
 */
export async function upsertComment(options: {
  port: GitHubPort;
  repo: RepoRef;
  issueNumber: number;
  marker: string;
  body: string;
  onlyIfExists?: boolean;
  /** The issue's comments when the caller read them already (no second read). */
  comments?: IssueComment[];
}): Promise<UpsertOutcome> {
  const { port, repo, issueNumber, marker, body } = options;
  if (!body.includes(marker)) throw new Error(`comment body must carry its marker ${marker}`);
  const comments = options.comments ?? (await port.listComments({ repo, issueNumber }));
  const existing = comments.filter((c) => c.body.includes(marker)).at(-1);
  if (existing) {
    if (existing.body === body) return "unchanged";
    await port.updateComment({ repo, commentId: existing.id, body });
    return "updated";
  }
  if (options.onlyIfExists) return "skipped";
  await port.createComment({ repo, issueNumber, body });
  return "created";
}
