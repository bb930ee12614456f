/**
 * The check-run lease: renewed every third of its length while the process holds a run in progress
 * (adopted and rendering again, or waiting on GitHub between updates), never after the run is
 * concluded; a run held by another process is looked at again when its lease ends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GitHubPort } from "../../src/github/port.js";
import {
  CheckRunTracker,
  findVerdict,
  parseExternalId,
  recheckWhenLeaseEnds,
} from "../../src/lifecycle/verdict.js";

const repo = { owner: "acme", repo: "pkgs" };

function fakePort() {
  const updates: Record<string, unknown>[] = [];
  const port = {
    updateCheckRun: async (options: Record<string, unknown>) => {
      updates.push(options);
    },
  } as unknown as GitHubPort;
  return { port, updates };
}

describe("check-run lease", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("claims an adopted run at once and renews its lease while held, not after it is concluded", async () => {
    const { port, updates } = fakePort();
    const lease = { holder: "me", leaseMs: 30_000, now: () => Date.now() };
    const tracker = new CheckRunTracker({ port, repo, lease });
    tracker.adopt({ runId: 7, sent: 50, renderedFrom: "a".repeat(40) });
    await vi.advanceTimersByTimeAsync(0);
    expect(updates).toHaveLength(1);
    const claim = parseExternalId(updates[0]?.externalId as string);
    expect(claim).toMatchObject({ renderedFrom: "a".repeat(40), holder: "me", sent: 50 });
    expect(claim?.until).toBe(Date.now() + 30_000);
    // Rendering again for 35 s: renewed every 10 s, so the lease never ends meanwhile.
    await vi.advanceTimersByTimeAsync(35_000);
    expect(updates).toHaveLength(4);
    const last = parseExternalId(updates[3]?.externalId as string);
    expect(last?.until).toBeGreaterThan(Date.now());
    await tracker.conclude({
      headSha: "a".repeat(40),
      conclusion: "success",
      output: { title: "t", summary: "s" },
    });
    const concluded = updates.length;
    expect(updates[concluded - 1]).toMatchObject({ status: "completed", externalId: "a".repeat(40) });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(updates).toHaveLength(concluded);
  });

  it("sees another holder's live lease as held until its end, then stale", async () => {
    const now = Date.now();
    const externalId = `${"b".repeat(40)} holder=dead until=${now + 20_000} sent=50`;
    const port = {
      listCheckRuns: async () => [
        { id: 9, status: "in_progress", externalId, startedAt: new Date(now).toISOString() },
      ],
    } as unknown as GitHubPort;
    const lease = { holder: "me", leaseMs: 30_000, now: () => Date.now() };
    const held = await findVerdict({ port, repo, sha: "b".repeat(40), lease });
    expect(held).toEqual({ kind: "held", runId: 9, until: now + 20_000 });
    const enqueued: unknown[] = [];
    const queue = { enqueue: async (job: unknown) => void enqueued.push(job) };
    if (held.kind !== "held") throw new Error("not held");
    recheckWhenLeaseEnds({ queue, installationId: 3, repo, held });
    recheckWhenLeaseEnds({ queue, installationId: 3, repo, held });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(enqueued).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(enqueued).toEqual([{ kind: "reconcile", installationId: 3, repo }]);
    expect(await findVerdict({ port, repo, sha: "b".repeat(40), lease })).toEqual({
      kind: "stale",
      runId: 9,
      sent: 50,
      renderedFrom: "b".repeat(40),
    });
  });
});
