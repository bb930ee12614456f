/**
 * Second round, faults 5 and 6 — upstream strings are parsed, not trusted, and one bad upstream never
 * blocks the others. One repository holds three downstreams of `acme/blueprints`' package `base`:
 * - `evil` names `http://<host>/../_control/faults` as `upstream.git.repo` (a path outside
 *   `/repos/{owner}/{repo}/` once dot segments are resolved): refused, the app never requests it;
 * - `denied` names a repository the installation was not granted (GitHub answers 404);
 * - `good` names the blueprint itself.
 * When `base/v2` is published, `good` gets its upgrade pull request, whatever the other two do; `evil`
 * and `denied` each get a `porchlight/upgrade` run on the default branch saying why no upgrade comes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Any, fakeGitHubAvailable, type Harness, OWNER, startHarness } from "./support.js";

const BASE_KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\n";
const cm = (value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  value: "${value}"\n`;

function downstream(name: string, repoUrl: string, commit: string): string {
  const git = `    repo: ${repoUrl}\n    directory: /base\n    ref: base/v1\n`;
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\nupstream:\n  type: git\n  git:\n${git}  updateStrategy: resource-merge\nupstreamLock:\n  type: git\n  git:\n${git}    commit: ${commit}\n`;
}

describe.skipIf(!fakeGitHubAvailable)("faults 5 and 6: hostile and unreachable upstreams", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ LOG_LEVEL: "info" });
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("never requests a path outside the repository an upstream names; the good downstream is upgraded", async () => {
    const { gh } = harness;
    const created = await gh.createRepo(OWNER, "blueprints", {
      "base/Kptfile": BASE_KPTFILE,
      "base/cm.yaml": cm("one"),
    });
    await gh.request("POST", `/repos/${OWNER}/blueprints/git/refs`, {
      ref: "refs/tags/base/v1",
      sha: created.sha,
    });
    const files: Record<string, string> = {};
    for (const [name, url] of [
      ["evil", `${gh.url}/../_control/faults`],
      ["denied", `${gh.url}/globex/secret`],
      ["good", `${gh.url}/${OWNER}/blueprints.git`],
    ] as const) {
      files[`${name}/Kptfile`] = downstream(name, url, created.sha);
      files[`${name}/cm.yaml`] = cm("one");
    }
    await gh.createRepo(OWNER, "deploy", { "README.md": "# deployments\n", ...files });
    // Restarted: the start-up reconciliation indexes the downstreams (creating a repository sends no push).
    const app = await harness.startApp();
    await gh.registerHooks({ url: app.url, secret: app.secret, tagPushEvents: true });
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });

    // base/v2, published by a person's tag push.
    const pushed = await gh.pushFiles(OWNER, "blueprints", "main", { "base/cm.yaml": cm("two") }, "two");
    await gh.request("POST", `/repos/${OWNER}/blueprints/git/refs`, {
      ref: "refs/tags/base/v2",
      sha: pushed.after,
    });

    const pull = await harness.scenario
      .waitFor(
        async () => {
          const open = (await gh.request("GET", `/repos/${OWNER}/deploy/pulls?state=open`)).data as Any[];
          return open.find((p) => p.head.ref.includes("good")) ?? null;
        },
        { timeoutMs: 120_000, intervalMs: 500, message: "an upgrade pull request for good" },
      )
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${harness.app.logs.slice(-40).join("\n")}`);
      });
    expect(pull.head.ref).toMatch(/^drafts\/good\//);
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });

    // No app request ever left /repos/{owner}/{repo}/ (the test's own calls go to /_control/ directly).
    const log = (await gh.log()) as Any;
    const paths: string[] = (log.requests ?? log).map((r: Any) => String(r.path));
    const escaped = paths.filter(
      (p) => /(^|\/)\.\.(\/|$)|%2e/i.test(p) || (p.includes("_control") && !p.startsWith("/_control/")),
    );
    expect(escaped).toEqual([]);
    expect(paths.filter((p) => p.startsWith("/api/v3/repos/")).length).toBeGreaterThan(0);
    const open = (await gh.request("GET", `/repos/${OWNER}/deploy/pulls?state=open`)).data as Any[];
    expect(open.filter((p) => /evil|denied/.test(p.head.ref))).toEqual([]);

    // Each failure is reported where the downstream's owner looks: a run on the default branch's head.
    const main = (await gh.request("GET", `/repos/${OWNER}/deploy/git/ref/heads/main`)).data.object.sha;
    const runs = ((await gh.checkRuns(OWNER, "deploy", main)) as Any[]).filter(
      (r) => r.name === "porchlight/upgrade",
    );
    const about = (pkg: string) =>
      runs.find((r) => r.output.title === `No upgrade for ${pkg}: its upstream is not read`);
    expect(about("evil")?.output.summary).toContain("it has dot segments");
    expect(about("denied")?.output.summary).toContain("globex/secret cannot be read");
    expect(about("good")).toBeUndefined();
  }, 240_000);
});
