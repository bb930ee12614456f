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
import type { FakeCheckRun, FakeRepo } from "./fake-repo.js";

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
    const run = { id: fake.nextId(), ...(b as Omit<FakeCheckRun, "id">) };
    fake.checkRuns.push(run);
    return [201, run];
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
  void query;
  return undefined;
}

function graphql(fake: FakeRepo, body: Record<string, unknown>): [number, unknown] {
  const query = String(body.query);
  const id = (body.variables as { id?: string } | undefined)?.id;
  const pull = [...fake.pulls.values()].find((p) => p.nodeId === id);
  if (!/convertPullRequestToDraft/.test(query) || !pull) {
    fake.violations.push(`unexpected GraphQL ${query}`);
    return [200, { errors: [{ message: "fake-repo: not implemented" }] }];
  }
  pull.draft = true;
  return [200, { data: { convertPullRequestToDraft: { pullRequest: { isDraft: true } } } }];
}
