/**
 * Repository-level reads and administration: the one-request snapshot a job starts from (GraphQL),
 * repository metadata and files, the installation's repositories, and rulesets.
 */
import {
  GitHubError,
  type GitHubPort,
  type PullRequestState,
  type RepoSnapshot,
  type RulesetOutcome,
} from "../port.js";
import { type GraphqlError, graphql, type Octokit } from "./client.js";
import { call, callOrAbsent } from "./errors.js";

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
export function repoOperations(
  octokit: Octokit,
  reads: Octokit = octokit,
): Pick<
  GitHubPort,
  | "readSnapshot"
  | "readRepository"
  | "readFile"
  | "listInstallations"
  | "listInstallationRepositories"
  | "listOwnerRepositories"
  | "listUserRepositories"
  | "ensureRuleset"
> {
  return {
    async readSnapshot({ repo, configPath, branch, pullRequest }): Promise<RepoSnapshot> {
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
      const own = configText(repository.config, configPath);
      const org =
        own === undefined
          ? configText(answer.data?.organization?.config, `${repo.owner}/.github/${configPath}`)
          : undefined;
      const ref = repository.ref;
      return {
        defaultBranch: repository.defaultBranchRef?.name ?? "",
        defaultBranchSha: repository.defaultBranchRef?.target?.oid,
        config:
          own !== undefined
            ? { text: own, source: "repository" }
            : org !== undefined
              ? { text: org, source: "organization" }
              : undefined,
        branch:
          ref?.target && branch !== undefined
            ? { name: branch, sha: ref.target.oid, message: ref.target.message ?? "" }
            : undefined,
        pullRequest: repository.pullRequest ? pullState(repository.pullRequest) : undefined,
      };
    },

    async readRepository({ repo }) {
      const { data } = await call("repos.get", () =>
        octokit.rest.repos.get({ owner: repo.owner, repo: repo.repo }),
      );
      const visibility =
        data.visibility === "public" || data.visibility === "internal" || data.visibility === "private"
          ? data.visibility
          : data.private
            ? "private"
            : "public";
      return { name: data.name, defaultBranch: data.default_branch, visibility };
    },

    async readFile({ repo, path, ref }) {
      const data = await callOrAbsent("repos.getContent", async () => {
        const { data } = await octokit.rest.repos.getContent({ ...repo, path, ref });
        return data;
      });
      if (!data || Array.isArray(data) || data.type !== "file" || !("content" in data)) return undefined;
      return Buffer.from(data.content, "base64").toString("utf8");
    },

    async listInstallations() {
      const installations = await call("apps.listInstallations", () =>
        octokit.paginate(octokit.rest.apps.listInstallations, { per_page: 100 }),
      );
      return installations.map((i) => i.id);
    },

    async listInstallationRepositories() {
      const repos = await call("apps.listReposAccessibleToInstallation", () =>
        octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 }),
      );
      return repos.map((r) => ({ owner: r.owner.login, repo: r.name }));
    },

    async listUserRepositories() {
      const repos = await call("repos.listForAuthenticatedUser", () =>
        octokit.paginate(octokit.rest.repos.listForAuthenticatedUser, { per_page: 100 }),
      );
      return repos.map((r) => ({ owner: r.owner.login, repo: r.name }));
    },

    async listOwnerRepositories({ owner }) {
      const toRef = (r: { owner: { login: string }; name: string }) => ({
        owner: r.owner.login,
        repo: r.name,
      });
      try {
        const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, {
          per_page: 100,
        });
        return repos.filter((r) => r.owner.login.toLowerCase() === owner.toLowerCase()).map(toRef);
      } catch {
        try {
          return (await octokit.paginate(octokit.rest.repos.listForOrg, { org: owner, per_page: 100 })).map(
            toRef,
          );
        } catch {
          const repos = await call("repos.listForUser", () =>
            octokit.paginate(octokit.rest.repos.listForUser, { username: owner, per_page: 100 }),
          );
          return repos.map(toRef);
        }
      }
    },

    async ensureRuleset({ repo, body }): Promise<RulesetOutcome> {
      const existing = await call("repos.getRepoRulesets", () =>
        octokit.paginate(octokit.rest.repos.getRepoRulesets, {
          ...repo,
          includes_parents: false,
          per_page: 100,
        }),
      );
      const same = existing.find((r) => r.name === body.name && r.source_type !== "Organization");
      // Octokit types each rule as a closed union; the body is GitHub's JSON, validated by GitHub.
      const params = { ...repo, ...body } as unknown as Parameters<
        typeof octokit.rest.repos.createRepoRuleset
      >[0];
      const update = { ...params, ruleset_id: same?.id ?? 0 } as unknown as Parameters<
        typeof octokit.rest.repos.updateRepoRuleset
      >[0];
      const { data } = same
        ? await call("repos.updateRepoRuleset", () => octokit.rest.repos.updateRepoRuleset(update))
        : await call("repos.createRepoRuleset", () => octokit.rest.repos.createRepoRuleset(params));
      return {
        action: same ? "updated" : "created",
        id: data.id,
        ...(data._links?.html?.href ? { url: data._links.html.href } : {}),
      };
    },
  };
}
