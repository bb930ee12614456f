import { ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { gitBlobSha } from "../../src/github/octokit/blobs.js";
import { createOctokitPort, toGitHubError } from "../../src/github/octokit/index.js";
import { GitHubError } from "../../src/github/port.js";
import { blobSha, commitContents, GitHubMock, useNock } from "../helpers/github-mock.js";

useNock();

const repo = { owner: "Codertocat", repo: "Hello-World" };
const port = () =>
  createOctokitPort(
    new ProbotOctokit({ auth: { token: "t" }, retry: { enabled: false }, throttle: { enabled: false } }),
  );
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

describe("toGitHubError", () => {
  it("separates GitHub being unavailable from GitHub refusing the request", () => {
    expect(toGitHubError("op", { status: 502, message: "Bad Gateway" }).kind).toBe("unavailable");
    expect(toGitHubError("op", new TypeError("fetch failed")).kind).toBe("unavailable");
    expect(toGitHubError("op", { status: 404, message: "Not Found" })).toMatchObject({
      kind: "rejected",
      status: 404,
    });
    expect(toGitHubError("op", { status: 403, message: "Resource not accessible by integration" }).kind).toBe(
      "rejected",
    );
  });

  it("classifies GitHub's primary and secondary rate limits, keeping how long to wait", () => {
    const secondary = toGitHubError("op", {
      status: 403,
      message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
      response: { headers: { "retry-after": "60" } },
    });
    expect(secondary).toMatchObject({ kind: "unavailable", rateLimit: "secondary", retryAfterSeconds: 60 });
    const reset = Math.floor(Date.now() / 1000) + 120;
    const primary = toGitHubError("op", {
      status: 403,
      message: "API rate limit exceeded",
      response: { headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(reset) } },
    });
    expect(primary).toMatchObject({ kind: "unavailable", rateLimit: "primary" });
    expect(primary.retryAfterSeconds).toBeGreaterThan(100);
    expect(toGitHubError("op", { status: 429, message: "slow down" })).toMatchObject({
      kind: "unavailable",
      rateLimit: "primary",
    });
  });
});

