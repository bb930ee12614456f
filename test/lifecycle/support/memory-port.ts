/**
 * The GitHub port over a {@link FakeRepo}, in memory (no HTTP): for use-case tests that drive the
 * lifecycle directly. Same semantics as the fake's HTTP side: compare-and-swap commits, check runs
 * listing the open pull requests at their head, tags never moved. `calls` records every method called.
 */

import type {
  CheckRunSummary,
  GitHubPort,
  PathObject,
  PullRequestSummary,
  RepoSnapshot,
} from "../../../src/github/port.js";
import { blobSha } from "../../helpers/github-mock.js";
import type { FakePull, FakeRepo } from "./fake-repo.js";

const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function summary(fake: FakeRepo, pull: FakePull): PullRequestSummary {
  const headSha = pull.mergeCommitSha
    ? (fake.commits.get(pull.mergeCommitSha)?.parents[1] ?? "")
    : (fake.heads.get(pull.head) ?? "");
  return {
    number: pull.number,
    nodeId: pull.nodeId,
    state: pull.state,
    merged: pull.merged,
    mergeCommitSha: pull.mergeCommitSha ?? undefined,
    headRef: pull.head,
    headSha,
    baseRef: pull.base,
    draft: pull.draft,
    sameRepository: true,
  };
}

