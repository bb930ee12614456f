/**
 * The HTTP side of {@link FakeRepo}: one persisting nock interceptor per method routes GitHub REST and
 * GraphQL requests to the in-memory repository, validating every body against GitHub's REST
 * description; an unrouted request is recorded as a violation and answered 404.
 */
import "../../helpers/promise-with-resolvers.js";
import { createHash } from "node:crypto";
import nock from "nock";
import { API, blobSha } from "../../helpers/github-mock.js";
import { validateRequestBody } from "../../helpers/github-schema.js";
import type { FakeCheckRun, FakePull, FakeRepo } from "./fake-repo.js";

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/** Routes every GitHub API request of `fake`'s repository to it (persisting nock interceptors). */
export function installHttp(fake: FakeRepo): void {
  const scope = nock(API).persist();
  const handler = async (request: Request): Promise<[number, unknown, Record<string, string>?]> => {
    const url = new URL(request.url);
    const text = await request.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    const method = request.method.toUpperCase();
    const path = `${url.pathname}${url.search}`;
    fake.requests.push({ method, path, body });
    fake.violations.push(...validateRequestBody(method, path, body));
    const answer = route(fake, method, decodeURIComponent(url.pathname), url.searchParams, body);
    if (!answer) {
      fake.violations.push(`unrouted ${method} ${path}`);
      return [404, { message: "Not Found (fake-repo)" }];
    }
    return answer;
  };
  scope.get(() => true).reply(handler);
  scope.post(() => true).reply(handler);
  scope.patch(() => true).reply(handler);
  scope.delete(() => true).reply(handler);
}

