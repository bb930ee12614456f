/**
 * {@link LifecyclePort} over Probot 14's Octokit: the render port of `./octokit-port.ts` plus pull
 * request files, GitHub draft conversion, comments, tags and branch deletion. Errors become
 * `GitHubError` like every other port call. Every check run created through this port carries the
 * "Re-render" button ({@link RERENDER_ACTION}).
 */
import type { Context, ProbotOctokit } from "probot";
import { type IssueComment, type LifecyclePort, RERENDER_ACTION, type TagOutcome } from "./lifecycle-port.js";
import { createOctokitPort, toGitHubError } from "./octokit-port.js";
import type { GitHubPort } from "./port.js";

type Octokit = InstanceType<typeof ProbotOctokit>;

/** The methods {@link LifecyclePort} adds to {@link GitHubPort}. */
export type LifecycleOperations = Omit<LifecyclePort, keyof GitHubPort>;

async function call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toGitHubError(operation, error);
  }
}

function changedPaths(files: { filename: string; previous_filename?: string | undefined }[]): string[] {
  const paths = new Set<string>();
  for (const f of files) {
    paths.add(f.filename);
    if (f.previous_filename) paths.add(f.previous_filename);
  }
  return [...paths].sort();
}

const CONVERT_TO_DRAFT = `mutation porchlightConvertToDraft($id: ID!) {
  convertPullRequestToDraft(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;

/** Builds the whole lifecycle port over an authenticated Octokit (a Probot installation client). */
export function createLifecyclePort(octokit: Octokit): LifecyclePort {
  const base = createOctokitPort(octokit);
  return {
    ...base,
    createCheckRun: (options) =>
      base.createCheckRun({ ...options, actions: options.actions ?? [RERENDER_ACTION] }),
    ...lifecycleOperations(octokit),
  };
}

/** The lifecycle port for the installation a webhook came from (Probot's `context.octokit`). */
export function lifecyclePortFromContext(context: Pick<Context, "octokit">): LifecyclePort {
  return createLifecyclePort(context.octokit);
}

/** The lifecycle methods alone over an authenticated Octokit. */
export function lifecycleOperations(octokit: Octokit): LifecycleOperations {
  return {
    async listPullRequestFiles({ repo, number }) {
      const files = await call("pulls.listFiles", () =>
        octokit.paginate(octokit.rest.pulls.listFiles, { ...repo, pull_number: number, per_page: 100 }),
      );
      return changedPaths(files);
    },

    async compareFiles({ repo, base, head }) {
      const { data } = await call("repos.compareCommitsWithBasehead", () =>
        octokit.rest.repos.compareCommitsWithBasehead({
          ...repo,
          basehead: `${base}...${head}`,
          per_page: 100,
        }),
      );
      return changedPaths(data.files ?? []);
    },

    async convertPullRequestToDraft({ nodeId }) {
      await call("graphql.convertPullRequestToDraft", () =>
        octokit.graphql(CONVERT_TO_DRAFT, { id: nodeId }),
      );
    },

    async listComments({ repo, issueNumber }): Promise<IssueComment[]> {
      const comments = await call("issues.listComments", () =>
        octokit.paginate(octokit.rest.issues.listComments, {
          ...repo,
          issue_number: issueNumber,
          per_page: 100,
        }),
      );
      return comments.map((c) => ({ id: c.id, body: c.body ?? "", author: c.user?.login ?? "" }));
    },

    async createComment({ repo, issueNumber, body }) {
      const { data } = await call("issues.createComment", () =>
        octokit.rest.issues.createComment({ ...repo, issue_number: issueNumber, body }),
      );
      return data.id;
    },

    async updateComment({ repo, commentId, body }) {
      await call("issues.updateComment", () =>
        octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body }),
      );
    },

    async listTags({ repo, prefix }) {
      const refs = await call("git.listMatchingRefs", () =>
        octokit.paginate(octokit.rest.git.listMatchingRefs, { ...repo, ref: `tags/${prefix}` }),
      );
      return refs.map((r) => ({ name: r.ref.replace(/^refs\/tags\//, ""), sha: r.object.sha }));
    },

    async createTag({ repo, name, sha }): Promise<TagOutcome> {
      try {
        await octokit.rest.git.createRef({ ...repo, ref: `refs/tags/${name}`, sha });
        return { kind: "created" };
      } catch (error) {
        const e = toGitHubError("git.createRef", error);
        if (e.status === 422 && /already exists/i.test(e.message)) return { kind: "exists" };
        throw e;
      }
    },

    async deleteBranch({ repo, branch }) {
      try {
        await octokit.rest.git.deleteRef({ ...repo, ref: `heads/${branch}` });
        return true;
      } catch (error) {
        const e = toGitHubError("git.deleteRef", error);
        if (e.status === 422 || e.status === 404) return false;
        throw e;
      }
    },
  };
}
