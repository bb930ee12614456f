/**
 * Promise 4 — nothing is lost to outages or restarts: the head gets its verdict without anyone
 * redelivering a webhook (GitHub does not retry a failed delivery by itself).
 * - GitHub answers 503 to every API request for 25 s after a push: the job is retried with backoff and
 *   the verdict comes once GitHub is back;
 * - the app is down when the push is delivered (the delivery fails and is dropped): reconciliation at
 *   the next start finds the head without a verdict and renders it (README states the bound: the next
 *   start, or PORCHLIGHT_RECONCILE_INTERVAL_MS);
 * - GitHub never answers one request (the check run's create hangs): the attempt is cut at
 *   PORCHLIGHT_GITHUB_TIMEOUT_MS, logged, counted and retried, so neither this push nor the branch's
 *   next one waits for the connection's own limit (minutes).
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

describe.skipIf(!fakeGitHubAvailable)("promise 4: nothing is lost to outages or restarts", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ PORCHLIGHT_GITHUB_TIMEOUT_MS: "2000" });
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("renders a push made during a 25 s GitHub outage once GitHub is back, without a redelivery", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p4a", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.idle({ quietMs: 500 });
    await gh.setFaults([{ path: "^/api/(v3/repos|graphql)", status: 503, forMs: 25_000 }]);
    const pushed = await gh.pushFiles(OWNER, "p4a", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "edit", {
      from: "main",
    });
    const { sha, runs } = await waitForVerdict(harness, "p4a", BRANCH, 150_000);
    expect((await gh.faults()).rules[0].hits).toBeGreaterThan(0);
    expect((await commit(gh, "p4a", sha)).parents.map((p) => p.sha)).toEqual([pushed.after]);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    const deliveries = await gh.deliveries({ event: "push" });
    expect(deliveries.filter((d: Any) => d.redelivery)).toEqual([]);
    await gh.clearFaults();
  }, 200_000);

  it("renders a push whose delivery failed while the app was down, at the next start", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p4b", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.idle({ quietMs: 500 });
    await harness.app.stop();
    const pushed = await gh.pushFiles(OWNER, "p4b", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "edit", {
      from: "main",
    });
    await gh.idle({ quietMs: 500, timeoutMs: 30_000 });
    // Nothing received the push (with the app down, its webhook went nowhere).
    const received = (await gh.deliveries({ event: "push", payload: true })).filter(
      (d: Any) => d.payload?.after === pushed.after && d.ok,
    );
    expect(received).toEqual([]);
    await harness.startApp();
    const { sha, runs } = await waitForVerdict(harness, "p4b", BRANCH, 90_000);
    expect((await commit(gh, "p4b", sha)).parents.map((p) => p.sha)).toEqual([pushed.after]);
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    expect(
      (await gh.deliveries({ event: "push", payload: true })).filter(
        (d: Any) => d.payload?.after === pushed.after && d.ok,
      ),
    ).toEqual([]);
  }, 200_000);

  it("cuts a request GitHub never answers, retries it, and the branch's next push is not held", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p4c", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.idle({ quietMs: 500 });
    await gh.setFaults([{ method: "POST", path: "/check-runs", hang: true, times: 1 }]);
    const started = Date.now();
    const first = await gh.pushFiles(OWNER, "p4c", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", {
      from: "main",
    });
    const one = await waitForVerdict(harness, "p4c", BRANCH, 90_000);
    expect((await gh.faults()).rules[0].hits).toBe(1);
    expect((await commit(gh, "p4c", one.sha)).parents.map((p) => p.sha)).toEqual([first.after]);
    expect(one.runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
    const second = await gh.pushFiles(OWNER, "p4c", BRANCH, { "web/cm.yaml": configMap("web", 2) }, "two");
    const two = await waitForVerdict(harness, "p4c", BRANCH, 90_000);
    expect((await commit(gh, "p4c", two.sha)).parents.map((p) => p.sha)).toEqual([second.after]);
    // Both verdicts well before the connection's own limit (5 minutes) would have let the first job go.
    expect(Date.now() - started).toBeLessThan(120_000);
    const metrics = await (await fetch(`http://127.0.0.1:${harness.app.port}/metrics`)).text();
    expect(metrics).toMatch(/porchlight_github_errors_total\{status="0"\} [1-9]/);
    expect(harness.app.logs.join("\n")).toMatch(/GitHub did not answer POST \/\S*check-runs within 2000 ms/);
    await gh.clearFaults();
  }, 200_000);
});
