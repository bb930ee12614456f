/**
 * Promise 6 — no package can stall the server. The BUILT app runs against the fake GitHub with the
 * operator's render budgets; drafts with a catastrophic regexp, a YAML alias bomb, a huge file and a
 * package that goes over the memory budget are pushed at once. Meanwhile `/healthz` is polled: every
 * poll must answer 200 within a generous bound, every draft's head must get a concluded
 * `porchlight/render` check, and the over-budget one fails with a message naming the package and the
 * limit. No secret of the server shows up in a log line or a check run. Skips visibly without the fake.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  fakeGitHubAvailable as available,
  kptfile,
  type Scenario,
  SET_NAMESPACE,
  startScenario,
} from "./support.js";

/** Generous: an event loop that renders in process stalls for many seconds on the hog package. */
const HEALTH_BOUND_MS = 2_000;

const SEARCH_REPLACE =
  "    - image: ghcr.io/kptdev/krm-functions-catalog/search-replace:v0.2.0\n      configMap:\n        by-value-regex: '(a+)+$'\n        put-value: matched\n";
const configMap = (name: string, data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n${data}`;

function aliasBomb(): string {
  let text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  a0: &a0 [${Array(9).fill('"lol"').join(",")}]\n`;
  for (let i = 1; i < 10; i++)
    text += `  a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(",")}]\n`;
  return text;
}

function manyDocuments(megabytes: number): string {
  const docs: string[] = [];
  for (let size = 0, i = 0; size < megabytes * 1e6; i++) {
    const doc = configMap(`cm-${i}`, `  a: "${"x".repeat(200)}"\n`);
    docs.push(doc);
    size += doc.length + 4;
  }
  return docs.join("---\n");
}

const PACKAGES: Record<string, Record<string, string>> = {
  regex: {
    Kptfile: kptfile("regex", SEARCH_REPLACE),
    "cm.yaml": configMap("regex", `  long: ${"a".repeat(100_000)}!\n`),
  },
  bomb: { Kptfile: kptfile("bomb", SET_NAMESPACE), "bomb.yaml": aliasBomb() },
  // 8 MB in one scalar. Already in the namespace, so the render leaves it as it is and the commit holds only
  // the Kptfile (the fake GitHub's createCommitOnBranch refuses changed files over about 3 MB).
  huge: {
    Kptfile: kptfile("huge", SET_NAMESPACE),
    "huge.yaml": `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\n  namespace: prod\nbinaryData:\n  blob: ${"QUJD".repeat(2_000_000)}\n`,
  },
  // Sized to go well over the 128 MiB budget on Node 24 too (our YAML layer holds less per resource).
  hog: { Kptfile: kptfile("hog", SET_NAMESPACE), "hog.yaml": manyDocuments(8) },
};

describe.skipIf(!available)("promise 6: no package can stall the server", () => {
  let s: Scenario;
  let scenario: Any;
  let gh: Any;
  let app: Any;

  beforeAll(async () => {
    s = await startScenario();
    ({ scenario, gh } = s);
    await gh.createRepo("acme", "pkgs", { "README.md": "# packages\n" });
    app = await s.startApp({
      PORCHLIGHT_RENDER_MEMORY_MB: "128",
      PORCHLIGHT_RENDER_TIMEOUT_MS: "120000",
      PORCHLIGHT_RENDER_WORKERS: "2",
      REDIS_URL: "",
    });
  }, 180_000);

  afterAll(async () => s?.stop());

  it("answers /healthz while hostile packages render, and concludes every check", {
    timeout: 300_000,
  }, async () => {
    const healthUrl = `http://127.0.0.1:${app.port}/healthz`;
    const polls: { status: number; ms: number }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const started = performance.now();
        const status = await fetch(healthUrl, { signal: AbortSignal.timeout(30_000) })
          .then((r) => r.status)
          .catch(() => 0);
        polls.push({ status, ms: performance.now() - started });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // All drafts at once (the fake delivers their pushes one after the other, as GitHub may).
    await Promise.all(
      Object.entries(PACKAGES).map(([name, files]) =>
        gh.pushFiles(
          "acme",
          "pkgs",
          `drafts/${name}/v1`,
          Object.fromEntries(Object.entries(files).map(([f, text]) => [`${name}/${f}`, text])),
          `${name}: hostile package`,
          { from: "main" },
        ),
      ),
    );

    const verdict = async (name: string) => {
      const branch = (await gh.request("GET", `/repos/acme/pkgs/branches/drafts%2F${name}%2Fv1`)).data;
      const runs = await gh.checkRuns("acme", "pkgs", branch.commit.sha);
      return runs.find((r: Any) => r.name === "porchlight/render" && r.status === "completed");
    };
    const verdicts: Record<string, Any> = {};
    for (const name of Object.keys(PACKAGES)) {
      verdicts[name] = await scenario.waitFor(() => verdict(name), {
        timeoutMs: 240_000,
        intervalMs: 500,
        message: `a concluded porchlight/render check on drafts/${name}/v1`,
      });
    }
    polling = false;
    await poller;

    expect(polls.length).toBeGreaterThan(10);
    expect(polls.filter((p) => p.status !== 200)).toEqual([]);
    expect(Math.max(...polls.map((p) => p.ms))).toBeLessThan(HEALTH_BOUND_MS);

    for (const name of ["regex", "bomb", "huge"])
      expect([name, verdicts[name].conclusion]).toEqual([name, "success"]);
    // The huge file was read, rendered and kept byte for byte on the branch.
    const hugeHead = (await gh.request("GET", "/repos/acme/pkgs/branches/drafts%2Fhuge%2Fv1")).data.commit
      .sha;
    const kept: string | null = await gh.gitShow("acme", "pkgs", hugeHead, "huge/huge.yaml");
    expect(kept?.length).toBe(PACKAGES.huge?.["huge.yaml"]?.length);
    expect(kept === PACKAGES.huge?.["huge.yaml"]).toBe(true);
    expect(await gh.gitShow("acme", "pkgs", hugeHead, "huge/Kptfile")).toContain("reason: RenderSuccess");
    expect(verdicts.hog.conclusion).toBe("failure");
    expect(verdicts.hog.output.summary).toContain(
      'rendering package "hog" was stopped: it went over the memory budget of 128 MiB (PORCHLIGHT_RENDER_MEMORY_MB)',
    );

    // No secret of the server in a log line or a check run.
    const secrets = [gh.key.privateKey.split("\n")[1], app.secret];
    const published = JSON.stringify(Object.values(verdicts));
    for (const secret of secrets) {
      expect(app.logs.join("\n")).not.toContain(secret);
      expect(published).not.toContain(secret);
    }
  });
});
