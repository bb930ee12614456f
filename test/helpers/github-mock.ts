/**
 * nock-backed GitHub for handler tests: each expected REST call is declared explicitly, every request
 * body is validated against GitHub's REST description (./github-schema.ts) and recorded, and
 * {@link GitHubMock.assertDone} fails when a declared call was not made or a body was invalid.
 * Real network is disabled by {@link useNock}.
 */
import { createHash } from "node:crypto";
import "./promise-with-resolvers.js";
import nock from "nock";
import { afterEach, beforeEach, expect } from "vitest";
import { validateRequestBody } from "./github-schema.js";

export const API = "https://api.github.com";

/** A request the mock received. */
export interface Recorded {
  method: string;
  path: string;
  body: unknown;
}

/** Git blob sha of `content` (what GitHub computes). */
export function blobSha(content: string | Uint8Array): string {
  const bytes = typeof content === "string" ? Buffer.from(content) : Buffer.from(content);
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Disables real network for the file and cleans interceptors between tests. */
export function useNock(): void {
  beforeEach(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
}

function parseBody(body: unknown): unknown {
  if (typeof body !== "string" || body === "") return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** The input of a GraphQL `createCommitOnBranch` as the app sends it. */
export interface CommitInput {
  branch: { repositoryNameWithOwner: string; branchName: string };
  expectedHeadOid: string;
  message: { headline: string; body: string };
  fileChanges: { additions: { path: string; contents: string }[]; deletions: { path: string }[] };
}

/** Files a commit input writes, decoded, keyed by path (`null` for deletions). */
export function commitContents(input: CommitInput | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const a of input?.fileChanges.additions ?? [])
    out[a.path] = Buffer.from(a.contents, "base64").toString("utf8");
  for (const d of input?.fileChanges.deletions ?? []) out[d.path] = null;
  return out;
}

/** The full message of a commit input (`headline`, blank line, `body`). */
export function commitMessage(input: CommitInput | undefined): string {
  return input ? `${input.message.headline}\n\n${input.message.body}` : "";
}

export class GitHubMock {
  readonly requests: Recorded[] = [];
  readonly violations: string[] = [];
  readonly scope: nock.Scope;
  readonly owner: string;
  readonly repo: string;
  /** Branch heads the snapshot query answers (`branch()`). */
  readonly heads = new Map<string, { sha: string; message: string }>();
  /** Text of `.github/porchlight.yml` the snapshot query answers (`config()`); `undefined` = absent. */
  configText: string | undefined;
  /** The default branch the snapshot answers (the webhook examples' `master`). */
  defaultBranch = "master";
  #nextId = 100;

  constructor(options: { owner?: string; repo?: string } = {}) {
    this.owner = options.owner ?? "Codertocat";
    this.repo = options.repo ?? "Hello-World";
    this.scope = nock(API);
  }

  get base(): string {
    return `/repos/${this.owner}/${this.repo}`;
  }

  /**
   * A full reply function (nock 15 calls it with the fetch `Request`) that validates and records the
   * body, then answers `status` with `data` (or `data(body)`).
   */
  reply(status: number, data: unknown | ((body: unknown) => unknown)) {
    return async (request: Request): Promise<[number, unknown]> => {
      const url = new URL(request.url);
      const body = parseBody(await request.text());
      const method = request.method.toUpperCase();
      const path = `${url.pathname}${url.search}`;
      this.requests.push({ method, path, body });
      this.violations.push(...validateRequestBody(method, path, body));
      return [status, typeof data === "function" ? (data as (b: unknown) => unknown)(body) : data];
    };
  }

  /**
   * The tree of commit `sha` holding `files`, as a job may read it: the whole recursive listing
   * (`GET git/trees/{sha}?recursive=1`), objects by path (GraphQL `porchlightPaths`), each directory's
   * subtree (`GET git/trees/<its sha>?recursive=1`). All optional: which ones a job reads is its own
   * business (a draft reads its packages' subtrees, a re-run of every package the whole tree).
   */
  tree(sha: string, files: Record<string, string>, treeSha = `tree-${sha}`): this {
    const dirs = new Set<string>();
    for (const p of Object.keys(files)) {
      const parts = p.split("/");
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
    }
    const dirSha = (dir: string) => blobSha(`dir:${sha}:${dir}`);
    const entries = [
      ...[...dirs].map((p) => ({ path: p, mode: "040000", type: "tree", sha: dirSha(p) })),
      ...Object.entries(files).map(([p, c]) => ({
        path: p,
        mode: "100644",
        type: "blob",
        sha: blobSha(c),
        size: Buffer.byteLength(c),
      })),
    ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const listing = (at: string, prefix: string) => ({
      sha: at,
      url: `${API}${this.base}/git/trees/${at}`,
      tree: entries
        .filter((e) => e.path.startsWith(prefix))
        .map((e) => ({ ...e, path: e.path.slice(prefix.length) })),
      truncated: false,
    });
    this.scope
      .get(`${this.base}/git/trees/${sha}`)
      .query({ recursive: "1" })
      .optionally()
      .reply(this.reply(200, listing(treeSha, "")));
    for (const dir of dirs) {
      this.scope
        .get(`${this.base}/git/trees/${dirSha(dir)}`)
        .query({ recursive: "1" })
        .optionally()
        .reply(this.reply(200, listing(dirSha(dir), `${dir}/`)));
    }
    this.scope
      .post("/graphql", (body: Record<string, unknown>) => {
        const query = String(body?.query ?? "");
        return query.includes("porchlightPaths(") && query.includes(`"${sha}:`);
      })
      .optionally()
      .reply(async (request: Request) => {
        const body = (parseBody(await request.text()) ?? {}) as Record<string, unknown>;
        this.requests.push({ method: "POST", path: "/graphql", body });
        const repository: Record<string, unknown> = {};
        for (const [, alias, path] of String(body.query).matchAll(
          /(p\d+): object\(expression: "[0-9a-f]{40}:([^"]*)"\)/g,
        )) {
          const content = files[path as string];
          repository[alias as string] =
            content !== undefined
              ? { __typename: "Blob", oid: blobSha(content) }
              : dirs.has(path as string)
                ? { __typename: "Tree", oid: dirSha(path as string) }
                : null;
        }
        return [200, { data: { repository } }];
      });
    return this;
  }

  /**
   * One GraphQL `porchlightBlobs` batch answering the blobs of the files under one of `prefixes`
   * (`""` = all) — the port reads a package's blobs in batches of hundreds.
   */
  blobs(files: Record<string, string>, prefixes: string[] = [""]): this {
    const bySha = new Map<string, string>();
    for (const [p, content] of Object.entries(files)) {
      if (prefixes.some((prefix) => prefix === "" || p.startsWith(`${prefix}/`)))
        bySha.set(blobSha(content), content);
    }
    this.graphql("porchlightBlobs", (body) => {
      const fields = [...String(body.query).matchAll(/(b\d+): object\(oid: "([0-9a-f]{40})"\)/g)];
      const repository: Record<string, unknown> = {};
      for (const [, alias, sha] of fields) {
        const text = bySha.get(sha as string);
        repository[alias as string] =
          text === undefined ? null : { text, isTruncated: false, isBinary: false };
      }
      return { data: { repository } };
    });
    return this;
  }

  /** `GET git/blobs/{sha}` once for each distinct blob of the files under one of `prefixes` (REST fallback). */
  restBlobs(files: Record<string, string>, prefixes: string[] = [""]): this {
    const seen = new Set<string>();
    for (const [p, content] of Object.entries(files)) {
      if (!prefixes.some((prefix) => prefix === "" || p.startsWith(`${prefix}/`))) continue;
      const sha = blobSha(content);
      if (seen.has(sha)) continue;
      seen.add(sha);
      const b64 = Buffer.from(content)
        .toString("base64")
        .replace(/(.{60})/g, "$1\n");
      this.scope.get(`${this.base}/git/blobs/${sha}`).reply(
        this.reply(200, {
          sha,
          size: Buffer.byteLength(content),
          content: b64,
          encoding: "base64",
          node_id: "B",
          url: "u",
        }),
      );
    }
    return this;
  }

  /** `POST git/trees` → `newTreeSha`. */
  createTree(newTreeSha = "newtree0000000000000000000000000000000000"): this {
    this.scope
      .post(`${this.base}/git/trees`)
      .reply(this.reply(201, { sha: newTreeSha, tree: [], truncated: false }));
    return this;
  }

  /** `POST git/commits` → `commitSha`. */
  createCommit(commitSha: string): this {
    this.scope
      .post(`${this.base}/git/commits`)
      .reply(this.reply(201, { sha: commitSha, message: "m", parents: [] }));
    return this;
  }

  /** `PATCH git/refs/heads/<branch>`: 200, or 422 "Update is not a fast forward" when `race`. */
  updateRef(branch: string, options: { race?: boolean } = {}): this {
    const path = `${this.base}/git/refs/${encodeURIComponent(`heads/${branch}`)}`;
    const answer = options.race
      ? this.reply(422, {
          message: "Update is not a fast forward",
          documentation_url: "https://docs.github.com",
          status: "422",
        })
      : this.reply(200, (b: unknown) => ({
          ref: `refs/heads/${branch}`,
          object: { sha: (b as { sha: string }).sha, type: "commit" },
        }));
    this.scope.patch(path).reply(answer);
    return this;
  }

  /**
   * A GraphQL request whose document names `operation` (`query porchlightSnapshot(...)`), answered by
   * `answer(body)`; recorded like REST requests (path `/graphql`).
   */
  graphql(operation: string, answer: (body: Record<string, unknown>) => unknown, times = 1): this {
    this.scope
      .post("/graphql", (body: Record<string, unknown>) =>
        String(body?.query ?? "").includes(`${operation}(`),
      )
      .times(times)
      .reply(async (request: Request) => {
        const body = (parseBody(await request.text()) ?? {}) as Record<string, unknown>;
        this.requests.push({ method: "POST", path: "/graphql", body });
        return [200, answer(body)];
      });
    return this;
  }

  /** The head of `branch` as the snapshot query answers it (`message`: the head commit's message). */
  branch(name: string, sha: string, message = "Edit package"): this {
    this.heads.set(name, { sha, message });
    return this;
  }

  /**
   * One `porchlightSnapshot` query (what every job reads first): `.github/porchlight.yml` as `text` (absent
   * without it, nor in the owner's `.github` repository), the default branch and the heads of
   * {@link branch}. `pullRequest` answers `pullRequest(number:)`.
   */
  config(text?: string, options: { times?: number; pullRequest?: Record<string, unknown> } = {}): this {
    this.configText = text;
    return this.graphql(
      "porchlightSnapshot",
      (body) => {
        const variables = (body.variables ?? {}) as { branch?: string; number?: number };
        const branch = variables.branch?.replace(/^refs\/heads\//, "");
        const head = branch === undefined ? undefined : this.heads.get(branch);
        const blob = this.configText === undefined ? null : { text: this.configText, isTruncated: false };
        return {
          data: {
            repository: {
              defaultBranchRef: { name: this.defaultBranch, target: { oid: "d".repeat(40) } },
              config: blob,
              ...(branch !== undefined
                ? { ref: head ? { name: branch, target: { oid: head.sha, message: head.message } } : null }
                : {}),
              ...(variables.number !== undefined ? { pullRequest: options.pullRequest ?? null } : {}),
            },
            organization: null,
          },
          errors: [
            { type: "NOT_FOUND", path: ["organization"], message: "Could not resolve to a Repository" },
          ],
        };
      },
      options.times ?? 1,
    );
  }

  /**
   * `GET commits/{sha}/check-runs` (the verdict lookup): `runs` are this app's runs on `sha` (none by
   * default); `"created"` answers the runs this mock saw created on `sha`, as GitHub would list them.
   */
  checkRuns(sha: string, runs: Record<string, unknown>[] | "created" = []): this {
    this.scope
      .get(`${this.base}/commits/${sha}/check-runs`)
      .query(true)
      .reply(
        this.reply(200, () => {
          const list =
            runs === "created"
              ? (this.bodies("POST", "/check-runs") as { head_sha?: string }[])
                  .map((b, i) => ({ ...b, id: 100 + i, started_at: new Date().toISOString() }))
                  .filter((b) => b.head_sha === sha)
              : runs;
          return { total_count: list.length, check_runs: list };
        }),
      );
    return this;
  }

  /**
   * One GraphQL `createCommitOnBranch`: committed as `sha`, or refused with `STALE_DATA` when `stale`
   * (the branch no longer points at the expected head: it points at `movedTo` from then on).
   */
  commit(sha: string | { stale: true; movedTo?: string }): this {
    return this.graphql("porchlightCommit", (body) => {
      const input = (body.variables as { input: { expectedHeadOid: string; branch: { branchName: string } } })
        .input;
      if (typeof sha !== "string") {
        if (sha.movedTo)
          this.heads.set(input.branch.branchName, { sha: sha.movedTo, message: "Edit package" });
        return {
          data: { createCommitOnBranch: null },
          errors: [
            {
              type: "STALE_DATA",
              path: ["createCommitOnBranch"],
              message: `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`,
            },
          ],
        };
      }
      const branch = (body.variables as { input: { branch: { branchName: string } } }).input.branch
        .branchName;
      this.heads.set(branch.replace(/^refs\/heads\//, ""), {
        sha,
        message: `${(body.variables as { input: CommitInput }).input.message.headline}\n\n${(body.variables as { input: CommitInput }).input.message.body}`,
      });
      return { data: { createCommitOnBranch: { commit: { oid: sha } } } };
    });
  }

  /** Inputs of the GraphQL `createCommitOnBranch` requests made, in order. */
  commitInputs(): CommitInput[] {
    return this.requests
      .filter(
        (r) =>
          r.path === "/graphql" && String((r.body as { query?: string }).query).includes("porchlightCommit("),
      )
      .map((r) => (r.body as { variables: { input: CommitInput } }).variables.input);
  }

  /**
   * `GET compare/{base}...{head}` answering `files` as changed (the draft push handler asks what the whole
   * draft changes against the default branch — `master` in the webhook examples).
   */
  compare(head: string, files: string[] = [], base = "master"): this {
    this.scope
      .get(`${this.base}/compare/${base}...${head}`)
      .query(true)
      .reply(
        this.reply(200, {
          status: "ahead",
          ahead_by: 1,
          behind_by: 0,
          total_commits: 1,
          commits: [],
          files: files.map((filename) => ({ filename, status: "modified", sha: blobSha(filename) })),
        }),
      );
    return this;
  }

  /** `POST check-runs` → a new id (returned through `ids`). */
  createCheckRun(): this {
    const id = this.#nextId++;
    this.scope
      .post(`${this.base}/check-runs`)
      .reply(this.reply(201, (b: unknown) => ({ id, ...(b as object) })));
    return this;
  }

  /** `PATCH check-runs/{id}` `times` times (id = the last created one unless given). */
  updateCheckRun(times = 1, id = this.#nextId - 1): this {
    this.scope
      .patch(`${this.base}/check-runs/${id}`)
      .times(times)
      .reply(this.reply(200, (b: unknown) => ({ id, ...(b as object) })));
    return this;
  }

  /** Recorded bodies of `METHOD pathSuffix` requests, in order. */
  bodies(method: string, pathSuffix: string): Record<string, unknown>[] {
    return this.requests
      .filter((r) => r.method === method && r.path.replace(/\?.*$/, "").endsWith(pathSuffix))
      .map((r) => r.body as Record<string, unknown>);
  }

  /** Fails the test when a declared call was not made or a body did not validate. */
  assertDone(): void {
    expect(this.violations, "request bodies must match GitHub's REST description").toEqual([]);
    expect(this.scope.pendingMocks(), "every declared GitHub call must be made").toEqual([]);
  }
}
