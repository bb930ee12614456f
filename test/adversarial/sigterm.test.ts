/**
 * SIGTERM in the middle of a render (the BUILT app, embedded queue, against the fake GitHub): the process
 * answers `/healthz` with 503, gives the running job its grace period, then stops the render, leaves no
 * check run unconcluded (the interrupted render gives no verdict at all) and exits 0. The next start's
 * reconciliation renders the head that was interrupted. Skips visibly without the fake GitHub.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  fakeGitHubAvailable as available,
  type Scenario,
  slowPackage,
  startScenario,
} from "./support.js";

describe.skipIf(!available)("SIGTERM during a render", () => {
  let s: Scenario;
  let scenario: Any;
  let gh: Any;
  const start = () => s.startApp({ REDIS_URL: "", PORCHLIGHT_SHUTDOWN_GRACE_MS: "500" });

  beforeAll(async () => {
    s = await startScenario();
    ({ scenario, gh } = s);
    await gh.createRepo("acme", "pkgs", { "README.md": "# packages\n" });
  }, 180_000);

  afterAll(async () => s?.stop());

  it("drains, stops the render without a verdict, exits 0; the next start renders the head", {
    timeout: 400_000,
  }, async () => {
    const app = await start();
    const busy = async () => {
      const text: string = await (await fetch(`http://127.0.0.1:${app.port}/metrics`)).text();
      return /porchlight_render_workers\{state="busy"\} [1-9]/.test(text);
    };
    const { after } = await gh.pushFiles("acme", "pkgs", "drafts/slow/v1", slowPackage("slow"), "slow", {
      from: "main",
    });
    await scenario.waitFor(busy, { timeoutMs: 120_000, intervalMs: 50, message: "the render in flight" });

    const exited = new Promise<number | null>((resolve) =>
      app.child.once("exit", (code: number | null) => resolve(code)),
    );
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        health.push(
          await fetch(`http://127.0.0.1:${app.port}/healthz`)
            .then((r) => r.status)
            .catch(() => 0),
        );
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    process.kill(app.child.pid, "SIGTERM");
    expect(await exited).toBe(0);
    polling = false;
    await poller;
    expect(health).toContain(503);

    // The interrupted render gave no verdict: no run at all (nothing unconcluded, no false failure), no commit.
    const runs = (await gh.checkRuns("acme", "pkgs", after)).filter(
      (r: Any) => r.name === "porchlight/render",
    );
    expect(runs).toEqual([]);
    const head = async () =>
      (await gh.request("GET", "/repos/acme/pkgs/branches/drafts%2Fslow%2Fv1")).data.commit.sha as string;
    expect(await head()).toBe(after);

    // The next start's reconciliation finds the head without a verdict and renders it.
    await start();
    const rendered: string = await scenario.waitFor(
      async () => {
        const sha = await head();
        if (sha === after) return null;
        const done = (await gh.checkRuns("acme", "pkgs", sha)).some(
          (r: Any) => r.name === "porchlight/render" && r.status === "completed",
        );
        return done ? sha : null;
      },
      { timeoutMs: 240_000, intervalMs: 500, message: "the head rendered after the restart" },
    );
    expect((await gh.request("GET", `/repos/acme/pkgs/git/commits/${rendered}`)).data.parents[0].sha).toBe(
      after,
    );
  });
});
