/**
 * Second round, fault 4 — a 401 is retried. GitHub answering "Bad credentials" for a few seconds (a
 * token revoked and re-minted, a clock skew) used to fail the job: the head waited for the next
 * reconciliation pass (never, here: reconciliation runs only at start). Now a 401 mints a new token and
 * the request is sent again after a backoff. A 401/404 that persists — the installation was uninstalled
 * — stops that installation's work cleanly: its jobs end without retries, and it is logged once, while
 * another installation's push still gets its verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  commit,
  configMap,
  fakeGitHubAvailable,
  type Harness,
  kptfile,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

const BRANCH = "drafts/web/v1";
const files = () => ({ "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });

describe.skipIf(!fakeGitHubAvailable)("fault 4: 401s are retried; a gone installation stops cleanly", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 180_000);
  afterAll(async () => harness?.stop());

  const mints = async (): Promise<number> =>
    ((await harness.gh.log()) as Any[]).filter(
      (r) => r.method === "POST" && /\/access_tokens$/.test(r.path) && r.status === 201,
    ).length;

  it("renders a push made while GitHub answers 401 Bad credentials for 6 s, minting a new token", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "f4a", files());
    // A first verdict: the app holds a token; past 5 s Octokit's own 401 retry no longer applies.
    await gh.pushFiles(OWNER, "f4a", "drafts/web/warm", { "web/cm.yaml": configMap("web", 1) }, "warm", {
      from: "main",
    });
    await waitForVerdict(harness, "f4a", "drafts/web/warm", 90_000);
    await gh.idle({ quietMs: 500 });
    await harness.scenario.sleep(6000);
    const mintedBefore = await mints();
    await gh.setFaults([
      { path: "^/api/(v3/repos|graphql)", status: 401, message: "Bad credentials", forMs: 6000 },
    ]);
    const pushed = await gh.pushFiles(OWNER, "f4a", BRANCH, { "web/cm.yaml": configMap("web", 2) }, "edit", {
      from: "main",
    });
    const { sha, runs } = await waitForVerdict(harness, "f4a", BRANCH, 60_000);
    expect((await gh.faults()).rules[0].hits).toBeGreaterThan(0);
    expect((await commit(gh, "f4a", sha)).parents.map((p) => p.sha)).toEqual([pushed.after]);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    expect(await mints()).toBeGreaterThan(mintedBefore);
    await gh.clearFaults();
  }, 200_000);

  it("stops an uninstalled installation's work, logged once; another installation is served", async () => {
    const { gh } = harness;
    await gh.createInstallation(OWNER);
    const gone = await gh.createInstallation("globex");
    await gh.createRepo("globex", "g1", files());
    await gh.createRepo(OWNER, "f4b", files());
    await gh.pushFiles("globex", "g1", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "edit", {
      from: "main",
    });
    // The app holds a token of the installation when it is uninstalled.
    await harness.scenario.waitFor(
      async () => {
        const head = (await gh.request("GET", `/repos/globex/g1/branches/${encodeURIComponent(BRANCH)}`))
          .data;
        const runs = await gh.checkRuns("globex", "g1", head.commit.sha);
        return runs.some((r: Any) => r.status === "completed");
      },
      { timeoutMs: 90_000, intervalMs: 250, message: "globex/g1 checked" },
    );
    await gh.idle({ quietMs: 500 });
    await gh.deleteInstallation(gone.id);
    // Late deliveries of three pushes made just before the uninstall (sent by hand: GitHub would not now).
    for (const i of [2, 3, 4]) {
      const { payload } = await gh.pushFiles(
        "globex",
        "g1",
        `drafts/web/w${i}`,
        { "web/cm.yaml": configMap("web", i) },
        `edit ${i}`,
        { from: "main", deliver: false },
      );
      payload.installation = { id: gone.id, node_id: gone.node_id };
      expect((await harness.app.deliver("push", payload)).ok).toBe(true);
    }
    await gh.pushFiles(OWNER, "f4b", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "edit", {
      from: "main",
    });
    const { runs } = await waitForVerdict(harness, "f4b", BRANCH, 90_000);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    await gh.idle({ quietMs: 2000, timeoutMs: 60_000 });
    const lines: string[] = harness.app.logs.filter((l: string) => l.includes(`installation ${gone.id}`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/uninstalled: its work stops until it is installed again/);
    // No job of it failed loudly (one error line per job), and none waits for a retry.
    const failed = harness.app.logs.filter((l: string) => /globex\/g1.*failed/.test(l));
    expect(failed).toEqual([]);
  }, 300_000);
});
