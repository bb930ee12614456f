/**
 * Second round, fault 8 — big repositories. Past 100,000 entries (or 7 MB) GitHub answers a recursive
 * tree read with `truncated: true` and only part of the tree; every job read the whole recursive tree
 * and failed on it. The local GitHub does not truncate by itself, so the answer GitHub gives for a
 * repository that large is injected for the draft's head commit (status 200, `truncated: true`, a
 * partial tree): the draft must still be rendered and get its verdict, its package read whole.
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

describe.skipIf(!fakeGitHubAvailable)("fault 8: a repository past GitHub's tree limit", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("renders a draft whose recursive tree GitHub truncates", async () => {
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
    // GitHub's answer past its limit: part of the tree, `truncated: true`.
    await gh.setFaults([
      {
        method: "GET",
        path: `/git/trees/${pushed.after}\\?recursive=1`,
        status: 200,
        body: {
          sha: "0".repeat(40),
          url: "",
          tree: [{ path: "README.md", mode: "100644", type: "blob", sha: "1".repeat(40), size: 17 }],
          truncated: true,
        },
      },
    ]);
    await harness.app.deliver("push", pushed.payload);
    const { runs } = await waitForVerdict(harness, "big", "drafts/pkgs/p7/v1", 90_000);
    const hits = ((await gh.faults()) as Any).rules?.[0]?.hits ?? (await gh.faults())[0]?.hits;
    expect(hits).toBeGreaterThan(0);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    // The render commit holds the set-namespace output of p7: its package was read whole.
    const rendered = await gh.gitShow(OWNER, "big", "drafts/pkgs/p7/v1", "pkgs/p7/cm.yaml");
    expect(rendered).toContain("namespace: prod");
    expect(rendered).toContain('value: "changed"');
  }, 180_000);
});
