/**
 * A stateful in-memory GitHub repository behind nock, for lifecycle walkthroughs: commits, trees,
 * blobs, branches, tags, pull requests, comments, check runs and the GraphQL draft conversion behave
 * like GitHub's (fast-forward-only ref updates, 422 on an existing ref). Every request body is
 * validated against GitHub's REST description (test/helpers/github-schema.ts); an unrouted request is
 * a violation. Tests drive events themselves (webhooks are not emitted automatically).
 */
import "../../helpers/promise-with-resolvers.js";
import { createHash } from "node:crypto";
import nock from "nock";
import { expect } from "vitest";
import { API, blobSha } from "../../helpers/github-mock.js";
import { validateRequestBody } from "../../helpers/github-schema.js";

type Files = Map<string, string>;

export interface FakePull {
  number: number;
  nodeId: string;
  head: string;
  base: string;
  /** Base sha when the pull request was opened (the diff is computed against it). */
  baseSha: string;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  mergeCommitSha: string | null;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status?: string;
  conclusion?: string;
  output?: { title?: string; summary?: string; annotations?: unknown[] };
  actions?: { identifier: string }[];
}

export interface FakeComment {
  id: number;
  issue: number;
  body: string;
  user: string;
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

function fromEntries(files: Record<string, string>): Files {
  return new Map(Object.entries(files));
}

export class FakeRepo {
  readonly owner = "acme";
  readonly repo = "pkgs";
  readonly defaultBranch = "main";
  readonly blobs = new Map<string, string>();
  readonly trees = new Map<string, Files>();
  readonly commits = new Map<string, { tree: string; parents: string[]; message: string }>();
  readonly heads = new Map<string, string>();
  readonly tags = new Map<string, string>();
  readonly pulls = new Map<number, FakePull>();
  readonly comments: FakeComment[] = [];
  readonly checkRuns: FakeCheckRun[] = [];
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  readonly violations: string[] = [];
  /** Text of `.github/porchlight.yml` on the default branch (served by the contents API), if any. */
  config: string | undefined;
  #ids = 1;

  constructor(files: Record<string, string>) {
    this.heads.set(this.defaultBranch, this.#commit(fromEntries(files), [], "initial"));
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  #tree(files: Files): string {
    const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
    for (const [, content] of sorted) this.blobs.set(blobSha(content), content);
    const sha = sha1(`tree ${JSON.stringify(sorted)}`);
    this.trees.set(sha, new Map(sorted));
    return sha;
  }

  #commit(files: Files, parents: string[], message: string): string {
    const tree = this.#tree(files);
    const sha = sha1(`commit ${tree} ${parents.join(",")} ${message} ${this.commits.size}`);
    this.commits.set(sha, { tree, parents, message });
    return sha;
  }

  /** Files of a commit, tree or branch. */
  files(ref: string): Files {
    const sha = this.heads.get(ref) ?? this.tags.get(ref) ?? ref;
    const tree = this.commits.get(sha)?.tree ?? sha;
    const files = this.trees.get(tree);
    if (!files) throw new Error(`fake-repo: unknown ref ${ref}`);
    return files;
  }

  /** Text of one file at a ref, or undefined. */
  read(ref: string, path: string): string | undefined {
    return this.files(ref).get(path);
  }

  /** A user's `git push`: one commit on `branch` (created from `from` when new). Returns before/after. */
  push(options: { branch: string; changes: Record<string, string | null>; message?: string; from?: string }) {
    const before = this.heads.get(options.branch);
    const from = options.from ?? this.defaultBranch;
    const parent = before ?? this.heads.get(from) ?? from;
    const files = new Map(this.files(parent));
    for (const [path, content] of Object.entries(options.changes)) {
      if (content === null) files.delete(path);
      else files.set(path, content);
    }
    const after = this.#commit(files, [parent], options.message ?? "Edit package");
    this.heads.set(options.branch, after);
    return { before: before ?? "0".repeat(40), after, paths: Object.keys(options.changes).sort() };
  }

  /** Opens a pull request from `head` into the default branch. */
  openPull(head: string, options: { draft?: boolean } = {}): FakePull {
    const number = this.pulls.size + 1;
    const pull: FakePull = {
      number,
      nodeId: `PR_kwDO${number}`,
      head,
      base: this.defaultBranch,
      baseSha: this.heads.get(this.defaultBranch)!,
      draft: options.draft ?? false,
      state: "open",
      merged: false,
      mergeCommitSha: null,
    };
    this.pulls.set(number, pull);
    return pull;
  }

