/**
 * The one-request snapshot a job starts from (GraphQL): the default branch and its head, the
 * configuration file (the repository's, else the owner's `.github` repository's, as Probot reads it),
 * and when asked one branch head and one pull request.
 */
import {
  GitHubError,
  type PullRequestState,
  type RepoRef,
  type RepoSnapshot,
  type RepositoryOperations,
} from "../port.js";
import { type GraphqlError, graphql, type Octokit } from "./client.js";

interface BlobText {
  text: string | null;
  isTruncated: boolean;
}

interface SnapshotData {
  repository: {
    defaultBranchRef: { name: string; target: { oid: string } | null } | null;
    config: BlobText | null;
    ref?: { name: string; target: { oid: string; message?: string } | null } | null;
    pullRequest?: {
      id: string;
      number: number;
      isDraft: boolean;
      state: "OPEN" | "CLOSED" | "MERGED";
      merged: boolean;
      headRefName: string;
      headRefOid: string;
      baseRefName: string;
      mergeCommit: { oid: string } | null;
    } | null;
  } | null;
  organization?: { config: BlobText | null } | null;
}

/** The snapshot query: optional parts are left out of the document rather than switched by directives. */
export function snapshotQuery(options: { branch: boolean; pullRequest: boolean }): string {
  const vars = ["$owner: String!", "$name: String!", "$config: String!"];
  if (options.branch) vars.push("$branch: String!");
  if (options.pullRequest) vars.push("$number: Int!");
  const blob = "... on Blob { text isTruncated }";
  return [
    `query porchlightSnapshot(${vars.join(", ")}) {`,
    "  repository(owner: $owner, name: $name) {",
    "    defaultBranchRef { name target { oid } }",
    `    config: object(expression: $config) { ${blob} }`,
    ...(options.branch
      ? ["    ref(qualifiedName: $branch) { name target { oid ... on Commit { message } } }"]
      : []),
    ...(options.pullRequest
      ? [
          "    pullRequest(number: $number) { id number isDraft state merged headRefName headRefOid baseRefName mergeCommit { oid } }",
        ]
      : []),
    "  }",
    `  organization: repository(owner: $owner, name: ".github") { config: object(expression: $config) { ${blob} } }`,
    "}",
  ].join("\n");
}

function configText(blob: BlobText | null | undefined, where: string): string | undefined {
  if (!blob || blob.text === null) return undefined;
  if (blob.isTruncated)
    throw new GitHubError({
      kind: "rejected",
      operation: "graphql.snapshot",
      message: `${where} is too large`,
    });
  return blob.text;
}

/** Errors that only say an optional part is absent (no `.github` repository, no such pull request). */
function onlyAbsences(errors: GraphqlError[]): boolean {
  return errors.every(
    (e) =>
      (e.type === "NOT_FOUND" || e.type === "FORBIDDEN") &&
      (e.path?.[0] === "organization" || (e.path?.[0] === "repository" && e.path[1] === "pullRequest")),
  );
}

function pullState(p: NonNullable<NonNullable<SnapshotData["repository"]>["pullRequest"]>): PullRequestState {
  return {
    number: p.number,
    nodeId: p.id,
    state: p.state === "OPEN" ? "open" : "closed",
    merged: p.merged,
    mergeCommitSha: p.merged ? p.mergeCommit?.oid : undefined,
    headRef: p.headRefName,
    headSha: p.headRefOid,
    baseRef: p.baseRefName,
    draft: p.isDraft,
  };
}

/** The repository methods of the port. */

/** The configuration file: the repository's own, else the owner's `.github` repository's. */
function snapshotConfig(
  data: SnapshotData | undefined,
  repo: RepoRef,
  configPath: string,
): RepoSnapshot["config"] {
  const own = configText(data?.repository?.config, configPath);
  if (own !== undefined) return { text: own, source: "repository" };
  const org = configText(data?.organization?.config, `${repo.owner}/.github/${configPath}`);
  return org !== undefined ? { text: org, source: "organization" } : undefined;
}

/**
 * {@link RepositoryOperations.readSnapshot} in one GraphQL request over `reads`. Throws GitHubError:
 * `rejected` (404) when the repository is not found or not readable, `unavailable` when GitHub answered
 * no data or other errors.
 */
export async function readSnapshot(
  reads: Octokit,
  { repo, configPath, branch, pullRequest }: Parameters<RepositoryOperations["readSnapshot"]>[0],
): Promise<RepoSnapshot> {
  const query = snapshotQuery({ branch: branch !== undefined, pullRequest: pullRequest !== undefined });
  const answer = await graphql<SnapshotData>(reads, "graphql.snapshot", query, {
    owner: repo.owner,
    name: repo.repo,
    config: `HEAD:${configPath}`,
    ...(branch !== undefined ? { branch: `refs/heads/${branch}` } : {}),
    ...(pullRequest !== undefined ? { number: pullRequest } : {}),
  });
  const repository = answer.data?.repository;
  if (!repository || !onlyAbsences(answer.errors)) {
    const notFound = answer.errors.some((e) => e.type === "NOT_FOUND" || e.type === "FORBIDDEN");
    throw new GitHubError({
      kind: notFound ? "rejected" : "unavailable",
      status: notFound ? 404 : undefined,
      operation: "graphql.snapshot",
      message: answer.errors.map((e) => e.message).join("; ") || `${repo.owner}/${repo.repo}: no data`,
    });
  }
  const ref = repository.ref;
  return {
    defaultBranch: repository.defaultBranchRef?.name ?? "",
    defaultBranchSha: repository.defaultBranchRef?.target?.oid,
    config: snapshotConfig(answer.data, repo, configPath),
    branch:
      ref?.target && branch !== undefined
        ? { name: branch, sha: ref.target.oid, message: ref.target.message ?? "" }
        : undefined,
    pullRequest: repository.pullRequest ? pullState(repository.pullRequest) : undefined,
  };
}
