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

export class GitHubMock {
  readonly requests: Recorded[] = [];
  readonly violations: string[] = [];
  readonly scope: nock.Scope;
  readonly owner: string;
  readonly repo: string;
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

  /** `GET git/trees/{sha}?recursive=1` answering the recursive listing of `files`. */
  tree(sha: string, files: Record<string, string>, treeSha = `tree-${sha}`): this {
    const dirs = new Set<string>();
    for (const p of Object.keys(files)) {
      const parts = p.split("/");
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
    }
    const tree = [
      ...[...dirs].map((p) => ({ path: p, mode: "040000", type: "tree", sha: blobSha(`dir:${p}`) })),
      ...Object.entries(files).map(([p, c]) => ({
        path: p,
        mode: "100644",
        type: "blob",
        sha: blobSha(c),
        size: Buffer.byteLength(c),
      })),
    ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.scope
      .get(`${this.base}/git/trees/${sha}`)
      .query({ recursive: "1" })
      .reply(
        this.reply(200, {
          sha: treeSha,
          url: `${API}${this.base}/git/trees/${treeSha}`,
          tree,
          truncated: false,
        }),
      );
    return this;
  }

  /** `GET git/blobs/{sha}` once for each distinct blob of the files under one of `prefixes` (`""` = all). */
  blobs(files: Record<string, string>, prefixes: string[] = [""]): this {
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
   * `.github/porchlight.yml` as Probot's `context.config` reads it (contents API, raw): `text` answers
   * 200; without it the file is absent (404, then 404 for the owner's `.github` repository, Probot's
   * organization-wide fallback) and the defaults apply.
   */
  config(text?: string): this {
    const file = /\/contents\/\.github(%2F|\/)porchlight\.yml$/;
    const inRepo = new RegExp(`^${this.base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${file.source}`);
    if (text === undefined) {
      const org = new RegExp(`^/repos/${this.owner}/\\.github${file.source}`);
      this.scope.get(inRepo).reply(this.reply(404, { message: "Not Found" }));
      this.scope.get(org).reply(this.reply(404, { message: "Not Found" }));
    } else {
      this.scope.get(inRepo).reply(async (request: Request) => {
        await this.reply(200, "")(request);
        return [200, text, { "content-type": "application/vnd.github.raw; charset=utf-8" }];
      });
    }
    return this;
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
