/**
 * Drafts the app writes for a downstream package (an upgrade, a PackageVariant's clone / upgrade /
 * edit): a branch `drafts/<package>/<workspace>` from the default branch holding the package's new
 * files, one compare-and-swap commit at a time, and its pull request. The app's commits carry a
 * check run of their own (`porchlight/upgrade`), which is also how the app recognises them later:
 * a branch whose head is neither such a commit nor the render of one has been pushed to by a person,
 * and the app then never writes to it.
 */
import type { FileAddition, FileChanges, RepoRef } from "../github/port.js";
import type { FileTree } from "../pkg/files.js";
import { isRenderCommit, RENDERED_FROM } from "../report/commit-message.js";
import { readPackageFiles, type UpstreamPort } from "./upstream-port.js";
import { RENDER_CHECK_NAME } from "./verdict.js";

/** The changes that turn `before` into `after` below `dir` (repository-relative paths). */
export function changesBetween(options: {
  dir: string;
  before: FileTree;
  after: FileTree;
  executables?: ReadonlySet<string>;
}): FileChanges {
  const join = (f: string) => (options.dir ? `${options.dir}/${f}` : f);
  const additions: FileAddition[] = [];
  const deletions: string[] = [];
  for (const [file, content] of [...options.after].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (options.before.get(file)?.equals(content)) continue;
    additions.push({
      path: join(file),
      content: new Uint8Array(content),
      mode: options.executables?.has(file) ? "100755" : "100644",
    });
  }
  for (const file of [...options.before.keys()].sort())
    if (!options.after.has(file)) deletions.push(join(file));
  return { additions, deletions };
}

/** Whether two trees hold the same files. */
export function sameFiles(a: FileTree, b: FileTree): boolean {
  if (a.size !== b.size) return false;
  for (const [file, content] of a) if (!b.get(file)?.equals(content)) return false;
  return true;
}

/** The sha a render commit was rendered from (its `Rendered-From:` trailer). */
export function renderedFrom(message: string): string | undefined {
  if (!isRenderCommit(message)) return undefined;
  return new RegExp(`^${RENDERED_FROM}: ([0-9a-f]{7,64})\\s*$`, "m").exec(message)?.[1];
}

/**
 * The app's own commit a branch head stands for: the head itself when it carries the app's check run
 * `checkName`, or the commit it was rendered from when that one does. Undefined when a person pushed.
 */
export async function appCommitOf(options: {
  port: UpstreamPort;
  repo: RepoRef;
  head: { sha: string; message: string };
  checkName: string;
  appId: number | undefined;
}): Promise<{ sha: string; externalId: string | undefined } | undefined> {
  const { port, repo, head } = options;
  const candidate = renderedFrom(head.message) ?? head.sha;
  const runs = await port.listCheckRuns({ repo, sha: candidate, name: options.checkName });
  const ours = runs.find(
    (r) => options.appId === undefined || r.appId === undefined || r.appId === options.appId,
  );
  return ours ? { sha: candidate, externalId: ours.externalId } : undefined;
}

/** What {@link writeDraft} did. */
export type DraftWrite =
  | { kind: "committed"; sha: string; created: boolean }
  | { kind: "unchanged"; sha: string }
  | { kind: "superseded" };

/**
 * Makes `branch` hold `files` below `dir`: creates the branch from `baseSha` when missing, then
 * commits the difference against the branch head (compare-and-swap on that head).
 */
export async function writeDraft(options: {
  port: UpstreamPort;
  repo: RepoRef;
  branch: string;
  baseSha: string;
  dir: string;
  files: FileTree;
  executables?: ReadonlySet<string>;
  message: string;
}): Promise<DraftWrite> {
  const { port, repo, branch, dir } = options;
  let head = await port.readBranchHead({ repo, branch });
  let created = false;
  if (!head) {
    const outcome = await port.createBranch({ repo, branch, sha: options.baseSha });
    head = outcome.kind === "created" ? options.baseSha : await port.readBranchHead({ repo, branch });
    created = outcome.kind === "created";
    if (!head) return { kind: "superseded" };
  }
  const current = await readPackageFiles({ port, repo, sha: head, dir });
  const changes = changesBetween({
    dir,
    before: current.files,
    after: options.files,
    executables: options.executables,
  });
  if (changes.additions.length === 0 && changes.deletions.length === 0)
    return { kind: "unchanged", sha: head };
  const outcome = await port.commitFiles({
    repo,
    branch,
    expectedHead: head,
    message: options.message,
    changes,
  });
  return outcome.kind === "committed"
    ? { kind: "committed", sha: outcome.sha, created }
    : { kind: "superseded" };
}

/**
 * The pull request of `branch` that was closed without merging while the branch was at `headSha`:
 * a person rejected exactly this content (Porch's reject), so the app does not propose it again.
 */
export async function rejectedAt(options: {
  port: UpstreamPort;
  repo: RepoRef;
  branch: string;
  headSha: string;
}): Promise<number | undefined> {
  const pulls = await options.port.listBranchPullRequests({ repo: options.repo, branch: options.branch });
  return pulls.find((p) => p.state === "closed" && !p.merged && p.headSha === options.headSha)?.number;
}

/**
 * Whether `sha` carries this app's passing `porchlight/render` verdict (its newest run of that name is
 * completed with `success`).
 */
export async function renderedGreen(options: {
  port: UpstreamPort;
  repo: RepoRef;
  sha: string;
  appId: number | undefined;
}): Promise<boolean> {
  const runs = (
    await options.port.listCheckRuns({ repo: options.repo, sha: options.sha, name: RENDER_CHECK_NAME })
  ).filter((r) => options.appId === undefined || r.appId === undefined || r.appId === options.appId);
  const newest = runs.reduce<(typeof runs)[number] | undefined>(
    (best, r) => (best === undefined || r.id > best.id ? r : best),
    undefined,
  );
  return newest?.status === "completed" && newest.conclusion === "success";
}