  /** Merges a pull request with a merge commit (parents: base, head); the base branch moves. */
  merge(number: number): string {
    const pull = this.pulls.get(number)!;
    const base = this.heads.get(pull.base)!;
    const head = this.heads.get(pull.head)!;
    const merged = new Map(this.files(base));
    for (const path of this.#diff(pull.baseSha, head)) {
      const content = this.files(head).get(path);
      if (content === undefined) merged.delete(path);
      else merged.set(path, content);
    }
    const sha = this.#commit(
      merged,
      [base, head],
      `Merge pull request #${number} from ${this.owner}/${pull.head}`,
    );
    this.heads.set(pull.base, sha);
    Object.assign(pull, { state: "closed", merged: true, mergeCommitSha: sha });
    return sha;
  }

  /** Closes a pull request without merging. */
  close(number: number): void {
    Object.assign(this.pulls.get(number)!, { state: "closed" });
  }

  #diff(base: string, head: string): string[] {
    const a = this.files(base);
    const b = this.files(head);
    return [...new Set([...a.keys(), ...b.keys()])].filter((p) => a.get(p) !== b.get(p)).sort();
  }

  #isAncestor(ancestor: string, sha: string): boolean {
    const stack = [sha];
    while (stack.length) {
      const s = stack.pop()!;
      if (s === ancestor) return true;
      stack.push(...(this.commits.get(s)?.parents ?? []));
    }
    return false;
  }

  /** Check runs on `sha` named `porchlight/render`, oldest first. */
  checksOn(sha: string): FakeCheckRun[] {
    return this.checkRuns.filter((c) => c.head_sha === sha && c.name === "porchlight/render");
  }

  /** The check GitHub would use for a required status check: the latest one of that name on `sha`. */
  latestCheck(sha: string): FakeCheckRun | undefined {
    return this.checksOn(sha).at(-1);
  }

  /** Routes every GitHub API request of this repository to the fake (persisting interceptors). */
  install(): this {
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
      this.requests.push({ method, path, body });
      this.violations.push(...validateRequestBody(method, path, body));
      const answer = this.#route(method, decodeURIComponent(url.pathname), url.searchParams, body);
      if (!answer) {
        this.violations.push(`unrouted ${method} ${path}`);
        return [404, { message: "Not Found (fake-repo)" }];
      }
      return answer;
    };
    scope.get(() => true).reply(handler);
    scope.post(() => true).reply(handler);
    scope.patch(() => true).reply(handler);
    scope.delete(() => true).reply(handler);
    return this;
  }

  #route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ): [number, unknown, Record<string, string>?] | undefined {
    const b = (body ?? {}) as Record<string, unknown>;
    if (method === "POST" && path === "/graphql") return this.#graphql(b);
    // Probot's context.config falls back to the owner's `.github` repository: there is none here.
    if (method === "GET" && path === `/repos/${this.owner}/.github/contents/.github/porchlight.yml`) {
      return [404, { message: "Not Found" }];
    }
    const prefix = `/repos/${this.owner}/${this.repo}/`;
    if (!path.startsWith(prefix)) return undefined;
    const p = path.slice(prefix.length);
    let m: RegExpExecArray | null;
    if (method === "GET" && p === "contents/.github/porchlight.yml") {
      return this.config === undefined
        ? [404, { message: "Not Found" }]
        : [200, this.config, { "content-type": "application/vnd.github.raw; charset=utf-8" }];
    }
    m = method === "GET" ? /^git\/trees\/(.+)$/.exec(p) : null;
    if (m) {
      const files = this.files(m[1]!);
      const dirs = new Set<string>();
      for (const f of files.keys()) {
        const parts = f.split("/");
        for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
      }
      const sha =
        this.commits.get(m[1]!)?.tree ?? this.commits.get(this.heads.get(m[1]!) ?? "")?.tree ?? m[1]!;
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
      const content = this.blobs.get(m[1]!);
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
      this.blobs.set(sha, content);
      return [201, { sha, url: "u" }];
    }
    if (method === "POST" && p === "git/trees") {
      const files = new Map(this.trees.get(String(b.base_tree)) ?? []);
      for (const e of (b.tree ?? []) as { path: string; content?: string; sha?: string | null }[]) {
        if (e.content !== undefined) files.set(e.path, e.content);
        else if (e.sha === null) files.delete(e.path);
        else if (e.sha) files.set(e.path, this.blobs.get(e.sha) ?? "");
      }
      return [201, { sha: this.#tree(files), url: "u", tree: [], truncated: false }];
    }
    if (method === "POST" && p === "git/commits") {
      const tree = String(b.tree);
      const parents = (b.parents ?? []) as string[];
      const sha = sha1(`commit ${tree} ${parents.join(",")} ${String(b.message)} ${this.commits.size}`);
      this.commits.set(sha, { tree, parents, message: String(b.message) });
      return [201, { sha, message: b.message, parents: parents.map((s) => ({ sha: s })) }];
    }
    m = method === "PATCH" ? /^git\/refs\/heads\/(.+)$/.exec(p) : null;
    if (m) {
      const current = this.heads.get(m[1]!);
      if (!current) return [422, { message: "Reference does not exist" }];
      if (!b.force && !this.#isAncestor(current, String(b.sha)))
        return [422, { message: "Update is not a fast forward" }];
      this.heads.set(m[1]!, String(b.sha));
      return [200, { ref: `refs/heads/${m[1]}`, object: { sha: b.sha, type: "commit" } }];
    }
    m = method === "DELETE" ? /^git\/refs\/heads\/(.+)$/.exec(p) : null;
    if (m) {
      if (!this.heads.delete(m[1]!)) return [422, { message: "Reference does not exist" }];
      return [204, undefined];
    }
    if (method === "POST" && p === "git/refs") {
      const ref = String(b.ref);
      const map = ref.startsWith("refs/tags/") ? this.tags : this.heads;
      const name = ref.replace(/^refs\/(tags|heads)\//, "");
      if (map.has(name)) return [422, { message: "Reference already exists" }];
      map.set(name, String(b.sha));
      return [201, { ref, object: { sha: b.sha, type: "commit" } }];
    }
    m = method === "GET" ? /^git\/matching-refs\/tags\/(.*)$/.exec(p) : null;
    if (m) {
      const list = [...this.tags]
        .filter(([name]) => name.startsWith(m![1]!))
        .map(([name, sha]) => ({ ref: `refs/tags/${name}`, object: { sha, type: "commit" } }));
      return [200, list];
    }
    if (method === "POST" && p === "check-runs") {
      const run = { id: this.#ids++, ...(b as Omit<FakeCheckRun, "id">) };
      this.checkRuns.push(run);
      return [201, run];
    }
    m = method === "PATCH" ? /^check-runs\/(\d+)$/.exec(p) : null;
    if (m) {
      const run = this.checkRuns.find((c) => c.id === Number(m![1]));
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
      const pull = this.pulls.get(Number(m[1]));
      if (!pull) return [404, { message: "Not Found" }];
      const head = pull.mergeCommitSha
        ? this.commits.get(pull.mergeCommitSha)!.parents[1]!
        : this.heads.get(pull.head)!;
      return [200, this.#diff(pull.baseSha, head).map((filename) => ({ filename, status: "modified" }))];
    }
    m = method === "GET" ? /^compare\/([0-9a-f]+)\.\.\.([0-9a-f]+)$/.exec(p) : null;
    if (m) {
      return [
        200,
        {
          status: "ahead",
          files: this.#diff(m[1]!, m[2]!).map((filename) => ({ filename, status: "modified" })),
        },
      ];
    }
    m = method === "GET" ? /^issues\/(\d+)\/comments$/.exec(p) : null;
    if (m) {
      const list = this.comments.filter((c) => c.issue === Number(m![1]));
      return [200, list.map((c) => ({ id: c.id, body: c.body, user: { login: c.user } }))];
    }
    m = method === "POST" ? /^issues\/(\d+)\/comments$/.exec(p) : null;
    if (m) {
      const comment = { id: this.#ids++, issue: Number(m[1]), body: String(b.body), user: "porchlight[bot]" };
      this.comments.push(comment);
      return [201, { id: comment.id, body: comment.body }];
    }
    m = method === "PATCH" ? /^issues\/comments\/(\d+)$/.exec(p) : null;
    if (m) {
      const comment = this.comments.find((c) => c.id === Number(m![1]));
      if (!comment) return [404, { message: "Not Found" }];
      comment.body = String(b.body);
      return [200, { id: comment.id, body: comment.body }];
    }
    void query;
    return undefined;
  }

  #graphql(body: Record<string, unknown>): [number, unknown] {
    const query = String(body.query);
    const id = (body.variables as { id?: string } | undefined)?.id;
    const pull = [...this.pulls.values()].find((p) => p.nodeId === id);
    if (!/convertPullRequestToDraft/.test(query) || !pull) {
      this.violations.push(`unexpected GraphQL ${query}`);
      return [200, { errors: [{ message: "fake-repo: not implemented" }] }];
    }
    pull.draft = true;
    return [200, { data: { convertPullRequestToDraft: { pullRequest: { isDraft: true } } } }];
  }

  /** Fails the test on an invalid body or an unrouted request. */
  assertClean(): void {
    expect(this.violations).toEqual([]);
  }
}
