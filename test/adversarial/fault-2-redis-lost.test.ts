/**
 * Second round, fault 2 — a lost Redis loses no work. Two BUILT app processes share a REAL Redis (one
 * receives webhooks and works, one only works; reconciliation only at start). Redis is killed (SIGKILL)
 * while drafts render and comes back EMPTY 6 s later: every job, lock and memo is gone. The job in
 * flight used to be lost, and its head waited for the next reconciliation pass (5 minutes by default;
 * never, here). Now each process reconciles as soon as its connection is back, and a job whose BullMQ
 * record vanished is enqueued again: every head gets its verdict, once. At start-up (and on every
 * reconnect) a `maxmemory-policy` other than `noeviction` is warned about, as BullMQ asks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, type TestRedis } from "../helpers/redis.js";
import {
  type Any,
  fakeGitHubAvailable as haveFake,
  type Scenario,
  slowPackage,
  startScenario,
} from "./support.js";

const haveRedis = redisAvailable();

describe.skipIf(!haveFake || !haveRedis)("fault 2: Redis lost mid-render and back empty", () => {
  let s: Scenario;
  let scenario: Any;
  let gh: Any;
  let redis: TestRedis;
  let apps: Any[];

  const startApp = (role: "all" | "worker") =>
    s.startApp({ REDIS_URL: redis.url, PORCHLIGHT_ROLE: role }, { hooks: role !== "worker" });

  beforeAll(async () => {
    s = await startScenario({
      redis: { args: ["--maxmemory-policy", "allkeys-lru"] },
      env: { LOG_LEVEL: "warn", PORCHLIGHT_JOB_LOCK_MS: "3000", PORCHLIGHT_RECONCILE_INTERVAL_MS: "0" },
    });
    ({ scenario, gh, apps } = s);
    redis = s.redis as TestRedis;
    await gh.createRepo("acme", "f2", { "README.md": "# packages\n", ...slowPackage("app", 0) });
    await startApp("all");
    await startApp("worker");
  }, 180_000);

  afterAll(async () => s?.stop());

  const head = async (branch: string): Promise<string> =>
    (await gh.request("GET", `/repos/acme/f2/branches/${encodeURIComponent(branch)}`)).data.commit.sha;
  const renderRuns = async (sha: string) =>
    (await gh.checkRuns("acme", "f2", sha)).filter((r: Any) => r.name === "porchlight/render");
  const busy = async (app: Any): Promise<number> => {
    const text: string = await (await fetch(`http://127.0.0.1:${app.port}/metrics`)).text();
    return text
      .split("\n")
      .filter((l) => l.startsWith('porchlight_render_workers{state="busy"}'))
      .reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
  };

  it("warns at start-up that maxmemory-policy is not noeviction", () => {
    for (const app of apps)
      expect(app.logs.join("\n")).toMatch(/maxmemory-policy is allkeys-lru: set it to noeviction/);
  });

  it("gives every head its verdict once when Redis dies mid-render and comes back empty 6 s later", {
    timeout: 400_000,
  }, async () => {
    const branches = ["drafts/app/a", "drafts/app/b", "drafts/app/c"];
    for (const [i, branch] of branches.entries())
      await gh.pushFiles("acme", "f2", branch, slowPackage("app", i + 1), `edit ${i}`, { from: "main" });
    await scenario.waitFor(async () => (await busy(apps[0])) + (await busy(apps[1])) > 0, {
      timeoutMs: 120_000,
      intervalMs: 100,
      message: "a process rendering",
    });
    const down = Date.now();
    await redis.restart({ downMs: 6000, args: ["--maxmemory-policy", "noeviction"] });
    const back = Date.now();
    expect(back - down).toBeGreaterThanOrEqual(6000);
    // A push while the processes reconnect.
    await gh.pushFiles("acme", "f2", "drafts/app/d", slowPackage("app", 9), "edit d", { from: "main" });
    branches.push("drafts/app/d");
    for (const branch of branches) {
      const sha: string = await scenario.waitFor(
        async () => {
          const at = await head(branch);
          return (await renderRuns(at)).some((r: Any) => r.status === "completed") ? at : null;
        },
        { timeoutMs: 150_000, intervalMs: 500, message: `${branch} checked after Redis came back` },
      );
      const runs = await renderRuns(sha);
      expect(runs.map((r: Any) => [r.status, r.conclusion])).toEqual([["completed", "success"]]);
      expect(await gh.gitShow("acme", "f2", sha, "app/many.yaml")).toContain("namespace: prod");
    }
    // Each process saw the store come back and re-derived the work at once (not at an interval).
    await gh.idle({ quietMs: 2000, timeoutMs: 120_000 });
    for (const branch of branches) expect(await renderRuns(await head(branch))).toHaveLength(1);
  });
});
