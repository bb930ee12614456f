import { ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { createOctokitPort, toGitHubError } from "../../src/github/octokit-port.js";
import { GitHubError } from "../../src/github/port.js";
import { GitHubMock, useNock } from "../helpers/github-mock.js";

useNock();

const repo = { owner: "Codertocat", repo: "Hello-World" };
const port = () =>
  createOctokitPort(
    new ProbotOctokit({ auth: { token: "t" }, retry: { enabled: false }, throttle: { enabled: false } }),
  );

describe("toGitHubError", () => {
  it("separates GitHub being unavailable from GitHub refusing the request", () => {
    expect(toGitHubError("op", { status: 502, message: "Bad Gateway" }).kind).toBe("unavailable");
    expect(toGitHubError("op", { status: 429, message: "slow down" }).kind).toBe("unavailable");
    const limited = { status: 403, message: "rate", response: { headers: { "x-ratelimit-remaining": "0" } } };
    expect(toGitHubError("op", limited).kind).toBe("unavailable");
    expect(toGitHubError("op", new TypeError("fetch failed")).kind).toBe("unavailable");
    expect(toGitHubError("op", { status: 404, message: "Not Found" })).toMatchObject({
      kind: "rejected",
      status: 404,
    });
    expect(toGitHubError("op", { status: 403, message: "Resource not accessible by integration" }).kind).toBe(
      "rejected",
    );
  });
});

describe("createOctokitPort", () => {
  it("reads a branch head with GET git/ref, undefined when the branch is gone", async () => {
    const gh = new GitHubMock();
    const ref = (branch: string) => `${gh.base}/git/ref/${encodeURIComponent(`heads/${branch}`)}`;
    gh.scope
      .get(ref("drafts/pkg/ws"))
      .reply(200, { ref: "refs/heads/drafts/pkg/ws", object: { sha: "f".repeat(40), type: "commit" } })
      .get(ref("drafts/gone/ws"))
      .reply(404, { message: "Not Found" });
    expect(await port().readBranchHead?.({ repo, branch: "drafts/pkg/ws" })).toBe("f".repeat(40));
    expect(await port().readBranchHead?.({ repo, branch: "drafts/gone/ws" })).toBeUndefined();
    gh.assertDone();
  });

  it("reads a recursive tree and decodes base64 blobs", async () => {
    const files = { "pkg/Kptfile": "kind: Kptfile\n", "pkg/a.yaml": "a: 1\n" };
    const gh = new GitHubMock().tree("abc", files).blobs({ "pkg/a.yaml": "a: 1\n" });
    const tree = await port().readTree({ repo, sha: "abc" });
    expect(tree.treeSha).toBe("tree-abc");
    expect(tree.entries.filter((e) => e.type === "blob").map((e) => e.path)).toEqual([
      "pkg/Kptfile",
      "pkg/a.yaml",
    ]);
    const blob = tree.entries.find((e) => e.path === "pkg/a.yaml");
    expect(new TextDecoder().decode(await port().readBlob({ repo, sha: blob?.sha ?? "" }))).toBe("a: 1\n");
    gh.assertDone();
  });

  it("refuses a truncated tree with a clear error", async () => {
    const gh = new GitHubMock();
    gh.scope
      .get(`${gh.base}/git/trees/big`)
      .query({ recursive: "1" })
      .reply(gh.reply(200, { sha: "t", url: "u", tree: [], truncated: true }));
    await expect(port().readTree({ repo, sha: "big" })).rejects.toThrow(/too large/);
    gh.assertDone();
  });

  it("creates a tree with inline content, blob references and deletions", async () => {
    const gh = new GitHubMock().createTree("t2");
    const sha = await port().createTree({
      repo,
      baseTreeSha: "t1",
      changes: [
        { path: "p/a.yaml", mode: "100644", content: "a: 2\n" },
        { path: "p/bin", mode: "100644", blobSha: "f".repeat(40) },
        { path: "p/old.yaml", delete: true },
      ],
    });
    expect(sha).toBe("t2");
    expect(gh.bodies("POST", "/git/trees")[0]).toEqual({
      base_tree: "t1",
      tree: [
        { path: "p/a.yaml", mode: "100644", type: "blob", content: "a: 2\n" },
        { path: "p/bin", mode: "100644", type: "blob", sha: "f".repeat(40) },
        { path: "p/old.yaml", mode: "100644", type: "blob", sha: null },
      ],
    });
    gh.assertDone();
  });

  it("moves a branch without force and types a non-fast-forward as superseded", async () => {
    const gh = new GitHubMock().updateRef("drafts/p/v1").updateRef("drafts/p/v1", { race: true });
    expect(await port().updateBranch({ repo, branch: "drafts/p/v1", sha: "1".repeat(40) })).toEqual({
      kind: "updated",
      sha: "1".repeat(40),
    });
    expect(await port().updateBranch({ repo, branch: "drafts/p/v1", sha: "2".repeat(40) })).toMatchObject({
      kind: "superseded",
    });
    expect(gh.bodies("PATCH", "/git/refs/heads%2Fdrafts%2Fp%2Fv1").map((b) => b.force)).toEqual([
      false,
      false,
    ]);
    gh.assertDone();
  });

  it("throws a GitHubError for other ref-update failures", async () => {
    const gh = new GitHubMock();
    gh.scope.patch(`${gh.base}/git/refs/heads%2Fx%2Fy`).reply(gh.reply(500, { message: "boom" }));
    const error = await port()
      .updateBranch({ repo, branch: "x/y", sha: "3".repeat(40) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubError);
    expect(error).toMatchObject({ kind: "unavailable", status: 500, operation: "git.updateRef" });
    gh.assertDone();
  });

  it("creates and updates check runs with Checks API field names", async () => {
    const gh = new GitHubMock().createCheckRun().updateCheckRun(1);
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
    gh.assertDone();
  });
});
