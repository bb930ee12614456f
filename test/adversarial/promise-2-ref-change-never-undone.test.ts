/**
 * Promise 2 — a user's ref change is never undone. While the app renders a push (held back by the fake
 * after it read the branch head), the user rewinds the branch to an ancestor, or force-pushes another commit: the
 * render's commit is refused by the compare-and-swap (a fast-forward-only ref update would have
 * accepted it on the rewind) and the branch keeps what the user made it. A user who drops the app's
 * render commit (the branch back at their own, already rendered commit) gets that head rendered again
 * at once: the job reads GitHub's state, not a memo of what it rendered before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  commit,
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

const BRANCH = "drafts/web/v1";

/**
 * Holds the render of the next push after it read the branch head: its diff against the default branch
 * (`GET compare`, read after the snapshot and the tree) waits 4 s.
 */
async function holdNextRender(harness: Harness): Promise<void> {
  await harness.gh.setFaults([{ method: "GET", path: "/compare/", delayMs: 4000, times: 1 }]);
}

/** Resolves once the held render has read the branch head (its diff request arrived). */
async function snapshotRead(harness: Harness): Promise<void> {
  await harness.scenario.waitFor(async () => (await harness.gh.faults()).rules[0]?.hits >= 1, {
    timeoutMs: 30_000,
    intervalMs: 50,
    message: "the held render read the branch head",
  });
}

describe.skipIf(!fakeGitHubAvailable)("promise 2: a user's ref change is never undone", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("keeps a rewind to an ancestor made while the render runs", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p2", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.pushFiles(OWNER, "p2", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", { from: "main" });
    const first = await waitForVerdict(harness, "p2", BRANCH);
    await gh.idle({ quietMs: 1000 });

    await holdNextRender(harness);
    const pushed = await gh.pushFiles(OWNER, "p2", BRANCH, { "web/cm.yaml": configMap("web", 2) }, "two");
    await snapshotRead(harness);
    // The user rewinds the branch to its rendered ancestor while the render of `pushed` is in flight.
    const rewind = await gh.request("PATCH", `/repos/${OWNER}/p2/git/refs/heads/${BRANCH}`, {
      sha: first.sha,
      force: true,
    });
    expect(rewind.status).toBe(200);
    await gh.idle({ quietMs: 2000, timeoutMs: 60_000 });
    await gh.clearFaults();

    expect(await head(gh, "p2", BRANCH)).toBe(first.sha);
    expect(await renderRuns(gh, "p2", pushed.after)).toEqual([]); // the dropped result reported nothing
    expect((await renderRuns(gh, "p2", first.sha)).map((r: Any) => r.conclusion)).toEqual(["success"]);
    // GitHub refused the render commit: the branch no longer pointed at the rendered head.
    const notes = (await gh.violations()).violations.filter((v: Any) => v.kind === "note");
    expect(notes.map((n: Any) => n.note)).toContainEqual(
      `createCommitOnBranch on ${OWNER}/p2 refs/heads/${BRANCH}: expectedHeadOid ${pushed.after} but the branch is at ${first.sha} (STALE_DATA)`,
    );
  }, 120_000);

  it("keeps a force-push made while the render runs, and renders that push instead", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p2b", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    await gh.idle({ quietMs: 500 });
    await holdNextRender(harness);
    const pushed = await gh.pushFiles(OWNER, "p2b", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", {
      from: "main",
    });
    await snapshotRead(harness);
    // Another commit on main's head, force-pushed over the branch.
    const forced = await gh.pushFiles(OWNER, "p2b", "tmp", { "web/cm.yaml": configMap("web", 9) }, "other", {
      from: "main",
      deliver: false,
    });
    await gh.request("PATCH", `/repos/${OWNER}/p2b/git/refs/heads/${BRANCH}`, {
      sha: forced.after,
      force: true,
    });
    await gh.clearFaults();
    const { sha } = await waitForVerdict(harness, "p2b", BRANCH);
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });

    const rendered = await commit(gh, "p2b", sha);
    expect(rendered.parents.map((p) => p.sha)).toEqual([forced.after]);
    expect(await gh.gitShow(OWNER, "p2b", sha, "web/cm.yaml")).toContain('value: "9"');
    expect(await renderRuns(gh, "p2b", pushed.after)).toEqual([]);
  }, 120_000);

  it("renders again a head rewound to a commit it rendered before (its render commit dropped)", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "p2c", { "web/Kptfile": kptfile("web"), "web/cm.yaml": configMap("web", 0) });
    const pushed = await gh.pushFiles(OWNER, "p2c", BRANCH, { "web/cm.yaml": configMap("web", 1) }, "one", {
      from: "main",
    });
    const first = await waitForVerdict(harness, "p2c", BRANCH);
    expect((await commit(gh, "p2c", first.sha)).parents.map((p) => p.sha)).toEqual([pushed.after]);
    await gh.idle({ quietMs: 1000, timeoutMs: 60_000 });

    // The user drops the app's render commit: the branch back at their own commit (a push event).
    const rewind = await gh.request("PATCH", `/repos/${OWNER}/p2c/git/refs/heads/${BRANCH}`, {
      sha: pushed.after,
      force: true,
    });
    expect(rewind.status).toBe(200);
    expect(await renderRuns(gh, "p2c", pushed.after)).toEqual([]);
    // No periodic reconciliation runs in this harness: only the rewind's push can bring the verdict.
    const again = await waitForVerdict(harness, "p2c", BRANCH, 60_000);
    expect((await commit(gh, "p2c", again.sha)).parents.map((p) => p.sha)).toEqual([pushed.after]);
    expect(await gh.gitShow(OWNER, "p2c", again.sha, "web/cm.yaml")).toContain("namespace: prod");
    expect(again.runs.map((r: Any) => r.conclusion)).toEqual(["success"]);
  }, 120_000);
});
