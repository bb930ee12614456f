/**
 * Second round, fault 8 — many installations on one deployment. Installation A floods 30 draft pushes
 * (30 branches: 30 jobs); installation B pushes one draft right after. B's first verdict must not wait
 * behind A's backlog: it is concluded before more than two of A's drafts are (before, it waited for a
 * slot held by A: 3-4 of A's verdicts came first, 13.7 s on the embedded queue), within seconds of its push — on the embedded queue and on BullMQ (a real redis-server). The built app against the local
 * GitHub with two installations (`acme`, `globex`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, startRedis, type TestRedis } from "../helpers/redis.js";
import {
  type Any,
  configMap,
  fakeGitHubAvailable,
  type Harness,
  kptfile,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

const FLOOD = 30;
const OTHER = "globex";

/** Creates A's repository of FLOOD packages and B's of one, as two installations. */
async function repositories(gh: Any, name: string): Promise<void> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FLOOD; i++) {
    files[`p${i}/Kptfile`] = kptfile(`p${i}`);
    files[`p${i}/cm.yaml`] = configMap(`cm-${i}`, i);
  }
  await gh.createRepo(OWNER, name, files);
  await gh.createRepo(OTHER, name, { "app/Kptfile": kptfile("app"), "app/cm.yaml": configMap("cm", 0) });
  await gh.idle({ quietMs: 500 });
}

/** Seconds from B's push to its verdict, and how many of A's drafts had a concluded run by then. */
async function flood(harness: Harness, name: string): Promise<{ seconds: number; aDone: number }> {
  const { gh } = harness;
  const pushes = [];
  for (let i = 0; i < FLOOD; i++)
    pushes.push(
      await gh.pushFiles(
        OWNER,
        name,
        `drafts/p${i}/v1`,
        { [`p${i}/cm.yaml`]: configMap(`cm-${i}`, "x") },
        "a",
        {
          from: "main",
          deliver: false,
        },
      ),
    );
  const b = await gh.pushFiles(OTHER, name, "drafts/app/v1", { "app/cm.yaml": configMap("cm", "b") }, "b", {
    from: "main",
    deliver: false,
  });
  await Promise.all(
    pushes.map((p: Any) => gh.control("POST", "deliver", { event: "push", payload: p.payload })),
  );
  const start = Date.now();
  await gh.control("POST", "deliver", { event: "push", payload: b.payload });
  await harness.scenario.waitFor(
    async () => {
      const runs = await gh.checkRuns(OTHER, name, await headOf(gh, OTHER, name, "drafts/app/v1"));
      return runs.some((r: Any) => r.name === "porchlight/render" && r.status === "completed");
    },
    { timeoutMs: 180_000, intervalMs: 100, message: "B's verdict" },
  );
  const seconds = (Date.now() - start) / 1000;
  let aDone = 0;
  for (let i = 0; i < FLOOD; i++) {
    const runs = await gh.checkRuns(OWNER, name, await headOf(gh, OWNER, name, `drafts/p${i}/v1`));
    if (runs.some((r: Any) => r.name === "porchlight/render" && r.status === "completed")) aDone++;
  }
  // The flood itself is served too (its first draft's verdict), not dropped.
  await waitForVerdict(harness, name, "drafts/p0/v1", 120_000);
  return { seconds, aDone };
}

async function headOf(gh: Any, owner: string, repo: string, branch: string): Promise<string> {
  const answer = await gh.request("GET", `/repos/${owner}/${repo}/git/ref/heads/${branch}`);
  return answer.data.object.sha;
}

describe.skipIf(!fakeGitHubAvailable)(
  "fault 8: one installation's flood does not delay another's verdict",
  () => {
    let harness: Harness;
    let redis: TestRedis | undefined;
    beforeAll(async () => {
      harness = await startHarness();
      await harness.gh.createInstallation(OWNER);
      await harness.gh.createInstallation(OTHER);
    }, 180_000);
    afterAll(async () => {
      await harness?.stop();
      await redis?.stop();
    });

    it("embedded queue: B's first verdict comes while A's flood waits", async () => {
      await repositories(harness.gh, "flood-embedded");
      const { seconds, aDone } = await flood(harness, "flood-embedded");
      console.log(
        `embedded: B's verdict after ${seconds.toFixed(1)} s, ${aDone} of A's ${FLOOD} done by then`,
      );
      expect(aDone).toBeLessThanOrEqual(2);
      expect(seconds).toBeLessThan(15);
    }, 400_000);

    it.skipIf(!redisAvailable())(
      "BullMQ: B's first verdict comes while A's flood waits",
      async () => {
        redis = await startRedis();
        await harness.startApp({ REDIS_URL: redis.url });
        await repositories(harness.gh, "flood-bullmq");
        const { seconds, aDone } = await flood(harness, "flood-bullmq");
        console.log(
          `BullMQ: B's verdict after ${seconds.toFixed(1)} s, ${aDone} of A's ${FLOOD} done by then`,
        );
        expect(aDone).toBeLessThanOrEqual(2);
        expect(seconds).toBeLessThan(15);
      },
      400_000,
    );
  },
);
