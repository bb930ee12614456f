/**
 * {@link GitHubPort} over Probot 14's Octokit (`octokit.rest.*`). The only module that calls Octokit;
 * handlers obtain a port from a Probot context with {@link portFromContext}.
 */
import type { Context, ProbotOctokit } from "probot";
import {
  type CheckRunFields,
  GitHubError,
  type GitHubPort,
  type RefUpdateOutcome,
  type RepoRef,
  type RepoTree,
  type TreeChange,
  type TreeEntry,
} from "./port.js";

type Octokit = InstanceType<typeof ProbotOctokit>;

/** Octokit's RequestError, duck-typed (status + message, optional response body). */
interface HttpErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { data?: unknown; headers?: Record<string, unknown> };
}

/**
 * Turns anything Octokit throws into a {@link GitHubError}: 5xx, 429, rate-limit 403s and network
 * errors (no status) are `unavailable`; other HTTP errors are `rejected`.
 */
export function toGitHubError(operation: string, error: unknown): GitHubError {
  if (error instanceof GitHubError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as HttpErrorLike;
  const status = typeof e.status === "number" ? e.status : undefined;
  const message = typeof e.message === "string" ? e.message : String(error);
  const remaining = e.response?.headers?.["x-ratelimit-remaining"];
  const rateLimited = status === 429 || (status === 403 && (remaining === "0" || remaining === 0));
  const unavailable = status === undefined || status >= 500 || rateLimited;
  return new GitHubError({ kind: unavailable ? "unavailable" : "rejected", operation, message, status });
}

async function call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toGitHubError(operation, error);
  }
}

function treeItem(change: TreeChange) {
  if ("delete" in change)
    return { path: change.path, mode: "100644" as const, type: "blob" as const, sha: null };
  if ("content" in change)
    return { path: change.path, mode: change.mode, type: "blob" as const, content: change.content };
  return { path: change.path, mode: change.mode, type: "blob" as const, sha: change.blobSha };
}

function checkBody(fields: CheckRunFields) {
  return {
    ...(fields.status ? { status: fields.status } : {}),
    ...(fields.conclusion ? { conclusion: fields.conclusion } : {}),
    ...(fields.externalId ? { external_id: fields.externalId } : {}),
    ...(fields.actions?.length ? { actions: fields.actions } : {}),
    ...(fields.output ? { output: fields.output } : {}),
  };
}

/** Builds the port over an authenticated Octokit (a Probot installation client). */
export function createOctokitPort(octokit: Octokit): GitHubPort {
  return {
    async readTree({ repo, sha }): Promise<RepoTree> {
      const { data } = await call("git.getTree", () =>
        octokit.rest.git.getTree({ ...repo, tree_sha: sha, recursive: "1" }),
      );
      if (data.truncated) {
        throw new GitHubError({
          kind: "rejected",
          operation: "git.getTree",
          message: `tree of ${sha} is too large: GitHub truncated the recursive listing`,
        });
      }
      const entries: TreeEntry[] = [];
      for (const item of data.tree) {
        if (!item.path || !item.sha || !item.mode) continue;
        const type = item.type === "tree" || item.type === "commit" ? item.type : "blob";
        entries.push({ path: item.path, mode: item.mode, type, sha: item.sha, size: item.size });
      }
      return { treeSha: data.sha, entries };
    },

    async readBlob({ repo, sha }) {
      const { data } = await call("git.getBlob", () => octokit.rest.git.getBlob({ ...repo, file_sha: sha }));
      if (data.encoding !== "base64" && data.encoding !== "utf-8") {
        throw new GitHubError({
          kind: "rejected",
          operation: "git.getBlob",
          message: `unexpected encoding ${data.encoding} of ${sha}`,
        });
      }
      return data.encoding === "base64"
        ? new Uint8Array(Buffer.from(data.content.replace(/\s/g, ""), "base64"))
        : new TextEncoder().encode(data.content);
    },

    async createBlob({ repo, content }) {
      const { data } = await call("git.createBlob", () =>
        octokit.rest.git.createBlob({
          ...repo,
          content: Buffer.from(content).toString("base64"),
          encoding: "base64",
        }),
      );
      return data.sha;
    },

    async createTree({ repo, baseTreeSha, changes }) {
      const { data } = await call("git.createTree", () =>
        octokit.rest.git.createTree({ ...repo, base_tree: baseTreeSha, tree: changes.map(treeItem) }),
      );
      return data.sha;
    },

    async createCommit({ repo, message, treeSha, parents }) {
      const { data } = await call("git.createCommit", () =>
        octokit.rest.git.createCommit({ ...repo, message, tree: treeSha, parents }),
      );
      return data.sha;
    },

    async updateBranch({ repo, branch, sha }): Promise<RefUpdateOutcome> {
      try {
        await octokit.rest.git.updateRef({ ...repo, ref: `heads/${branch}`, sha, force: false });
        return { kind: "updated", sha };
      } catch (error) {
        const e = toGitHubError("git.updateRef", error);
        // GitHub: 422 "Update is not a fast forward" (a newer push) or "Reference does not exist" (deleted).
        if (e.status === 422 && /fast.forward|does not exist/i.test(e.message)) {
          return { kind: "superseded", message: e.message };
        }
        throw e;
      }
    },

    async readBranchHead({ repo, branch }) {
      try {
        const { data } = await octokit.rest.git.getRef({ ...repo, ref: `heads/${branch}` });
        return data.object.sha;
      } catch (error) {
        const e = toGitHubError("git.getRef", error);
        if (e.status === 404) return undefined;
        throw e;
      }
    },

    async createCheckRun({ repo, name, headSha, ...fields }) {
      const { data } = await call("checks.create", () =>
        octokit.rest.checks.create({ ...repo, name, head_sha: headSha, ...checkBody(fields) }),
      );
      return { id: data.id };
    },

    async updateCheckRun({ repo, checkRunId, ...fields }) {
      await call("checks.update", () =>
        octokit.rest.checks.update({ ...repo, check_run_id: checkRunId, ...checkBody(fields) }),
      );
    },
  };
}

/** The port for the installation a webhook came from (Probot's `context.octokit`). */
export function portFromContext(context: Pick<Context, "octokit">): GitHubPort {
  return createOctokitPort(context.octokit);
}

export type { RepoRef };
