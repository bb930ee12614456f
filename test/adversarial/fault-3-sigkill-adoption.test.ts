import path from "node:path";
/**
 * Second round, fault 3 — a run left in progress by a process killed with SIGKILL is adopted within a
 * minute of the restart, with the operator's defaults (no lease setting; reconciliation only at start).
 * A render with 60 annotations needs its run created in progress and a follow-up update (GitHub takes
 * 50 annotations a request); the update is held by the local GitHub and the process is SIGKILLed. The
 * run used to stay in progress for its whole 10-minute lease: the next start's reconciliation found it
 * held and nothing looked again. Now the lease is short (30 s, renewed while the process holds the run)
 * and a process that finds a run held looks again when its lease ends.
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

describe.skipIf(!fakeGitHubAvailable)("fault 3: SIGKILL mid-run, adopted within a minute", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ PORCHLIGHT_ALLOW_EXEC: "true" });
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("concludes the run a SIGKILLed process left in progress within 60 s of the restart", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "f3", {
      "web/Kptfile": kptfile("web", WARNINGS),
      "web/a.yaml": configMap("a", 0),
      "web/b.yaml": configMap("b", 0),
      "web/c.yaml": configMap("c", 0),
    });
    await gh.idle({ quietMs: 500 });
    await gh.setFaults([{ method: "PATCH", path: "/check-runs/", hang: true }]);
    await gh.pushFiles(OWNER, "f3", BRANCH, { "web/a.yaml": configMap("a", 1) }, "edit", { from: "main" });
    const sha: string = await harness.scenario.waitFor(
      async () => {
        const at = await head(gh, "f3", BRANCH);
        const runs = at ? await renderRuns(gh, "f3", at) : [];
        return runs.some((r: Any) => r.status === "in_progress") ? at : null;
      },
      { timeoutMs: 90_000, intervalMs: 100, message: "a porchlight/render run in progress" },
    );
    process.kill(-harness.app.child.pid, "SIGKILL");
    await gh.clearFaults();
    await harness.startApp();
    const restarted = Date.now();
    const { sha: after, runs } = await waitForVerdict(harness, "f3", BRANCH, 60_000);
    const adoptedWithinMs = Date.now() - restarted;
    expect(adoptedWithinMs).toBeLessThan(60_000);
    expect(after).toBe(sha);
    // One run, concluded, every annotation once.
    expect(runs.map((r: Any) => [r.status, r.conclusion])).toEqual([["completed", "success"]]);
    expect(runs[0].annotations).toHaveLength(60);
    const keys = runs[0].annotations.map((a: Any) => `${a.path}:${a.start_line}:${a.message}`);
    expect(new Set(keys).size).toBe(60);
  }, 240_000);
});
