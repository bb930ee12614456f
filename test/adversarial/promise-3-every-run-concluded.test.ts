import path from "node:path";
/**
 * Promise 3 — every check run the app starts is concluded. A render with 60 annotations needs a run
 * created in progress and a follow-up update (GitHub takes 50 annotations a request):
 * - GitHub answers 5xx to the update for longer than the client's retries: the job runs again, adopts
 *   its run and concludes it, without sending an annotation twice;
 * - the process is killed during the update: the next process (after the run's lease) adopts and
 *   concludes it;
 * - SIGTERM during the update: the process finishes the run before it exits;
 * - GitHub does not answer the run's create within the app's request time limit: the create is not sent
 *   again by the client (GitHub may have made the run: a second create would leave it in progress); the
 *   job's retry looks at the sha's runs and reports one verdict.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  configMap,
  fakeGitHubAvailable,
  type Harness,
  head,
  kptfile,
  OWNER,
  renderRuns,
  startHarness,
  waitForVerdict,
} from "./support.js";

// exec functions start in an empty directory of their own: their scripts are named by absolute path.
const FIXTURES = path.resolve("test/handlers/fixtures");

const BRANCH = "drafts/web/v1";
/** 3 resources x 20 warnings = 60 annotations (exec functions allowed for this app). */
const WARNINGS = `    - exec: node ${FIXTURES}/report-results.mjs warning 20\n`;
const files = () => ({
  "web/Kptfile": kptfile("web", WARNINGS),
  "web/a.yaml": configMap("a", 0),
  "web/b.yaml": configMap("b", 0),
  "web/c.yaml": configMap("c", 0),
});

/** Waits until the render commit on `branch` carries a run still in progress; returns its head. */
async function runInProgress(harness: Harness, repo: string): Promise<string> {
  return harness.scenario.waitFor(
    async () => {
      const sha = await head(harness.gh, repo, BRANCH);
      const runs = sha ? await renderRuns(harness.gh, repo, sha) : [];
      return runs.some((r: Any) => r.status === "in_progress") ? sha : null;
    },
    { timeoutMs: 60_000, intervalMs: 100, message: "a porchlight/render run in progress" },
  );
}

function expectOneCompleteRun(runs: Any[]): void {
  expect(runs.map((r: Any) => [r.status, r.conclusion])).toEqual([["completed", "success"]]);
  expect(runs[0].annotations).toHaveLength(60);
}

describe.skipIf(!fakeGitHubAvailable)("promise 3: every check run the app starts is concluded", () => {
  let harness: Harness;
  const env = {
    PORCHLIGHT_ALLOW_EXEC: "true",
    PORCHLIGHT_CHECK_LEASE_MS: "5000",
    PORCHLIGHT_RECONCILE_INTERVAL_MS: "2000",
  };
  beforeAll(async () => {
    harness = await startHarness(env);
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("concludes a run whose update GitHub refuses with 5xx for longer than the client's retries", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p3a", files());
    await gh.idle({ quietMs: 500 });
    await gh.setFaults([{ method: "PATCH", path: "/check-runs/", status: 503, forMs: 20_000 }]);
    await gh.pushFiles(OWNER, "p3a", BRANCH, { "web/a.yaml": configMap("a", 1) }, "edit", { from: "main" });
    const { runs } = await waitForVerdict(harness, "p3a", BRANCH, 150_000);
    expect((await gh.faults()).rules[0].hits).toBeGreaterThan(1);
    expectOneCompleteRun(runs);
    await gh.clearFaults();
  }, 200_000);

  it("concludes, in the next process, a run left in progress by a killed one", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p3b", files());
    await gh.idle({ quietMs: 500 });
    await gh.setFaults([{ method: "PATCH", path: "/check-runs/", hang: true }]);
    await gh.pushFiles(OWNER, "p3b", BRANCH, { "web/a.yaml": configMap("a", 1) }, "edit", { from: "main" });
    const sha = await runInProgress(harness, "p3b");
    process.kill(-harness.app.child.pid, "SIGKILL");
    await gh.clearFaults();
    await harness.startApp();
    const { sha: after, runs } = await waitForVerdict(harness, "p3b", BRANCH, 90_000);
    expect(after).toBe(sha);
    expectOneCompleteRun(runs);
  }, 200_000);

  it("finishes the run in progress on SIGTERM before exiting", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p3c", files());
    await gh.idle({ quietMs: 500 });
    await gh.setFaults([{ method: "PATCH", path: "/check-runs/", delayMs: 1500 }]);
    await gh.pushFiles(OWNER, "p3c", BRANCH, { "web/a.yaml": configMap("a", 1) }, "edit", { from: "main" });
    const sha = await runInProgress(harness, "p3c");
    const child = harness.app.child;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    await exited;
    await gh.clearFaults();
    expectOneCompleteRun(await renderRuns(gh, "p3c", sha));
    await harness.startApp();
  }, 200_000);

  it("gives one concluded run when GitHub does not answer the run's create in time", async () => {
    const { gh } = harness;
    await harness.startApp({ PORCHLIGHT_GITHUB_TIMEOUT_MS: "2000" });
    await gh.createRepo(OWNER, "p3d", files());
    await gh.idle({ quietMs: 500 });
    // The run's create is held 4 s: the app gives up on it after 2 s (the fake then drops it).
    await gh.setFaults([{ method: "POST", path: "/check-runs$", delayMs: 4000, times: 1 }]);
    await gh.pushFiles(OWNER, "p3d", BRANCH, { "web/a.yaml": configMap("a", 1) }, "edit", { from: "main" });
    const { sha, runs } = await waitForVerdict(harness, "p3d", BRANCH, 150_000);
    expect((await gh.faults()).rules[0].hits).toBe(1);
    expectOneCompleteRun(runs);
    // Still one run a while later (this app reconciles every 2 s: the fake is never idle).
    await harness.scenario.sleep(5000);
    expectOneCompleteRun(await renderRuns(gh, "p3d", sha));
    await gh.clearFaults();
  }, 200_000);
});
