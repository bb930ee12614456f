/**
 * Promise 1 — the newest head wins, whatever the order of deliveries (redeliveries included). Two pushes
 * to one draft are delivered newest first, then the older one is redelivered: the branch ends on the
 * render of the newest push, with one concluded run, and no render of the older push ever lands.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  commit,
  configMap,
  draftCommits,
  fakeGitHubAvailable,
  type Harness,
  kptfile,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

const BRANCH = "drafts/web/v1";

describe.skipIf(!fakeGitHubAvailable)("promise 1: newest head wins", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("renders only the newest push when deliveries come newest first and the older one is redelivered", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p1", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.idle({ quietMs: 500 });
    await gh.holdDeliveries();
    const older = await gh.pushFiles(OWNER, "p1", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", {
      from: "main",
    });
    const newer = await gh.pushFiles(OWNER, "p1", BRANCH, { "web/cm.yaml": configMap("web", 2) }, "two");
    const held = await gh.heldDeliveries();
    await gh.releaseDeliveries({ order: "reverse" });
    const olderPush = held.find((d: Any) => d.event === "push" && d.after === older.after);
    expect(olderPush).toBeDefined();
    await gh.redeliver(olderPush.delivery);
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });

    const { sha, runs } = await waitForVerdict(harness, "p1", BRANCH);
    const rendered = await commit(gh, "p1", sha);
    expect(rendered.parents.map((p) => p.sha)).toEqual([newer.after]);
    expect(rendered.message).toContain(`Rendered-From: ${newer.after}`);
    expect(await gh.gitShow(OWNER, "p1", sha, "web/cm.yaml")).toContain('value: "2"');
    expect(runs.map((r: Any) => [r.status, r.conclusion])).toEqual([["completed", "success"]]);
    // Nothing was ever rendered from the older push.
    const messages = (await draftCommits(gh, "p1", BRANCH)).map((c: Any) => c.commit.message);
    expect(messages.filter((m: string) => m.includes(`Rendered-From: ${older.after}`))).toEqual([]);
    const deliveries = await gh.deliveries({ event: "push" });
    expect(deliveries.some((d: Any) => d.redelivery)).toBe(true);
    const { violations } = await gh.violations();
    expect(violations.filter((v: Any) => v.kind !== "note")).toEqual([]);
  }, 120_000);
});
