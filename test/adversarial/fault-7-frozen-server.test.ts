/**
 * Second round, fault 7 — nothing heavy runs on the main thread. Each draft below used to freeze the
 * whole server (the health endpoint blocked for tens of seconds, no verdict in 90 s): annotations were
 * built for every result on the job's thread, each re-parsing the whole file to find its line. Now they
 * are located once per file, only as many as are sent, inside the render workers. While each draft is
 * judged, `/healthz` is asked every 100 ms and must answer within 1 s every time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  fakeGitHubAvailable,
  type Harness,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

const KUBECONFORM = "    - image: ghcr.io/kptdev/krm-functions-catalog/kubeconform:v0.1.1\n";
const SET_LABELS =
  "    - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.4\n      configMap:\n        tier: web\n";

const kptfile = (name: string, section: string, steps: string) =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  ${section}:\n${steps}`;

/** 1,500 ConfigMaps whose `data.a` is a number (kubeconform: got number, want string), ~110 KB. */
function invalidConfigMaps(count: number): string {
  const docs: string[] = [];
  for (let i = 0; i < count; i++)
    docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  a: ${i}\n`);
  return docs.join("---\n");
}

/** A Kptfile with `count` annotations of ~100 bytes each (30,000: ~3 MB). */
function annotatedKptfile(name: string, count: number, steps = SET_LABELS): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`    example.com/annotation-${i}: "${"v".repeat(60)}-${i}"`);
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n  annotations:\n${lines.join("\n")}\npipeline:\n  mutators:\n${steps}`;
}

/** Asks `/healthz` every 100 ms until `stop()`; resolves the slowest answer in ms. */
function probeHealth(port: number): { stop(): Promise<number> } {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/healthz`, {
          signal: AbortSignal.timeout(10_000),
        });
        await answer.text();
      } catch {
        // Not answered within 10 s: counted as 10 s or more.
      }
      slowest = Math.max(slowest, Date.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return slowest;
    },
  };
}

describe.skipIf(!fakeGitHubAvailable)("fault 7: a heavy draft never freezes the server", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  }, 180_000);
  afterAll(async () => harness?.stop());

  async function judge(
    repo: string,
    files: Record<string, string>,
  ): Promise<{ runs: Any[]; slowest: number }> {
    const { gh } = harness;
    await gh.createRepo(OWNER, repo, { "README.md": "# packages\n" });
    await gh.idle({ quietMs: 500 });
    const probe = probeHealth(harness.app.port);
    try {
      await gh.pushFiles(OWNER, repo, "drafts/big/v1", files, "heavy", { from: "main" });
      const { runs } = await waitForVerdict(harness, repo, "drafts/big/v1", 90_000);
      return { runs, slowest: await probe.stop() };
    } finally {
      await probe.stop();
    }
  }

  it("concludes kubeconform over 1,500 invalid ConfigMaps in one file, 50+ annotations, health < 1 s", async () => {
    const { runs, slowest } = await judge("f7a", {
      "big/Kptfile": kptfile("big", "validators", KUBECONFORM),
      "big/cms.yaml": invalidConfigMaps(1500),
    });
    expect(runs.map((r: Any) => r.conclusion)).toEqual(["failure"]);
    const [run] = runs;
    expect(run.annotations.length).toBeGreaterThanOrEqual(50);
    // Located, not all on line 1: the resource cm-1200 is far down the file.
    const lines = new Set(run.annotations.map((a: Any) => a.start_line));
    expect(lines.size).toBe(run.annotations.length);
    expect(run.output.summary + run.output.text).toMatch(/left out|omitted|more/i);
    expect(slowest).toBeLessThan(1000);
  }, 180_000);

  it("concludes a 1,000-step pipeline, health < 1 s", async () => {
    const { runs, slowest } = await judge("f7b", {
      "big/Kptfile": kptfile("big", "mutators", SET_LABELS.repeat(1000)),
      "big/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n",
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe("completed");
    expect(slowest).toBeLessThan(1000);
  }, 180_000);

  it("concludes a draft whose Kptfile carries 30,000 annotations (3 MB), health < 1 s", async () => {
    const { runs, slowest } = await judge("f7c", {
      "big/Kptfile": annotatedKptfile("big", 30_000),
      "big/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n",
    });
    expect(runs).toHaveLength(1);
    expect(runs[0].status).toBe("completed");
    expect(slowest).toBeLessThan(1000);
  }, 180_000);

  it("indexes the same Kptfile on the default branch and a 3 MB package-variants file, health < 1 s", async () => {
    const { gh } = harness;
    await gh.createRepo(OWNER, "f7d", { "README.md": "# packages\n" });
    await gh.idle({ quietMs: 500 });
    const probe = probeHealth(harness.app.port);
    let slowest: number;
    try {
      const upstream = `  upstream:\n    type: git\n    git:\n      repo: ${gh.url}/${OWNER}/f7d\n      directory: /base\n      ref: base/v1\n`;
      const big = annotatedKptfile("app", 30_000).replace(
        "pipeline:",
        `${upstream.replace(/^ {2}/gm, "")}pipeline:`,
      );
      const variants = annotatedKptfile("pv", 30_000)
        .replace("kind: Kptfile", "kind: PackageVariant")
        .replace("apiVersion: kpt.dev/v1", "apiVersion: config.porch.kpt.dev/v1alpha1");
      await gh.pushFiles(
        OWNER,
        "f7d",
        "main",
        { "app/Kptfile": big, "package-variants/pv.yaml": variants },
        "big Kptfile and variants file",
      );
      await gh.idle({ quietMs: 2000, timeoutMs: 120_000 });
    } finally {
      slowest = await probe.stop();
    }
    expect(slowest).toBeLessThan(1000);
    // The variants file over the limit is reported where its owner looks, not parsed.
    const main = (await gh.request("GET", `/repos/${OWNER}/f7d/git/ref/heads/main`)).data.object.sha;
    const runs = (await gh.checkRuns(OWNER, "f7d", main)) as Any[];
    const variants = runs.find((r) => r.name === "porchlight/package-variants");
    expect(variants?.conclusion).toBe("failure");
    expect(`${variants?.output.summary}${variants?.output.text ?? ""}`).toContain(
      "package-variants/pv.yaml is 3",
    );
  }, 180_000);
});
