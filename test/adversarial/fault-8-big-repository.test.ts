/**
 * Second round, fault 8 — big repositories. Every job read the repository's whole recursive tree: past
 * 100,000 entries (or 7 MB) GitHub answers it `truncated: true`, and below that the cost of a push grew
 * with the repository. A draft push must read only its package: the Kptfiles on the way found by path,
 * the package's own subtree (`git/trees/<its tree sha>?recursive=1`) and nothing of the root. The local
 * GitHub does not truncate by itself, so GitHub's answer for a repository that large is injected for
 * every recursive read of the root (the head commit, its tree): the draft must not need it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  configMap,
  fakeGitHubAvailable,
  type Harness,
  kptfile,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

/** GitHub's answer past its limit: part of the tree, `truncated: true`. */
const TRUNCATED = {
  sha: "0".repeat(40),
  url: "",
  tree: [{ path: "README.md", mode: "100644", type: "blob", sha: "1".repeat(40), size: 17 }],
  truncated: true,
};

describe.skipIf(!fakeGitHubAvailable)("fault 8: a repository past GitHub's tree limit", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("renders a draft reading only its package's subtree, never the root's recursive tree", async () => {
    const { gh } = harness;
    const files: Record<string, string> = { "README.md": "# many packages\n" };
    for (let i = 0; i < 20; i++) {
      files[`pkgs/p${i}/Kptfile`] = kptfile(`p${i}`);
      files[`pkgs/p${i}/cm.yaml`] = configMap(`cm-${i}`, i);
    }
    await gh.createRepo(OWNER, "big", files);
    await gh.idle({ quietMs: 500 });
    const pushed = await gh.pushFiles(
      OWNER,
      "big",
      "drafts/pkgs/p7/v1",
      { "pkgs/p7/cm.yaml": configMap("cm-7", "changed") },
      "change p7",
      { from: "main", deliver: false },
    );
    const objects = await gh.graphql(
      `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
        root: object(expression: "${pushed.after}:") { oid } pkg: object(expression: "${pushed.after}:pkgs/p7") { oid } } }`,
      { owner: OWNER, name: "big" },
    );
    const rootTree: string = objects.data.repository.root.oid;
    const packageTree: string = objects.data.repository.pkg.oid;
    await gh.setFaults(
      [pushed.after, rootTree].map((sha) => ({
        method: "GET",
        path: `/git/trees/${sha}\\?recursive=1`,
        status: 200,
        body: TRUNCATED,
      })),
    );
    const before = (await gh.log()).length;
    await harness.app.deliver("push", pushed.payload);
    const { runs } = await waitForVerdict(harness, "big", "drafts/pkgs/p7/v1", 90_000);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    // The render commit holds the set-namespace output of p7: its package was read whole.
    const rendered = await gh.gitShow(OWNER, "big", "drafts/pkgs/p7/v1", "pkgs/p7/cm.yaml");
    expect(rendered).toContain("namespace: prod");
    expect(rendered).toContain('value: "changed"');
    // What the app read of the tree: p7's subtree, recursively, and no listing of the root.
    await gh.idle({ quietMs: 500 });
    const trees = ((await gh.log()) as Any[])
      .slice(before)
      .filter((e) => e.method === "GET" && /\/git\/trees\//.test(e.path))
      .map((e) => String(e.path).replace(/^.*\/git\/trees\//, ""));
    expect(trees).toEqual([`${packageTree}?recursive=1`]);
  }, 180_000);
});
