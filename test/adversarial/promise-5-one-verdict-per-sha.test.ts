import path from "node:path";
/**
 * Promise 5 — one verdict per sha. With an open pull request a push is delivered with its
 * `synchronize` (and `check_suite` `requested`): every sha of the draft gets at most one
 * `porchlight/render` run. With a pipeline that is not idempotent, the app's render commit is judged on
 * its content rendered again, so its run and a later re-run agree; the re-run adds a run (GitHub's
 * convention) but never commits on the app's own render commit (the loop guard).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  commit,
  configMap,
  draftCommits,
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
const STAMP = `    - exec: node ${FIXTURES}/stamp.mjs\n`;

describe.skipIf(!fakeGitHubAvailable)("promise 5: one verdict per sha", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ PORCHLIGHT_ALLOW_EXEC: "true" });
    await harness.gh.registerHooks({
      url: harness.app.url,
      secret: harness.app.secret,
      checkSuiteEvents: true,
    });
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("gives a push and the synchronize of its pull request one run per sha", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p5a", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.pushFiles(OWNER, "p5a", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", { from: "main" });
    await waitForVerdict(harness, "p5a", BRANCH);
    await gh.createPullRequest(OWNER, "p5a", { head: BRANCH, base: "main", title: "web", draft: false });
    await gh.idle({ quietMs: 1000 });
    await gh.pushFiles(OWNER, "p5a", BRANCH, { "web/cm.yaml": configMap("web", 2) }, "two");
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });
    const { sha } = await waitForVerdict(harness, "p5a", BRANCH);

    const events = (await gh.deliveries()).map((d: Any) => `${d.event}.${d.action ?? ""}`);
    expect(events).toContain("pull_request.synchronize");
    for (const c of await draftCommits(gh, "p5a", BRANCH)) {
      const runs = await renderRuns(gh, "p5a", c.sha);
      expect(runs.length, `runs on ${c.sha} (${c.commit.message.split("\n")[0]})`).toBeLessThanOrEqual(1);
    }
    expect(await renderRuns(gh, "p5a", sha)).toHaveLength(1);
  }, 120_000);

  it("agrees on a non-idempotent render commit, and a re-run never commits on it", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p5b", {
      "web/Kptfile": kptfile("web", STAMP),
      "web/cm.yaml": configMap("web", 0),
    });
    await gh.pushFiles(OWNER, "p5b", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", { from: "main" });
    const { sha, runs } = await waitForVerdict(harness, "p5b", BRANCH);
    await gh.idle({ quietMs: 1500 });
    expect((await commit(gh, "p5b", sha)).message).toContain("Rendered-From:");
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["failure"]);
    expect(runs[0].output.summary).toContain("content differs from what rendering produces");

    const rerun = await gh.request(
      "POST",
      `/repos/${OWNER}/p5b/check-suites/${runs[0].check_suite.id}/rerequest`,
    );
    expect(rerun.status).toBe(201);
    await harness.scenario.waitFor(
      async () =>
        (await renderRuns(gh, "p5b", sha)).filter((r: Any) => r.status === "completed").length === 2,
      {
        timeoutMs: 60_000,
        message: "the re-run's run",
      },
    );
    await gh.idle({ quietMs: 1500 });
    expect(await head(gh, "p5b", BRANCH)).toBe(sha); // the loop guard: no commit on the app's own commit
    const after = await renderRuns(gh, "p5b", sha);
    expect(after.map((r: Any) => r.conclusion)).toEqual(["failure", "failure"]);
    expect(after.some((r: Any) => r.output.summary.includes("not idempotent"))).toBe(true);
  }, 120_000);
});
