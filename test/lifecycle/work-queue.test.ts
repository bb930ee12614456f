import { describe, expect, it } from "vitest";
import { WorkQueue } from "../../src/lifecycle/work-queue.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("WorkQueue", () => {
  it("does not run a key again once it completed", async () => {
    const queue = new WorkQueue();
    let runs = 0;
    const task = async () => ++runs;
    expect(await queue.run({ lane: "b", key: "k", task })).toEqual({ kind: "done", value: 1 });
    expect(await queue.run({ lane: "b", key: "k", task })).toEqual({ kind: "duplicate" });
    expect(runs).toBe(1);
  });

  it("treats a key that is still running as a duplicate", async () => {
    const queue = new WorkQueue();
    const gate = deferred();
    const first = queue.run({ lane: "b", key: "k", task: () => gate.promise });
    expect(await queue.run({ lane: "b", key: "k", task: async () => undefined })).toEqual({
      kind: "duplicate",
    });
    gate.resolve();
    expect((await first).kind).toBe("done");
  });

  it("serializes a lane and lets only the newest waiting job run", async () => {
    const queue = new WorkQueue();
    const gate = deferred();
    const order: string[] = [];
    const first = queue.run({
      lane: "b",
      key: "1",
      task: async () => {
        await gate.promise;
        order.push("1");
      },
    });
    const second = queue.run({
      lane: "b",
      key: "2",
      task: async () => {
        order.push("2");
      },
    });
    const third = queue.run({
      lane: "b",
      key: "3",
      task: async () => {
        order.push("3");
      },
    });
    const other = queue.run({
      lane: "c",
      key: "4",
      task: async () => {
        order.push("4");
      },
    });
    await other;
    expect(order).toEqual(["4"]);
    gate.resolve();
    expect((await first).kind).toBe("done");
    expect(await second).toEqual({ kind: "superseded" });
    expect((await third).kind).toBe("done");
    expect(order).toEqual(["4", "1", "3"]);
  });

  it("forgets a failed job so a redelivery retries it", async () => {
    const queue = new WorkQueue();
    await expect(
      queue.run({
        lane: "b",
        key: "k",
        task: async () => {
          throw new Error("GitHub down");
        },
      }),
    ).rejects.toThrow("GitHub down");
    expect(await queue.run({ lane: "b", key: "k", task: async () => "ok" })).toEqual({
      kind: "done",
      value: "ok",
    });
  });

  it("remembers a bounded number of keys", async () => {
    const queue = new WorkQueue({ rememberKeys: 2 });
    for (const key of ["a", "b", "c"]) queue.markDone(key);
    expect(["a", "b", "c"].map((k) => queue.isDone(k))).toEqual([false, true, true]);
  });
});

describe("WorkQueue.idle and JobStart", () => {
  it("resolves idle only after the running and the waiting job of the lane; tells a job it waited", async () => {
    const queue = new WorkQueue();
    const gate = deferred();
    const order: string[] = [];
    const first = queue.run({
      lane: "b",
      key: "1",
      task: async (start) => {
        await gate.promise;
        order.push(`1 queued=${start.queued}`);
      },
    });
    const second = queue.run({
      lane: "b",
      key: "2",
      task: async (start) => {
        order.push(`2 queued=${start.queued}`);
      },
    });
    const idle = queue.idle("b").then(() => order.push("idle"));
    await queue.idle("other"); // another lane is idle at once
    expect(order).toEqual([]);
    gate.resolve();
    await Promise.all([first, second, idle]);
    expect(order).toEqual(["1 queued=false", "2 queued=true", "idle"]);
  });
});