describe("reads", () => {
  it("reads a branch head with GET git/ref, undefined when the branch is gone", async () => {
    const gh = new GitHubMock();
    const ref = (branch: string) => `${gh.base}/git/ref/${encodeURIComponent(`heads/${branch}`)}`;
    gh.scope
      .get(ref("drafts/pkg/ws"))
      .reply(200, { ref: "refs/heads/drafts/pkg/ws", object: { sha: "f".repeat(40), type: "commit" } })
      .get(ref("drafts/gone/ws"))
      .reply(404, { message: "Not Found" });
    expect(await port().readBranchHead({ repo, branch: "drafts/pkg/ws" })).toBe("f".repeat(40));
    expect(await port().readBranchHead({ repo, branch: "drafts/gone/ws" })).toBeUndefined();
    gh.assertDone();
  });

  it("reads a recursive tree; a truncated one level by level, each subtree recursively (GitHub's documented way)", async () => {
    const files = { "pkg/Kptfile": "kind: Kptfile\n", "pkg/a.yaml": "a: 1\n" };
    const gh = new GitHubMock().tree("abc", files);
    const blob = (path: string, sha: string, size: number) => ({
      path,
      mode: "100644",
      type: "blob",
      sha,
      size,
    });
    gh.scope
      .get(`${gh.base}/git/trees/big`)
      .query({ recursive: "1" })
      .reply(gh.reply(200, { sha: "t", tree: [], truncated: true }))
      .get(`${gh.base}/git/trees/big`)
      .reply(
        gh.reply(200, {
          sha: "t",
          tree: [
            blob("README.md", "r".repeat(40), 3),
            { path: "pkgs", mode: "040000", type: "tree", sha: "s" },
          ],
          truncated: false,
        }),
      )
      .get(`${gh.base}/git/trees/s`)
      .query({ recursive: "1" })
      .reply(gh.reply(200, { sha: "s", tree: [blob("p/Kptfile", "k".repeat(40), 9)], truncated: false }))
      .get(`${gh.base}/git/trees/huge`)
      .query({ recursive: "1" })
      .reply(gh.reply(200, { sha: "h", tree: [], truncated: true }))
      .get(`${gh.base}/git/trees/huge`)
      .reply(gh.reply(200, { sha: "h", tree: [], truncated: true }));
    const tree = await port().readTree({ repo, sha: "abc" });
    expect(tree.treeSha).toBe("tree-abc");
    expect(tree.entries.filter((e) => e.type === "blob").map((e) => [e.path, e.size])).toEqual([
      ["pkg/Kptfile", 14],
      ["pkg/a.yaml", 5],
    ]);
    const big = await port().readTree({ repo, sha: "big" });
    expect(big.treeSha).toBe("t");
    expect(big.entries.map((e) => [e.path, e.type])).toEqual([
      ["README.md", "blob"],
      ["pkgs", "tree"],
      ["pkgs/p/Kptfile", "blob"],
    ]);
    await expect(port().readTree({ repo, sha: "huge" })).rejects.toThrow(/more entries in one directory/);
    gh.assertDone();
  });

  it("finds objects by path at a commit and reads one subtree with repository-relative paths", async () => {
    const sha = "c".repeat(40);
    const gh = new GitHubMock();
    gh.graphql("porchlightPaths", (body) => {
      const query = String(body.query);
      expect(query).toContain(`p0: object(expression: "${sha}:pkgs/app/Kptfile")`);
      expect(query).toContain(`p1: object(expression: "${sha}:pkgs/app")`);
      expect(query).toContain(`p2: object(expression: "${sha}:pkgs/Kptfile")`);
      return {
        data: {
          repository: {
            p0: { __typename: "Blob", oid: "k".repeat(40) },
            p1: { __typename: "Tree", oid: "t".repeat(40) },
            p2: null,
          },
        },
      };
    });
    gh.scope
      .get(`${gh.base}/git/trees/${"t".repeat(40)}`)
      .query({ recursive: "1" })
      .reply(
        gh.reply(200, {
          sha: "t".repeat(40),
          tree: [{ path: "Kptfile", mode: "100644", type: "blob", sha: "k".repeat(40), size: 9 }],
          truncated: false,
        }),
      );
    const found = await port().readPathObjects({
      repo,
      sha,
      paths: ["pkgs/app/Kptfile", "pkgs/app", "pkgs/Kptfile"],
    });
    expect([...found]).toEqual([
      ["pkgs/app/Kptfile", { type: "blob", sha: "k".repeat(40) }],
      ["pkgs/app", { type: "tree", sha: "t".repeat(40) }],
    ]);
    const sub = await port().readTree({ repo, sha: "t".repeat(40), prefix: "pkgs/app/" });
    expect(sub.entries.map((e) => e.path)).toEqual(["pkgs/app/Kptfile"]);
    await expect(port().readPathObjects({ repo, sha: "main", paths: ["x"] })).rejects.toThrow(
      /not a commit sha/,
    );
    gh.assertDone();
  });

  it("reads blobs in one GraphQL batch and falls back to git/blobs for large, binary and non-UTF-8 ones", async () => {
    const small = "a: 1\n";
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1: not UTF-8
    const binary = new Uint8Array([0, 1, 2, 3]);
    const large = `${"x".repeat(600_000)}\n`;
    const gh = new GitHubMock();
    gh.graphql("porchlightBlobs", (body) => {
      const query = String(body.query);
      expect(query).not.toContain(blobSha(large)); // known to be over GraphQL's text limit: not asked
      return {
        data: {
          repository: {
            b0: { text: small, isTruncated: false, isBinary: false },
            // GitHub decodes invalid UTF-8 with replacement characters: the bytes no longer hash to the sha.
            b1: { text: "caf\uFFFD\n", isTruncated: false, isBinary: false },
            b2: { text: null, isTruncated: false, isBinary: true },
          },
        },
      };
    });
    for (const bytes of [latin1, binary, enc(large)]) {
      const sha = gitBlobSha(bytes);
      gh.scope
        .get(`${gh.base}/git/blobs/${sha}`)
        .reply(gh.reply(200, { sha, encoding: "base64", content: Buffer.from(bytes).toString("base64") }));
    }
    const read = await port().readBlobs({
      repo,
      blobs: [
        { sha: blobSha(small), size: 5 },
        { sha: gitBlobSha(latin1), size: 5 },
        { sha: gitBlobSha(binary), size: 4 },
        { sha: gitBlobSha(enc(large)), size: large.length },
        { sha: blobSha(small), size: 5 },
      ],
    });
    gh.assertDone();
    expect(dec(read.get(blobSha(small)))).toBe(small);
    expect([...(read.get(gitBlobSha(latin1)) ?? [])]).toEqual([...latin1]);
    expect([...(read.get(gitBlobSha(binary)) ?? [])]).toEqual([...binary]);
    expect(read.get(gitBlobSha(enc(large)))?.byteLength).toBe(large.length);
  });

  it("reads the snapshot in one GraphQL request: config from the repository, else from the owner's .github", async () => {
    const gh = new GitHubMock()
      .branch("drafts/p/v1", "1".repeat(40), "Edit p\n\nbody")
      .config("directories: [x]\n");
    const own = await port().readSnapshot({
      repo,
      configPath: ".github/porchlight.yml",
      branch: "drafts/p/v1",
    });
    expect(own).toEqual({
      defaultBranch: "master",
      defaultBranchSha: "d".repeat(40),
      config: { text: "directories: [x]\n", source: "repository" },
      branch: { name: "drafts/p/v1", sha: "1".repeat(40), message: "Edit p\n\nbody" },
      pullRequest: undefined,
    });
    const query = String((gh.requests[0]?.body as { query?: string } | undefined)?.query);
    expect(query).toContain('organization: repository(owner: $owner, name: ".github")');
    expect(gh.requests[0]?.body).toMatchObject({
      variables: { config: "HEAD:.github/porchlight.yml", branch: "refs/heads/drafts/p/v1" },
    });

    gh.graphql("porchlightSnapshot", () => ({
      data: {
        repository: {
          defaultBranchRef: { name: "main", target: { oid: "2".repeat(40) } },
          config: null,
          ref: null,
        },
        organization: { config: { text: "pushOnFailure: None\n", isTruncated: false } },
      },
    }));
    const org = await port().readSnapshot({ repo, configPath: ".github/porchlight.yml", branch: "gone" });
    expect(org).toMatchObject({
      config: { source: "organization", text: "pushOnFailure: None\n" },
      branch: undefined,
    });
    gh.assertDone();
  });

  it("throws a rejected 404 when the repository itself cannot be read", async () => {
    const gh = new GitHubMock();
    gh.graphql("porchlightSnapshot", () => ({
      data: { repository: null, organization: null },
      errors: [{ type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a Repository" }],
    }));
    const error = await port()
      .readSnapshot({ repo, configPath: ".github/porchlight.yml" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubError);
    expect(error).toMatchObject({ kind: "rejected", status: 404 });
    gh.assertDone();
  });
});

describe("commitFiles", () => {
  const changes = {
    additions: [{ path: "p/a.yaml", content: enc("a: 2\n"), mode: "100644" as const }],
    deletions: ["p/old.yaml"],
  };

  it("commits with createCommitOnBranch onto the expected head (compare-and-swap)", async () => {
    const gh = new GitHubMock().commit("c".repeat(40));
    const outcome = await port().commitFiles({
      repo,
      branch: "drafts/p/v1",
      expectedHead: "a".repeat(40),
      message: "Render p\n\nRendered by porchlight.\n\nRendered-From: aaaaaaa\n",
      changes,
    });
    expect(outcome).toEqual({ kind: "committed", sha: "c".repeat(40) });
    const [input] = gh.commitInputs();
    expect(input).toEqual({
      branch: { repositoryNameWithOwner: "Codertocat/Hello-World", branchName: "drafts/p/v1" },
      expectedHeadOid: "a".repeat(40),
      message: { headline: "Render p", body: "Rendered by porchlight.\n\nRendered-From: aaaaaaa" },
      fileChanges: {
        additions: [{ path: "p/a.yaml", contents: "YTogMgo=" }],
        deletions: [{ path: "p/old.yaml" }],
      },
    });
    expect(commitContents(input)).toEqual({ "p/a.yaml": "a: 2\n", "p/old.yaml": null });
    gh.assertDone();
  });

  it("types a moved branch (STALE_DATA) and a deleted one (NOT_FOUND) as superseded", async () => {
    const gh = new GitHubMock().commit({ stale: true });
    gh.graphql("porchlightCommit", () => ({
      data: { createCommitOnBranch: null },
      errors: [{ type: "NOT_FOUND", path: ["createCommitOnBranch"], message: "Could not resolve to a ref" }],
    }));
    const options = { repo, branch: "drafts/p/v1", expectedHead: "a".repeat(40), message: "m", changes };
    expect(await port().commitFiles(options)).toMatchObject({
      kind: "superseded",
      message: expect.stringContaining("Expected branch"),
    });
    expect(await port().commitFiles(options)).toMatchObject({ kind: "superseded" });
    gh.assertDone();
  });

  it("keeps an executable file's mode: Git Data API commit, then updateRefs with beforeOid (still a swap)", async () => {
    const head = "a".repeat(40);
    const gh = new GitHubMock();
    gh.scope
      .get(`${gh.base}/git/commits/${head}`)
      .reply(gh.reply(200, { sha: head, tree: { sha: "t".repeat(40) } }));
    gh.createTree("n".repeat(40)).createCommit("c".repeat(40));
    gh.scope
      .get(gh.base)
      .reply(gh.reply(200, { node_id: "R_1", name: repo.repo, full_name: "Codertocat/Hello-World" }));
    gh.graphql("porchlightUpdateRefs", () => ({ data: { updateRefs: { clientMutationId: null } } }));
    const outcome = await port().commitFiles({
      repo,
      branch: "drafts/p/v1",
      expectedHead: head,
      message: "Render p\n\nRendered-From: aaaaaaa\n",
      changes: {
        additions: [{ path: "p/run.sh", content: enc("#!/bin/sh\n"), mode: "100755" }],
        deletions: ["p/x"],
      },
    });
    expect(outcome).toEqual({ kind: "committed", sha: "c".repeat(40) });
    expect(gh.bodies("POST", "/git/trees")[0]).toEqual({
      base_tree: "t".repeat(40),
      tree: [
        { path: "p/run.sh", mode: "100755", type: "blob", content: "#!/bin/sh\n" },
        { path: "p/x", mode: "100644", type: "blob", sha: null },
      ],
    });
    expect(gh.bodies("POST", "/git/commits")[0]).toMatchObject({ parents: [head] });
    const update = gh.requests.find((r) =>
      String((r.body as { query?: string }).query).includes("updateRefs("),
    );
    expect(update?.body).toMatchObject({
      variables: {
        input: {
          repositoryId: "R_1",
          refUpdates: [{ name: "refs/heads/drafts/p/v1", beforeOid: head, afterOid: "c".repeat(40) }],
        },
      },
    });
    gh.assertDone();
  });

  it("reads the branch again when updateRefs fails: moved means superseded", async () => {
    const head = "a".repeat(40);
    const gh = new GitHubMock();
    gh.scope
      .get(`${gh.base}/git/commits/${head}`)
      .reply(gh.reply(200, { sha: head, tree: { sha: "t".repeat(40) } }));
    gh.createTree("n".repeat(40)).createCommit("c".repeat(40));
    gh.scope.get(gh.base).reply(gh.reply(200, { node_id: "R_1", name: repo.repo }));
    gh.graphql("porchlightUpdateRefs", () => ({ data: null, errors: [{ message: "Something went wrong" }] }));
    gh.scope
      .get(`${gh.base}/git/ref/${encodeURIComponent("heads/drafts/p/v1")}`)
      .reply(200, { ref: "refs/heads/drafts/p/v1", object: { sha: "b".repeat(40), type: "commit" } });
    const outcome = await port().commitFiles({
      repo,
      branch: "drafts/p/v1",
      expectedHead: head,
      message: "m",
      changes: {
        additions: [{ path: "p/run.sh", content: enc("#!/bin/sh\n"), mode: "100755" }],
        deletions: [],
      },
    });
    expect(outcome).toMatchObject({ kind: "superseded" });
    gh.assertDone();
  });
});

describe("check runs", () => {
  it("creates, updates and lists check runs with Checks API field names", async () => {
    const gh = new GitHubMock()
      .createCheckRun()
      .updateCheckRun(1)
      .checkRuns("abc", [
        {
          id: 7,
          name: "porchlight/render",
          head_sha: "abc",
          status: "in_progress",
          conclusion: null,
          external_id: "abc holder=h until=1 sent=50",
          started_at: "2026-01-01T00:00:00Z",
          app: { id: 3 },
        },
      ]);
    const { id } = await port().createCheckRun({
      repo,
      name: "porchlight/render",
      headSha: "abc",
      status: "in_progress",
      externalId: "src",
      output: { title: "t", summary: "s" },
    });
    await port().updateCheckRun({ repo, checkRunId: id, status: "completed", conclusion: "success" });
    expect(gh.bodies("POST", "/check-runs")[0]).toEqual({
      name: "porchlight/render",
      head_sha: "abc",
      status: "in_progress",
      external_id: "src",
      output: { title: "t", summary: "s" },
    });
    expect(gh.bodies("PATCH", `/check-runs/${id}`)[0]).toEqual({
      status: "completed",
      conclusion: "success",
    });
    expect(await port().listCheckRuns({ repo, sha: "abc", name: "porchlight/render" })).toEqual([
      {
        id: 7,
        name: "porchlight/render",
        headSha: "abc",
        status: "in_progress",
        conclusion: undefined,
        externalId: "abc holder=h until=1 sent=50",
        startedAt: "2026-01-01T00:00:00Z",
        appId: 3,
      },
    ]);
    expect(gh.requests.at(-1)?.path).toMatch(/check_name=porchlight%2Frender/);
    expect(gh.requests.at(-1)?.path).toMatch(/filter=all/);
    gh.assertDone();
  });
});