/** A port over `fake`; `hooks.beforeCommit` runs just before a commit is attempted (to race it). */
export function memoryPort(fake: FakeRepo, hooks: { beforeCommit?: () => void } = {}) {
  const calls: string[] = [];
  const log = (name: string) => calls.push(name);
  const pullsAt = (sha: string) =>
    [...fake.pulls.values()]
      .filter((p) => p.state === "open" && fake.heads.get(p.head) === sha)
      .map((p) => ({ number: p.number, headRef: p.head, headSha: sha, baseRef: p.base }));
  const port: GitHubPort = {
    async readSnapshot({ branch, pullRequest }): Promise<RepoSnapshot> {
      log("readSnapshot");
      const head = branch === undefined ? undefined : fake.heads.get(branch);
      const pull = pullRequest === undefined ? undefined : fake.pulls.get(pullRequest);
      return {
        defaultBranch: fake.defaultBranch,
        defaultBranchSha: fake.heads.get(fake.defaultBranch),
        config: fake.config === undefined ? undefined : { text: fake.config, source: "repository" },
        branch:
          head && branch
            ? { name: branch, sha: head, message: fake.commits.get(head)?.message ?? "" }
            : undefined,
        pullRequest: pull ? summary(fake, pull) : undefined,
      };
    },
    async readBranchHead({ branch }) {
      log("readBranchHead");
      return fake.heads.get(branch);
    },
    readRepository: async ({ repo }) => ({ name: repo.repo, defaultBranch: fake.defaultBranch }),
    readFile: async ({ path, ref }) => fake.read(ref, path),
    async readTree({ sha, prefix = "" }) {
      log(`readTree ${sha}`);
      // A subtree's sha (from readPathObjects) is `subtree:<commit>:<dir>`.
      const [, commit = sha, dir = ""] = /^subtree:([^:]+):(.*)$/.exec(sha) ?? [];
      const under = dir ? `${dir}/` : "";
      const files = [...fake.files(commit)].filter(([path]) => path.startsWith(under));
      return {
        treeSha: `tree-${sha}`,
        entries: files.map(([path, content]) => ({
          path: prefix + path.slice(under.length),
          mode: "100644",
          type: "blob" as const,
          sha: blobSha(content),
          size: Buffer.byteLength(content),
        })),
      };
    },
    async readPathObjects({ sha, paths }) {
      log(`readPathObjects ${sha}`);
      const files = fake.files(sha);
      const found = new Map<string, PathObject>();
      for (const p of paths) {
        const content = files.get(p);
        if (content !== undefined) found.set(p, { type: "blob", sha: blobSha(content) });
        else if ([...files.keys()].some((f) => f.startsWith(`${p}/`)))
          found.set(p, { type: "tree", sha: `subtree:${sha}:${p}` });
      }
      return found;
    },
    async readBlobs({ blobs }) {
      log("readBlobs");
      return new Map(blobs.map((b) => [b.sha, new TextEncoder().encode(fake.blobs.get(b.sha) ?? "")]));
    },
    async compareFiles({ base, head }) {
      log("compareFiles");
      const from = fake.mergeBase(fake.heads.get(base) ?? base, fake.heads.get(head) ?? head);
      return from ? fake.diff(from, head) : [];
    },
    async listCommitFiles({ sha }) {
      const parent = fake.commits.get(sha)?.parents[0];
      return parent ? fake.diff(parent, sha) : [...fake.files(sha).keys()];
    },
    async commitFiles({ branch, expectedHead, message, changes }) {
      hooks.beforeCommit?.();
      log(`commitFiles ${expectedHead}`);
      if (fake.heads.get(branch) !== expectedHead) return { kind: "superseded", message: "STALE_DATA" };
      const edits: Record<string, string | null> = {};
      for (const a of changes.additions) edits[a.path] = dec(a.content);
      for (const d of changes.deletions) edits[d] = null;
      const { after } = fake.push({ branch, changes: edits, message });
      return { kind: "committed", sha: after };
    },
    listBranches: async ({ prefix }) =>
      [...fake.heads].filter(([name]) => name.startsWith(prefix)).map(([name, sha]) => ({ name, sha })),
    async createBranch({ branch, sha }) {
      if (fake.heads.has(branch)) return { kind: "exists" };
      fake.heads.set(branch, sha);
      return { kind: "created" };
    },
    deleteBranch: async ({ branch }) => fake.heads.delete(branch),
    listTags: async ({ prefix }) =>
      [...fake.tags].filter(([n]) => n.startsWith(prefix)).map(([name, sha]) => ({ name, sha })),
    listTagCommits: async () => [...fake.tags].map(([name, sha]) => ({ name, sha })),
    async createTag({ name, sha }) {
      if (fake.tags.has(name)) return { kind: "exists" };
      fake.tags.set(name, sha);
      return { kind: "created" };
    },
    async createCheckRun({ name, headSha, status, conclusion, output, externalId }) {
      const id = fake.nextId();
      log(`createCheckRun ${headSha} ${conclusion ?? status ?? ""}`);
      fake.checkRuns.push({
        id,
        name,
        head_sha: headSha,
        ...(status ? { status } : {}),
        ...(conclusion ? { conclusion, status: "completed" } : {}),
        ...(output ? { output } : {}),
        ...(externalId ? { external_id: externalId } : {}),
        started_at: new Date().toISOString(),
      });
      return { id, pullRequests: pullsAt(headSha) };
    },
    async updateCheckRun({ checkRunId, status, conclusion, output, externalId }) {
      log(`updateCheckRun ${checkRunId} ${conclusion ?? status ?? ""}`);
      const run = fake.checkRuns.find((r) => r.id === checkRunId);
      if (!run) throw new Error(`no check run ${checkRunId}`);
      Object.assign(run, {
        ...(status ? { status } : {}),
        ...(conclusion ? { conclusion, status: "completed" } : {}),
        ...(externalId ? { external_id: externalId } : {}),
        ...(output
          ? {
              output: {
                ...run.output,
                ...output,
                annotations: [...(run.output?.annotations ?? []), ...(output.annotations ?? [])],
              },
            }
          : {}),
      });
    },
    async listCheckRuns({ sha, name }): Promise<CheckRunSummary[]> {
      log(`listCheckRuns ${sha}`);
      return fake.checkRuns
        .filter((r) => r.head_sha === sha && r.name === name)
        .map((r) => ({
          id: r.id,
          name: r.name,
          headSha: r.head_sha,
          status: (r.status ?? "queued") as CheckRunSummary["status"],
          conclusion: r.conclusion,
          externalId: r.external_id,
          startedAt: r.started_at,
          appId: undefined,
        }));
    },
    listPullRequestFiles: async ({ number }) => {
      const pull = fake.pulls.get(number);
      return pull ? fake.diff(pull.baseSha, summary(fake, pull).headSha) : [];
    },
    listPullRequests: async ({ state, base }) =>
      [...fake.pulls.values()]
        .filter((p) => (state === "all" || p.state === state) && (!base || p.base === base))
        .map((p) => summary(fake, p)),
    listBranchPullRequests: async ({ branch }) =>
      [...fake.pulls.values()]
        .filter((p) => p.head === branch)
        .reverse()
        .map((p) => summary(fake, p)),
    async mergePullRequest({ number, sha }) {
      const pull = fake.pulls.get(number);
      if (pull?.state !== "open") return { kind: "refused", message: "Pull Request is not mergeable" };
      if (fake.heads.get(pull.head) !== sha)
        return { kind: "refused", message: "Head branch was modified. Review and try the merge again." };
      return { kind: "merged", sha: fake.merge(number) };
    },
    async createPullRequest({ head, base }) {
      const pull = fake.openPull(head);
      pull.base = base;
      return { number: pull.number };
    },
    async updatePullRequest({ number, state }) {
      const pull = fake.pulls.get(number);
      if (pull && state) pull.state = state;
    },
    async convertPullRequestToDraft({ nodeId }) {
      const pull = [...fake.pulls.values()].find((p) => p.nodeId === nodeId);
      if (pull) pull.draft = true;
    },
    listComments: async ({ issueNumber }) =>
      fake.comments
        .filter((c) => c.issue === issueNumber)
        .map((c) => ({ id: c.id, body: c.body, author: c.user })),
    async createComment({ issueNumber, body }) {
      const id = fake.nextId();
      fake.comments.push({ id, issue: issueNumber, body, user: "porchlight[bot]" });
      return id;
    },
    async updateComment({ commentId, body }) {
      const comment = fake.comments.find((c) => c.id === commentId);
      if (comment) comment.body = body;
    },
    listIssues: async ({ label }) =>
      fake.issues
        .filter((i) => i.labels.includes(label))
        .sort((a, b) => b.number - a.number)
        .map(({ labels: _labels, ...i }) => ({ ...i })),
    async createIssue({ title, body, labels }) {
      const number = fake.nextId();
      fake.issues.push({ number, title, body, labels, state: "open", author: "porchlight[bot]" });
      return number;
    },
    async updateIssue({ number, ...fields }) {
      const issue = fake.issues.find((i) => i.number === number);
      if (issue) Object.assign(issue, fields);
    },
    listInstallations: async () => [1],
    listInstallationRepositories: async () => [{ owner: fake.owner, repo: fake.repo }],
    listOwnerRepositories: async ({ owner }) =>
      owner === fake.owner ? [{ owner: fake.owner, repo: fake.repo }] : [],
    ensureRuleset: async ({ body }) => ({ action: "created", id: 1, ...(body.name ? {} : {}) }),
  };
  return { port, calls };
}