function route(
  fake: FakeRepo,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): [number, unknown, Record<string, string>?] | undefined {
  const b = (body ?? {}) as Record<string, unknown>;
  if (method === "POST" && path === "/graphql") return graphql(fake, b);
  if (method === "GET" && path === "/app/installations") return [200, [{ id: 1 }]];
  if (method === "GET" && path === "/installation/repositories")
    return [200, { total_count: 1, repositories: [{ name: fake.repo, owner: { login: fake.owner } }] }];
  // Probot's context.config falls back to the owner's `.github` repository: there is none here.
  if (method === "GET" && path === `/repos/${fake.owner}/.github/contents/.github/porchlight.yml`) {
    return [404, { message: "Not Found" }];
  }
  const prefix = `/repos/${fake.owner}/${fake.repo}/`;
  if (!path.startsWith(prefix)) return undefined;
  const p = path.slice(prefix.length);
  let m: RegExpExecArray | null;
  if (method === "GET" && p === "contents/.github/porchlight.yml") {
    return fake.config === undefined
      ? [404, { message: "Not Found" }]
      : [200, fake.config, { "content-type": "application/vnd.github.raw; charset=utf-8" }];
  }
  m = method === "GET" ? /^git\/trees\/(.+)$/.exec(p) : null;
  if (m) {
    const files = fake.files(m[1]!);
    const dirs = new Set<string>();
    for (const f of files.keys()) {
      const parts = f.split("/");
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
    }
    const sha = fake.commits.get(m[1]!)?.tree ?? fake.commits.get(fake.heads.get(m[1]!) ?? "")?.tree ?? m[1]!;
    const tree = [
      ...[...dirs].map((d) => ({ path: d, mode: "040000", type: "tree", sha: sha1(`dir ${d}`) })),
      ...[...files].map(([f, c]) => ({
        path: f,
        mode: "100644",
        type: "blob",
        sha: blobSha(c),
        size: c.length,
      })),
    ].sort((x, y) => x.path.localeCompare(y.path));
    return [200, { sha, url: "u", tree, truncated: false }];
  }
  m = method === "GET" ? /^git\/blobs\/([0-9a-f]{40})$/.exec(p) : null;
  if (m) {
    const content = fake.blobs.get(m[1]!);
    if (content === undefined) return [404, { message: "Not Found" }];
    return [
      200,
      {
        sha: m[1],
        size: content.length,
        encoding: "base64",
        content: Buffer.from(content).toString("base64"),
      },
    ];
  }
  if (method === "POST" && p === "git/blobs") {
    const content = Buffer.from(String(b.content), b.encoding === "base64" ? "base64" : "utf8").toString(
      "utf8",
    );
    const sha = blobSha(content);
    fake.blobs.set(sha, content);
    return [201, { sha, url: "u" }];
  }
  if (method === "POST" && p === "git/trees") {
    const files = new Map(fake.trees.get(String(b.base_tree)) ?? []);
    for (const e of (b.tree ?? []) as { path: string; content?: string; sha?: string | null }[]) {
      if (e.content !== undefined) files.set(e.path, e.content);
      else if (e.sha === null) files.delete(e.path);
      else if (e.sha) files.set(e.path, fake.blobs.get(e.sha) ?? "");
    }
    return [201, { sha: fake.storeTree(files), url: "u", tree: [], truncated: false }];
  }
  if (method === "POST" && p === "git/commits") {
    const tree = String(b.tree);
    const parents = (b.parents ?? []) as string[];
    const sha = sha1(`commit ${tree} ${parents.join(",")} ${String(b.message)} ${fake.commits.size}`);
    fake.commits.set(sha, { tree, parents, message: String(b.message) });
    return [201, { sha, message: b.message, parents: parents.map((s) => ({ sha: s })) }];
  }
  m = method === "PATCH" ? /^git\/refs\/heads\/(.+)$/.exec(p) : null;
  if (m) {
    const current = fake.heads.get(m[1]!);
    if (!current) return [422, { message: "Reference does not exist" }];
    if (!b.force && !fake.isAncestor(current, String(b.sha)))
      return [422, { message: "Update is not a fast forward" }];
    fake.heads.set(m[1]!, String(b.sha));
    return [200, { ref: `refs/heads/${m[1]}`, object: { sha: b.sha, type: "commit" } }];
  }
  m = method === "GET" ? /^git\/ref\/heads\/(.+)$/.exec(p) : null;
  if (m) {
    const sha = fake.heads.get(m[1]!);
    if (!sha) return [404, { message: "Not Found" }];
    return [200, { ref: `refs/heads/${m[1]}`, object: { sha, type: "commit" } }];
  }
  m = method === "DELETE" ? /^git\/refs\/heads\/(.+)$/.exec(p) : null;
  if (m) {
    if (!fake.heads.delete(m[1]!)) return [422, { message: "Reference does not exist" }];
    return [204, undefined];
  }
  if (method === "POST" && p === "git/refs") {
    const ref = String(b.ref);
    const map = ref.startsWith("refs/tags/") ? fake.tags : fake.heads;
    const name = ref.replace(/^refs\/(tags|heads)\//, "");
    if (map.has(name)) return [422, { message: "Reference already exists" }];
    map.set(name, String(b.sha));
    return [201, { ref, object: { sha: b.sha, type: "commit" } }];
  }
  m = method === "GET" ? /^git\/matching-refs\/tags\/(.*)$/.exec(p) : null;
  if (m) {
    const list = [...fake.tags]
      .filter(([name]) => name.startsWith(m![1]!))
      .map(([name, sha]) => ({ ref: `refs/tags/${name}`, object: { sha, type: "commit" } }));
    return [200, list];
  }
  if (method === "POST" && p === "check-runs") {
    const run = {
      id: fake.nextId(),
      started_at: new Date().toISOString(),
      ...(b as Omit<FakeCheckRun, "id">),
    };
    fake.checkRuns.push(run);
    return [201, { ...run, pull_requests: pullsAt(fake, run.head_sha) }];
  }
  m = method === "GET" ? /^commits\/([0-9a-f]{40})\/check-runs$/.exec(p) : null;
  if (m) {
    const name = query.get("check_name");
    const runs = fake.checkRuns.filter((c) => c.head_sha === m![1] && (!name || c.name === name));
    return [
      200,
      { total_count: runs.length, check_runs: runs.map((r) => ({ ...r, conclusion: r.conclusion ?? null })) },
    ];
  }
  m = method === "GET" ? /^commits\/([0-9a-f]{40})$/.exec(p) : null;
  if (m) {
    const commit = fake.commits.get(m[1]!);
    if (!commit) return [404, { message: "Not Found" }];
    const parent = commit.parents[0];
    const files = parent ? fake.diff(parent, m[1]!) : [...fake.files(m[1]!).keys()];
    return [
      200,
      {
        sha: m[1],
        parents: commit.parents.map((sha) => ({ sha })),
        files: files.map((filename) => ({ filename, status: "modified" })),
      },
    ];
  }
  m = method === "GET" ? /^git\/matching-refs\/heads\/(.*)$/.exec(p) : null;
  if (m) {
    const list = [...fake.heads]
      .filter(([name]) => name.startsWith(m![1]!))
      .map(([name, sha]) => ({ ref: `refs/heads/${name}`, object: { sha, type: "commit" } }));
    return [200, list];
  }
  if (method === "GET" && p === "pulls") {
    const state = query.get("state") ?? "open";
    const base = query.get("base");
    const list = [...fake.pulls.values()]
      .filter((pull) => (state === "all" || pull.state === state) && (!base || pull.base === base))
      .reverse()
      .map((pull) => pullObject(fake, pull));
    return [200, list];
  }
  m = method === "PATCH" ? /^check-runs\/(\d+)$/.exec(p) : null;
  if (m) {
    const run = fake.checkRuns.find((c) => c.id === Number(m![1]));
    if (!run) return [404, { message: "Not Found" }];
    const annotations = [
      ...(run.output?.annotations ?? []),
      ...(((b.output ?? {}) as FakeCheckRun["output"])?.annotations ?? []),
    ];
    Object.assign(run, b, { output: { ...run.output, ...(b.output as object), annotations } });
    return [200, run];
  }
  m = method === "GET" ? /^pulls\/(\d+)\/files$/.exec(p) : null;
  if (m) {
    const pull = fake.pulls.get(Number(m[1]));
    if (!pull) return [404, { message: "Not Found" }];
    const head = pull.mergeCommitSha
      ? fake.commits.get(pull.mergeCommitSha)!.parents[1]!
      : fake.heads.get(pull.head)!;
    return [200, fake.diff(pull.baseSha, head).map((filename) => ({ filename, status: "modified" }))];
  }
  m = method === "GET" ? /^git\/commits\/([0-9a-f]{40})$/.exec(p) : null;
  if (m) {
    const commit = fake.commits.get(m[1]!);
    if (!commit) return [404, { message: "Not Found" }];
    return [
      200,
      {
        sha: m[1],
        tree: { sha: commit.tree },
        parents: commit.parents.map((sha) => ({ sha })),
        message: commit.message,
      },
    ];
  }
  m = method === "GET" ? /^compare\/(.+?)\.\.\.(.+)$/.exec(p) : null;
  if (m) {
    // Three-dot compare: the head's changes since the merge base (what a pull request shows).
    const head = fake.heads.get(decodeURIComponent(m[2]!)) ?? decodeURIComponent(m[2]!);
    const base = fake.mergeBase(fake.heads.get(decodeURIComponent(m[1]!)) ?? decodeURIComponent(m[1]!), head);
    if (!base) return [404, { message: "No common ancestor" }];
    return [
      200,
      { status: "ahead", files: fake.diff(base, head).map((filename) => ({ filename, status: "modified" })) },
    ];
  }
  m = method === "GET" ? /^issues\/(\d+)\/comments$/.exec(p) : null;
  if (m) {
    const list = fake.comments.filter((c) => c.issue === Number(m![1]));
    return [200, list.map((c) => ({ id: c.id, body: c.body, user: { login: c.user } }))];
  }
  m = method === "POST" ? /^issues\/(\d+)\/comments$/.exec(p) : null;
  if (m) {
    const comment = { id: fake.nextId(), issue: Number(m[1]), body: String(b.body), user: "porchlight[bot]" };
    fake.comments.push(comment);
    return [201, { id: comment.id, body: comment.body }];
  }
  m = method === "PATCH" ? /^issues\/comments\/(\d+)$/.exec(p) : null;
  if (m) {
    const comment = fake.comments.find((c) => c.id === Number(m![1]));
    if (!comment) return [404, { message: "Not Found" }];
    comment.body = String(b.body);
    return [200, { id: comment.id, body: comment.body }];
  }
  return undefined;
}

/** The head sha of a pull request (its merge commit's second parent once merged). */
function pullHead(fake: FakeRepo, pull: FakePull): string {
  return pull.mergeCommitSha
    ? fake.commits.get(pull.mergeCommitSha)!.parents[1]!
    : (fake.heads.get(pull.head) ?? "");
}

/** Open pull requests whose head is at `sha`, as a check run's `pull_requests` lists them. */
function pullsAt(fake: FakeRepo, sha: string) {
  const repo = { id: 1, url: "u", name: fake.repo };
  return [...fake.pulls.values()]
    .filter((p) => p.state === "open" && fake.heads.get(p.head) === sha)
    .map((p) => ({
      url: "u",
      id: p.number,
      number: p.number,
      head: { ref: p.head, sha, repo },
      base: { ref: p.base, sha: p.baseSha, repo },
    }));
}

function pullObject(fake: FakeRepo, pull: FakePull) {
  const repo = { full_name: fake.fullName };
  return {
    number: pull.number,
    node_id: pull.nodeId,
    state: pull.state,
    draft: pull.draft,
    merged_at: pull.merged ? "2026-01-01T00:00:00Z" : null,
    merge_commit_sha: pull.mergeCommitSha,
    head: { ref: pull.head, sha: pullHead(fake, pull), repo },
    base: { ref: pull.base, sha: pull.baseSha, repo },
  };
}

function snapshot(fake: FakeRepo, variables: Record<string, unknown>): [number, unknown] {
  const branch =
    typeof variables.branch === "string" ? variables.branch.replace(/^refs\/heads\//, "") : undefined;
  const head = branch === undefined ? undefined : fake.heads.get(branch);
  const pull = typeof variables.number === "number" ? fake.pulls.get(variables.number) : undefined;
  return [
    200,
    {
      data: {
        repository: {
          defaultBranchRef: { name: fake.defaultBranch, target: { oid: fake.heads.get(fake.defaultBranch) } },
          config: fake.config === undefined ? null : { text: fake.config, isTruncated: false },
          ...(branch !== undefined
            ? {
                ref: head
                  ? { name: branch, target: { oid: head, message: fake.commits.get(head)?.message ?? "" } }
                  : null,
              }
            : {}),
          ...(variables.number !== undefined
            ? {
                pullRequest: pull
                  ? {
                      id: pull.nodeId,
                      number: pull.number,
                      isDraft: pull.draft,
                      state: pull.merged ? "MERGED" : pull.state === "open" ? "OPEN" : "CLOSED",
                      merged: pull.merged,
                      headRefName: pull.head,
                      headRefOid: pullHead(fake, pull),
                      baseRefName: pull.base,
                      mergeCommit: pull.mergeCommitSha ? { oid: pull.mergeCommitSha } : null,
                    }
                  : null,
              }
            : {}),
        },
        organization: null,
      },
      errors: [{ type: "NOT_FOUND", path: ["organization"], message: "Could not resolve to a Repository" }],
    },
  ];
}

function blobs(fake: FakeRepo, query: string): [number, unknown] {
  const repository: Record<string, unknown> = {};
  for (const [, alias, sha] of query.matchAll(/(b\d+): object\(oid: "([0-9a-f]{40})"\)/g)) {
    const text = fake.blobs.get(sha as string);
    repository[alias as string] = text === undefined ? null : { text, isTruncated: false, isBinary: false };
  }
  return [200, { data: { repository } }];
}

/** Objects by path (`object(expression: "<sha>:<path>")`): a file's blob, a directory's tree (stored as its own tree). */
function paths(fake: FakeRepo, query: string): [number, unknown] {
  const repository: Record<string, unknown> = {};
  for (const [, alias, sha, at] of query.matchAll(
    /(p\d+): object\(expression: "([0-9a-f]{40}):([^"]*)"\)/g,
  )) {
    const files = fake.files(sha as string);
    const content = files.get(at as string);
    const under = [...files].filter(([f]) => f.startsWith(`${at}/`));
    repository[alias as string] =
      content !== undefined
        ? { __typename: "Blob", oid: blobSha(content) }
        : under.length > 0
          ? {
              __typename: "Tree",
              oid: fake.storeTree(new Map(under.map(([f, c]) => [f.slice(`${at}/`.length), c]))),
            }
          : null;
  }
  return [200, { data: { repository } }];
}

function createCommitOnBranch(fake: FakeRepo, variables: Record<string, unknown>): [number, unknown] {
  const input = variables.input as {
    branch: { branchName: string };
    expectedHeadOid: string;
    message: { headline: string; body?: string };
    fileChanges?: { additions?: { path: string; contents: string }[]; deletions?: { path: string }[] };
  };
  const branch = input.branch.branchName.replace(/^refs\/heads\//, "");
  const current = fake.heads.get(branch);
  if (current !== input.expectedHeadOid) {
    return [
      200,
      {
        data: { createCommitOnBranch: null },
        errors: [
          {
            type: current ? "STALE_DATA" : "NOT_FOUND",
            path: ["createCommitOnBranch"],
            message: `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`,
          },
        ],
      },
    ];
  }
  const changes: Record<string, string | null> = {};
  for (const a of input.fileChanges?.additions ?? [])
    changes[a.path] = Buffer.from(a.contents, "base64").toString("utf8");
  for (const d of input.fileChanges?.deletions ?? []) changes[d.path] = null;
  const message = [input.message.headline, input.message.body].filter(Boolean).join("\n\n");
  const { after } = fake.push({ branch, changes, message });
  return [200, { data: { createCommitOnBranch: { commit: { oid: after } } } }];
}

function graphql(fake: FakeRepo, body: Record<string, unknown>): [number, unknown] {
  const query = String(body.query);
  const variables = (body.variables ?? {}) as Record<string, unknown>;
  if (query.includes("porchlightSnapshot(")) return snapshot(fake, variables);
  if (query.includes("porchlightBlobs(")) return blobs(fake, query);
  if (query.includes("porchlightPaths(")) return paths(fake, query);
  if (query.includes("porchlightCommit(")) return createCommitOnBranch(fake, variables);
  const id = variables.id as string | undefined;
  const pull = [...fake.pulls.values()].find((p) => p.nodeId === id);
  if (!/convertPullRequestToDraft/.test(query) || !pull) {
    fake.violations.push(`unexpected GraphQL ${query}`);
    return [200, { errors: [{ message: "fake-repo: not implemented" }] }];
  }
  pull.draft = true;
  return [200, { data: { convertPullRequestToDraft: { pullRequest: { isDraft: true } } } }];
}
