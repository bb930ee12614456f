/**
 * The package dashboard end to end: the BUILT app (`npm start`) against the fake GitHub. A repository
 * that opts in (`dashboard: true`) gets ONE issue labelled porchlight-dashboard listing its packages and
 * its drafts with their render verdict, kept up to date as drafts are rendered (edited, never a second
 * issue); a repository that has not opted in gets none. Skips visibly when the fake is absent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { type Any, fakeGitHubAvailable, loadScenario } from "../helpers/fake-github.js";

const kptfile = (name: string, image: string) => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: ${name}
pipeline:
  mutators:
    - image: ${image}
      configMap:
        namespace: prod
`;
const SET_NAMESPACE = "ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1";
const deploy = (name: string, replicas: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n`;

describe.skipIf(!fakeGitHubAvailable)("the package dashboard issue (fake GitHub, built app)", () => {
  let scenario: Any;
  let gh: Any;
  let app: Any;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-dashboard-"));
  const dashboards = async (repo: string) =>
    (await gh.issues("acme", repo, { state: "all", labels: "porchlight-dashboard" })) as Any[];

  beforeAll(async () => {
    ensureBuiltCli();
    scenario = await loadScenario();
    gh = await scenario.startFakeGitHub({ dataDir });
    const files = {
      "apps/web/Kptfile": kptfile("web", SET_NAMESPACE),
      "apps/web/deploy.yaml": deploy("web", 1),
      "apps/db/Kptfile": kptfile("db", SET_NAMESPACE),
      "apps/db/deploy.yaml": deploy("db", 1),
    };
    await gh.createRepo("acme", "pkgs", { ...files, ".github/porchlight.yml": "dashboard: true\n" });
    await gh.createRepo("acme", "quiet", files);
    app = await gh.startApp({ cmd: ["npm", "start"], cwd: repoRoot, readyTimeoutMs: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the drafts with their verdict and stays one issue as they change", async () => {
    await gh.pushFiles(
      "acme",
      "pkgs",
      "drafts/apps/web/v1",
      { "apps/web/deploy.yaml": deploy("web", 3) },
      "Scale web",
      {
        from: "main",
      },
    );
    // a function that does not exist: the render fails
    await gh.pushFiles(
      "acme",
      "pkgs",
      "drafts/apps/db/v1",
      { "apps/db/Kptfile": kptfile("db", "ghcr.io/kptdev/krm-functions-catalog/no-such-function:v1") },
      "Break db",
      { from: "main" },
    );
    await gh.pushFiles(
      "acme",
      "quiet",
      "drafts/apps/web/v1",
      { "apps/web/deploy.yaml": deploy("web", 2) },
      "Scale",
      {
        from: "main",
      },
    );
    const issue = await scenario.waitFor(
      async () => {
        const [d] = await dashboards("pkgs");
        return d?.body?.includes("| `apps/web` | `v1` | Draft | `drafts/apps/web/v1` | ✅ rendered |") &&
          d.body.includes("| `apps/db` | `v1` | Draft | `drafts/apps/db/v1` | ❌ render failed |")
          ? d
          : null;
      },
      { timeoutMs: 120_000, intervalMs: 500, message: "the dashboard showing both drafts' verdicts" },
    );
    expect(issue.title).toBe("Package dashboard");
    expect(issue.body).toContain("| `apps/db` | - | 1 | 0 | - |\n| `apps/web` | - | 1 | 0 | - |");

    // a proposal: the pull request shows up, and the same issue is edited
    const pull = await gh.createPullRequest("acme", "pkgs", {
      head: "drafts/apps/web/v1",
      base: "main",
      title: "Scale web",
    });
    await scenario.waitFor(
      async () => {
        const [d] = await dashboards("pkgs");
        return d?.body?.includes(`| \`apps/web\` | \`v1\` | Proposed | #${pull.number} | ✅ rendered |`)
          ? d
          : null;
      },
      { timeoutMs: 120_000, intervalMs: 500, message: "the dashboard showing the proposal" },
    );
    await gh.idle({ quietMs: 2000, timeoutMs: 120_000 });
    expect(await dashboards("pkgs")).toHaveLength(1);
    expect(await dashboards("quiet")).toEqual([]);
    const { violations } = await gh.violations();
    expect(violations.filter((v: Any) => v.kind !== "note")).toEqual([]);
  }, 300_000);
});
