/**
 * Second round, fault 9 — a cross-repository read nobody consented to. A Kptfile pushed to `acme/deploy`
 * that names `acme/blueprints` as its upstream must not bring the blueprint's content into deploy's
 * upgrade pull request unless the operator or the blueprint allows it.
 *
 * The local GitHub serves every repository as public, so the app runs with
 * `PORCHLIGHT_PUBLIC_UPSTREAMS=consent` (public upstreams need consent too): the rule for a private
 * repository. `PORCHLIGHT_UPSTREAM_CONSENT=acme/blueprints=acme/ops` is the operator's consent for `ops`.
 * - `base/v2` published: `ops` gets its upgrade pull request; `deploy` none, and a `porchlight/upgrade`
 *   run on deploy's default branch says why (the blueprint has not consented; how to consent);
 * - the blueprint lists `acme/deploy` in `.github/porchlight.yml` `consumers`, publishes `base/v3`:
 *   now `deploy` gets its upgrade pull request too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Any, fakeGitHubAvailable, type Harness, head, OWNER, startHarness } from "./support.js";

const BASE_KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\n";
const cm = (value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  value: "${value}"\n`;

function downstream(name: string, repoUrl: string, commit: string): string {
  const git = `    repo: ${repoUrl}\n    directory: /base\n    ref: base/v1\n`;
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\nupstream:\n  type: git\n  git:\n${git}  updateStrategy: resource-merge\nupstreamLock:\n  type: git\n  git:\n${git}    commit: ${commit}\n`;
}

async function openPulls(gh: Any, repo: string): Promise<Any[]> {
  return (await gh.request("GET", `/repos/${OWNER}/${repo}/pulls?state=open`)).data as Any[];
}

describe.skipIf(!fakeGitHubAvailable)("fault 9: cross-repository reads need consent", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({
      PORCHLIGHT_PUBLIC_UPSTREAMS: "consent",
      PORCHLIGHT_UPSTREAM_CONSENT: "acme/blueprints=acme/ops",
    });
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("reads an upstream for a downstream only with the operator's or the upstream's consent, and says why not", async () => {
    const { gh, scenario } = harness;
    const created = await gh.createRepo(OWNER, "blueprints", {
      "base/Kptfile": BASE_KPTFILE,
      "base/cm.yaml": cm("one"),
    });
    const tag = (name: string, sha: string) =>
      gh.request("POST", `/repos/${OWNER}/blueprints/git/refs`, { ref: `refs/tags/${name}`, sha });
    await tag("base/v1", created.sha);
    const url = `${gh.url}/${OWNER}/blueprints`;
    for (const repo of ["deploy", "ops"]) {
      await gh.createRepo(OWNER, repo, {
        "app/Kptfile": downstream("app", url, created.sha),
        "app/cm.yaml": cm("one"),
      });
    }
    const app = await harness.startApp();
    await gh.registerHooks({ url: app.url, secret: app.secret, tagPushEvents: true });
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });

    const v2 = await gh.pushFiles(OWNER, "blueprints", "main", { "base/cm.yaml": cm("two") }, "two");
    await tag("base/v2", v2.after);
    const opsPull = await scenario.waitFor(async () => (await openPulls(gh, "ops"))[0] ?? null, {
      timeoutMs: 120_000,
      intervalMs: 500,
      message: "the operator-consented upgrade pull request of ops",
    });
    expect(opsPull.head.ref).toBe("drafts/app/upstream-upgrade");
    const deployMain = (await head(gh, "deploy", "main")) as string;
    const blocked = await scenario.waitFor(
      async () =>
        (await gh.checkRuns(OWNER, "deploy", deployMain)).find(
          (r: Any) => r.name === "porchlight/upgrade" && r.status === "completed",
        ) ?? null,
      { timeoutMs: 60_000, intervalMs: 500, message: "deploy's porchlight/upgrade run saying why" },
    );
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });
    expect(await openPulls(gh, "deploy")).toEqual([]);
    expect(await head(gh, "deploy", "drafts/app/upstream-upgrade")).toBeUndefined();
    expect(blocked.conclusion).toBe("neutral");
    expect(blocked.output.title).toContain("No upgrade for app");
    expect(blocked.output.summary).toContain("acme/blueprints has not consented to be read by acme/deploy");
    expect(blocked.output.summary).toContain("consumers");

    // The blueprint consents; its next revision reaches deploy too.
    await gh.pushFiles(
      OWNER,
      "blueprints",
      "main",
      { ".github/porchlight.yml": "consumers:\n  - acme/deploy\n" },
      "consent",
    );
    const v3 = await gh.pushFiles(OWNER, "blueprints", "main", { "base/cm.yaml": cm("three") }, "three");
    await tag("base/v3", v3.after);
    const deployPull = await scenario.waitFor(async () => (await openPulls(gh, "deploy"))[0] ?? null, {
      timeoutMs: 120_000,
      intervalMs: 500,
      message: "deploy's upgrade pull request once the blueprint consents",
    });
    expect(deployPull.title).toContain("v3");
  }, 300_000);
});
