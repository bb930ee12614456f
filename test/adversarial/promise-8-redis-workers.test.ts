/**
 * Promise 8 — webhooks are answered at once and the work happens in workers — with a REAL Redis: two
 * BUILT app processes share the BullMQ queue against one fake GitHub, which sends webhooks to the first
 * (`PORCHLIGHT_ROLE=all`); the second only works (`PORCHLIGHT_ROLE=worker`). Twenty drafts pushed in a
 * burst are each rendered and checked exactly once; killing the worker-only process in the middle of
 * renders loses nothing (its jobs run again in the other process once their lock expires). Logs are
 * structured (delivery, repository, branch, sha) and never carry a secret (the Redis password included).
 * Skips visibly without the fake GitHub or redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable } from "../helpers/redis.js";
import {
  type Any,
  fakeGitHubAvailable as haveFake,
  kptfile,
  type Scenario,
  slowPackage,
  startScenario,
} from "./support.js";

const haveRedis = redisAvailable();
if (!haveRedis)
  console.warn("promise 8 (Redis) skipped: redis-server is not installed (apt-get install redis-server)");

const REDIS_PASSWORD = "s3cret-redis-pw";
const KPTFILE = kptfile("app");
const deploy = (replicas: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${replicas}\n`;
describe.skipIf(!haveFake || !haveRedis)(
  "promise 8: two processes on Redis (one receives, both work)",
  () => {
    let s: Scenario;
    let scenario: Any;
    let gh: Any;
    let receiver: Any;
    let worker: Any;

    const startApp = (role: "all" | "worker") =>
      s.startApp({ REDIS_URL: s.redis?.url ?? "", PORCHLIGHT_ROLE: role }, { hooks: role !== "worker" });

    beforeAll(async () => {
      s = await startScenario({
        redis: { password: REDIS_PASSWORD },
        env: {
          PORCHLIGHT_JOB_LOCK_MS: "2000",
          PORCHLIGHT_CONCURRENCY: "3",
          PORCHLIGHT_RECONCILE_INTERVAL_MS: "0",
        },
      });
      ({ scenario, gh } = s);
      await gh.createRepo("acme", "pkgs", {
        "README.md": "# packages\n",
        "app/Kptfile": KPTFILE,
        "app/deploy.yaml": deploy(1),
      });
      receiver = await startApp("all");
      worker = await startApp("worker");
    }, 180_000);

    afterAll(async () => s?.stop());

    const head = async (branch: string): Promise<string> =>
      (await gh.request("GET", `/repos/acme/pkgs/branches/${encodeURIComponent(branch)}`)).data.commit.sha;
    const renderRuns = async (sha: string) =>
      (await gh.checkRuns("acme", "pkgs", sha)).filter((r: Any) => r.name === "porchlight/render");
    const commitOf = async (sha: string) =>
      (await gh.request("GET", `/repos/acme/pkgs/git/commits/${sha}`)).data;
    const metric = async (app: Any, name: string): Promise<number> => {
      const text: string = await (await fetch(`http://127.0.0.1:${app.port}/metrics`)).text();
      return text
        .split("\n")
        .filter((line) => line.startsWith(name))
        .reduce((sum, line) => sum + Number(line.split(" ").pop()), 0);
    };

    /** Waits until `branch` holds one render commit on `pushed` with a concluded run, and checks "exactly once". */
    async function expectRenderedOnce(branch: string, pushed: string): Promise<void> {
      const rendered: string = await scenario.waitFor(
        async () => {
          const sha = await head(branch);
          if (sha === pushed) return null;
          return (await renderRuns(sha)).some((r: Any) => r.status === "completed") ? sha : null;
        },
        { timeoutMs: 240_000, intervalMs: 500, message: `${branch} rendered and checked` },
      );
      expect((await commitOf(rendered)).parents.map((p: Any) => p.sha)).toEqual([pushed]);
      const runs = await renderRuns(rendered);
      expect(runs.map((r: Any) => [r.status, r.conclusion])).toEqual([["completed", "success"]]);
      expect(await renderRuns(pushed)).toEqual([]);
    }

    it("renders and checks 20 drafts pushed in a burst exactly once; webhooks answered at once", {
      timeout: 400_000,
    }, async () => {
      const branches = Array.from({ length: 20 }, (_, i) => `drafts/app/w${i}`);
      const pushed = await Promise.all(
        branches.map(
          async (branch, i) =>
            (
              await gh.pushFiles("acme", "pkgs", branch, { "app/deploy.yaml": deploy(i + 2) }, `scale ${i}`, {
                from: "main",
              })
            ).after as string,
        ),
      );
      for (const [i, branch] of branches.entries()) await expectRenderedOnce(branch, pushed[i] as string);
      await gh.idle({ quietMs: 2000, timeoutMs: 120_000 });
      // Nothing more happened after the app went idle: still one render commit and one run per branch.
      for (const [i, branch] of branches.entries()) {
        const sha = await head(branch);
        expect((await commitOf(sha)).parents.map((p: Any) => p.sha)).toEqual([pushed[i]]);
        expect(await renderRuns(sha)).toHaveLength(1);
      }

      // Webhooks were answered at once (they only enqueue), both processes rendered.
      const deliveries = (await gh.deliveries({ event: "push" })) as Any[];
      expect(deliveries.filter((d) => !d.ok)).toEqual([]);
      expect(Math.max(...deliveries.map((d) => d.ms))).toBeLessThan(5_000);
      expect(await metric(worker, "porchlight_renders_total")).toBeGreaterThan(0);
      expect(await metric(receiver, "porchlight_renders_total")).toBeGreaterThan(0);
      expect(await metric(receiver, 'porchlight_webhooks_total{event="push"}')).toBeGreaterThanOrEqual(20);
      expect(await metric(worker, "porchlight_webhooks_total")).toBe(0);

      // Structured logs: the webhook line carries delivery, repository, branch, sha; job lines their fields.
      const json = (lines: string[]) =>
        lines.flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
      const webhookLine = json(receiver.logs).find((l) => l.msg === "webhook" && l.event === "push");
      expect(webhookLine).toMatchObject({
        repository: "acme/pkgs",
        branch: expect.stringMatching(/^drafts\/app\/w/),
      });
      expect(webhookLine?.delivery).toEqual(expect.any(String));
      expect(webhookLine?.sha).toMatch(/^[0-9a-f]{40}$/);
      const jobLine = json([...receiver.logs, ...worker.logs]).find((l) => l.job === "draft" && l.delivery);
      expect(jobLine).toMatchObject({
        repository: "acme/pkgs",
        branch: expect.stringMatching(/^drafts\/app\/w/),
      });
    });

    it("loses nothing when the worker-only process is killed in the middle of renders", {
      timeout: 400_000,
    }, async () => {
      const branches = ["drafts/slow/a", "drafts/slow/b", "drafts/slow/c", "drafts/slow/d"];
      const pushed: string[] = [];
      for (const branch of branches)
        pushed.push(
          (
            await gh.pushFiles("acme", "pkgs", branch, slowPackage("slow"), `slow ${branch}`, {
              from: "main",
            })
          ).after,
        );
      // Kill the worker-only process while it renders (SIGKILL: no graceful shutdown, locks never released).
      await scenario.waitFor(
        async () => (await metric(worker, 'porchlight_render_workers{state="busy"}')) > 0,
        {
          timeoutMs: 120_000,
          intervalMs: 100,
          message: "the worker-only process rendering",
        },
      );
      process.kill(-worker.child.pid, "SIGKILL");
      for (const [i, branch] of branches.entries()) await expectRenderedOnce(branch, pushed[i] as string);

      // No unconcluded run anywhere, and no secret in any log line.
      const log = (await gh.git("acme", "pkgs", ["log", "--all", "--format=%H"])) as Any;
      for (const sha of String(log.stdout ?? log)
        .trim()
        .split("\n"))
        for (const run of await renderRuns(sha)) expect([sha, run.status]).toEqual([sha, "completed"]);
      const logs = [...receiver.logs, ...worker.logs].join("\n");
      for (const secret of [REDIS_PASSWORD, gh.key.privateKey.split("\n")[1], receiver.secret])
        expect(logs).not.toContain(secret);
    });
  },
);
