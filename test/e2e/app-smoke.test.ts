/**
 * End-to-end smoke: the BUILT app started with `npm start` (= `probot run ./dist/src/index.js`), configured
 * only by Probot's environment variables pointed at a GitHub Enterprise host (GHE_HOST, GHE_PROTOCOL=http)
 * served by ../shared/tools/fake-github (real bare git repositories, signed webhooks). A draft push must
 * come back rendered as one app commit with a `porchlight/render` check run, and the app's own commit
 * must not trigger another commit. Skips visibly when the fake is absent.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ensureBuiltCli, sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scenarioPath = path.join(sharedDir, "tools/fake-github/scenario.mjs");
const available = providedByCi(
  "npm start smoke (fake GitHub)",
  existsSync(scenarioPath),
  `${scenarioPath} is absent`,
);
if (!available) console.warn(`e2e skipped: ${scenarioPath} is absent (fake GitHub not available)`);

// biome-ignore lint/suspicious/noExplicitAny: the fake is plain JavaScript imported at test time.
type Any = any;

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: web
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: prod
`;
const deploy = (replicas: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${replicas}\n`;

describe.skipIf(!available)("npm start against a GitHub Enterprise host (fake GitHub)", () => {
  let scenario: Any;
  let gh: Any;
  let app: Any;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-e2e-"));

  beforeAll(async () => {
    // The app runs from dist/: (re)built when older than src/ (.ci/run builds first).
    ensureBuiltCli();
    scenario = await import(pathToFileURL(scenarioPath).href);
    gh = await scenario.startFakeGitHub({ dataDir });
    await gh.createRepo("acme", "pkgs", {
      "README.md": "# packages\n",
      "apps/web/Kptfile": KPTFILE,
      "apps/web/deploy.yaml": deploy(1),
    });
    app = await gh.startApp({ cmd: ["npm", "start"], cwd: repoRoot, readyTimeoutMs: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("renders a signed draft push into one commit with a porchlight/render check run", async () => {
    const branch = "drafts/apps/web/v1";
    const { after } = await gh.pushFiles(
      "acme",
      "pkgs",
      branch,
      { "apps/web/deploy.yaml": deploy(3) },
      "Scale web",
      {
        from: "main",
      },
    );
    const head = async () =>
      (await gh.request("GET", `/repos/acme/pkgs/branches/${branch}`)).data?.commit?.sha;
    const rendered: string = await scenario.waitFor(async () => ((await head()) !== after ? head() : null), {
      timeoutMs: 30_000,
      message: "the app's render commit on the draft branch",
    });
    await gh.idle({ quietMs: 1500 });

    expect(await head(), "the app's own commit must not be rendered into another commit").toBe(rendered);
    const commit = (await gh.request("GET", `/repos/acme/pkgs/git/commits/${rendered}`)).data;
    expect(commit.parents.map((p: { sha: string }) => p.sha)).toEqual([after]);
    expect(commit.message).toContain(`Rendered-From: ${after}`);
    const deployed = parse(await gh.gitShow("acme", "pkgs", rendered, "apps/web/deploy.yaml"));
    expect(deployed.metadata.namespace).toBe("prod");
    expect(deployed.spec.replicas).toBe(3);
    const kptfile = parse(await gh.gitShow("acme", "pkgs", rendered, "apps/web/Kptfile"));
    expect(kptfile.status.conditions[0]).toMatchObject({ type: "Rendered", status: "True" });

    const runs = await gh.checkRuns("acme", "pkgs", rendered);
    expect(runs.map((r: Any) => [r.name, r.status, r.conclusion])).toContainEqual([
      "porchlight/render",
      "completed",
      "success",
    ]);
    // The user's push and the app's own push (sender porchlight[bot]) were both delivered and answered.
    const deliveries = await gh.deliveries({ event: "push" });
    expect(deliveries.length).toBeGreaterThanOrEqual(2);
    expect(deliveries.map((d: Any) => d.status)).toEqual(deliveries.map(() => 200));
    const { violations } = await gh.violations();
    expect(violations.filter((v: Any) => v.kind !== "note")).toEqual([]);
  });
});
