import { describe, expect, it } from "vitest";
import { GitHubError } from "../../src/github/port.js";
import { DEFAULT_RETRY, type DraftJob, type Job, jobKey } from "../../src/lifecycle/work-queue.js";
import { EmbeddedQueue } from "../../src/server/embedded-queue.js";
import "../helpers/promise-with-resolvers.js";

const repo = { owner: "o", repo: "r" };
const draft = (branch: string, installationId = 1, extra: Partial<DraftJob> = {}): DraftJob => ({
  kind: "draft",
  installationId,
  repo,
  branch,
  ...extra,
});

/** A handler whose runs wait until released; records what started. */
function gatedHandler() {
  const started: Job[] = [];
  const gates: (() => void)[] = [];
  const handler = async (job: Job) => {
    started.push(job);
    await new Promise<void>((resolve) => gates.push(resolve));
  };
  const releaseAll = async () => {
    while (gates.length) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { started, handler, releaseAll, gates };
}

describe("jobKey", () => {
  it("is one key per branch, pull request, default branch and re-run sha", () => {
    expect(jobKey(draft("drafts/a/v1"))).toBe("draft:o/r:drafts/a/v1");
    expect(jobKey({ kind: "pull-request", installationId: 1, repo, number: 3, sameRepository: true })).toBe(
      "pull-request:o/r#3",
    );
    expect(jobKey({ kind: "publish", installationId: 1, repo, number: 3, sameRepository: true })).toBe(
      "publish:o/r#3",
    );
    expect(jobKey({ kind: "default-branch", installationId: 1, repo })).toBe("default-branch:o/r");
    expect(jobKey({ kind: "reconcile", installationId: 9 })).toBe("reconcile:9");
  });
});

describe("EmbeddedQueue", () => {
  it("runs at most one job per key and keeps only the newest waiting one", async () => {
    const queue = new EmbeddedQueue({ concurrency: 4 });
    const { started, handler, releaseAll } = gatedHandler();
    await queue.start(handler);
    await queue.enqueue(draft("drafts/a/v1"));
    await queue.enqueue({ ...draft("drafts/a/v1"), branch: "drafts/a/v1" }); // waits
    const newest = { ...draft("drafts/a/v1"), installationId: 1 } as DraftJob & { note?: string };
    newest.note = "newest";
    await queue.enqueue(newest); // replaces the waiting one
    expect(started).toHaveLength(1);
    expect(await queue.depth()).toEqual({ waiting: 1, running: 1 });
    await releaseAll();
    await releaseAll();
    await queue.idle();
    expect(started).toHaveLength(2);
    expect((started[1] as typeof newest).note).toBe("newest");
  });

  it("runs different keys concurrently up to its concurrency", async () => {
    const queue = new EmbeddedQueue({ concurrency: 2 });
    const { started, handler, releaseAll } = gatedHandler();
    await queue.start(handler);
    for (const [b, installation] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      await queue.enqueue(draft(`drafts/${b}/v1`, installation));
    expect(started.map((j) => (j as DraftJob).branch)).toEqual(["drafts/a/v1", "drafts/b/v1"]);
    await releaseAll();
    await releaseAll();
    await queue.idle();
    expect(started).toHaveLength(3);
  });

  it("keeps a slot free of any one installation, so another's first job starts at once", async () => {
    const queue = new EmbeddedQueue({ concurrency: 3 });
    const { started, handler, releaseAll } = gatedHandler();
    await queue.start(handler);
    for (let i = 0; i < 5; i++) await queue.enqueue(draft(`drafts/p${i}/v1`, 1));
    // Installation 1 runs two of its five (3 - 1), not three.
    expect(started.map((j) => j.installationId)).toEqual([1, 1]);
    await queue.enqueue(draft("drafts/other/v1", 2));
    expect(started.map((j) => j.installationId)).toEqual([1, 1, 2]);
    for (let i = 0; i < 6; i++) await releaseAll();
    await queue.idle();
    expect(started).toHaveLength(6);
  });

  it("serves installations in turn, so a burst from one does not starve another", async () => {
    const queue = new EmbeddedQueue({ concurrency: 1 });
    const { started, handler, releaseAll } = gatedHandler();
    await queue.start(handler);
    for (let i = 0; i < 5; i++) await queue.enqueue(draft(`drafts/p${i}/v1`, 1));
    await queue.enqueue(draft("drafts/other/v1", 2));
    for (let i = 0; i < 6; i++) await releaseAll();
    await queue.idle();
    const order = started.map((j) => j.installationId);
    // The first job of installation 1 was already running; installation 2 goes next, not sixth.
    expect(order.indexOf(2)).toBeLessThanOrEqual(1);
  });

  it("retries a job that failed because GitHub was unavailable, with backoff, up to its attempts", async () => {
    const delays: number[] = [];
    const queue = new EmbeddedQueue({
      retry: {
        maxAttempts: 3,
        retryDelayMs: (attempt, error) => {
          delays.push(attempt);
          return DEFAULT_RETRY.retryDelayMs(attempt, error) / 1000;
        },
      },
    });
    const attempts: number[] = [];
    await queue.start(async (_job, run) => {
      attempts.push(run.attempt);
      if (run.attempt < 3)
        throw new GitHubError({ kind: "unavailable", status: 503, operation: "x", message: "down" });
    });
    await queue.enqueue(draft("drafts/a/v1"));
    await queue.idle();
    expect(attempts).toEqual([1, 2, 3]);
    expect(delays).toEqual([1, 2]);
  });

  it("drops a job that failed for another reason, reporting it", async () => {
    const failed: unknown[] = [];
    const queue = new EmbeddedQueue({ onFailed: (_job, e) => failed.push(e) });
    let runs = 0;
    await queue.start(async () => {
      runs++;
      throw new Error("bug");
    });
    await queue.enqueue(draft("drafts/a/v1"));
    await queue.idle();
    expect(runs).toBe(1);
    expect(String(failed[0])).toContain("bug");
  });

  it("asks for at least GitHub's retry-after", () => {
    const limited = new GitHubError({
      kind: "unavailable",
      status: 403,
      operation: "x",
      message: "secondary",
      retryAfterSeconds: 90,
    });
    expect(DEFAULT_RETRY.retryDelayMs(1, limited)).toBe(90_000);
    expect(DEFAULT_RETRY.retryDelayMs(1, new Error("x"))).toBe(5_000);
    expect(DEFAULT_RETRY.retryDelayMs(20, new Error("x"))).toBe(300_000);
  });

  it("finishes running jobs on close and takes no more", async () => {
    const queue = new EmbeddedQueue();
    const { started, handler, gates } = gatedHandler();
    await queue.start(handler);
    await queue.enqueue(draft("drafts/a/v1"));
    const closed = queue.close();
    await queue.enqueue(draft("drafts/b/v1"));
    gates.shift()?.();
    await closed;
    expect(started).toHaveLength(1);
  });

  it("remembers keys until they expire", async () => {
    let now = 1000;
    const queue = new EmbeddedQueue({ now: () => now });
    await queue.remember("verdict:x", 500);
    expect(await queue.remembers("verdict:x")).toBe(true);
    now = 1600;
    expect(await queue.remembers("verdict:x")).toBe(false);
    expect(await queue.remembers("never")).toBe(false);
  });
});
