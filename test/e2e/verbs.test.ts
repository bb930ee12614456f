/**
 * End-to-end: Porch's verbs on a local GitHub (../shared/tools/fake-github), the BUILT app run with
 * `npm start` and the BUILT CLI run as a process. One app for the whole file (starting it is the slow
 * part): an error-severity result with exit code 0 fails `porchlight/render` and turns the proposal back
 * into a draft, while `porchlight render` keeps kpt's exit code. Skips visibly without the fake.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { type Any, fakeGitHubAvailable, loadScenario } from "../helpers/fake-github.js";

const run = promisify(execFile);
const WAIT = { timeoutMs: 60_000, intervalMs: 300 };

/** A package whose set-namespace step answers `expect a single upstream namespace` (an error result, exit 0). */
const TWO_NAMESPACES = {
  Kptfile: `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: web
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: prod
`,
  "cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata: # kpt-merge: old/a
  name: a
  namespace: old
  annotations:
    internal.kpt.dev/upstream-identifier: '|ConfigMap|old|a'
---
apiVersion: v1
kind: ConfigMap
metadata: # kpt-merge: new/b
  name: b
  namespace: new
  annotations:
    internal.kpt.dev/upstream-identifier: '|ConfigMap|new|b'
`,
};

describe.skipIf(!fakeGitHubAvailable)("Porch's verbs against the fake GitHub", () => {
  let scenario: Any;
  let gh: Any;
  let app: Any;
  let cli = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-verbs-e2e-"));
  const work = mkdtempSync(path.join(os.tmpdir(), "porchlight-verbs-work-"));

  const head = async (repo: string, branch: string): Promise<string | undefined> =>
    (await gh.request("GET", `/repos/acme/${repo}/branches/${branch}`)).data?.commit?.sha;
  const renderRun = async (repo: string, sha: string): Promise<Any | undefined> =>
    (await gh.checkRuns("acme", repo, sha)).find(
      (r: Any) => r.name === "porchlight/render" && r.status === "completed",
    );

  beforeAll(async () => {
    cli = ensureBuiltCli();
    scenario = await loadScenario();
    gh = await scenario.startFakeGitHub({ dataDir });
    await gh.createRepo("acme", "pkgs", { "README.md": "# packages\n" });
    app = await gh.startApp({ cmd: ["npm", "start"], cwd: repoRoot, readyTimeoutMs: 90_000 });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("an error result with exit code 0 fails porchlight/render and drafts the proposal; the CLI exits 0 as kpt", async () => {
    // The CLI: kpt's exit code (0), the result printed.
    const dir = path.join(work, "web");
    mkdirSync(dir);
    for (const [file, text] of Object.entries(TWO_NAMESPACES)) writeFileSync(path.join(dir, file), text);
    const local = await run(process.execPath, [cli, "render", dir]);
    expect(local.stdout + local.stderr).toContain("expect a single upstream namespace");

    const branch = "drafts/web/two-namespaces";
    const files = Object.fromEntries(Object.entries(TWO_NAMESPACES).map(([f, t]) => [`web/${f}`, t]));
    await gh.pushFiles("acme", "pkgs", branch, files, "web with two namespaces", { from: "main" });
    const pr = await gh.createPullRequest("acme", "pkgs", { head: branch, base: "main", title: "web" });
    const run1 = await scenario.waitFor(
      async () => {
        const sha = await head("pkgs", branch);
        return sha ? renderRun("pkgs", sha) : null;
      },
      { ...WAIT, message: "a concluded porchlight/render run on the draft head" },
    );
    expect(run1.conclusion).toBe("failure");
    expect(run1.output.title).toBe("Not mergeable: error results in web");
    expect(run1.output.summary).toContain("expect a single upstream namespace");
    expect(run1.output.summary).not.toMatch(/already handled error|pipeline\.run/);
    const comment = await scenario.waitFor(
      async () => {
        const comments = (await gh.request("GET", `/repos/acme/pkgs/issues/${pr.number}/comments`)).data;
        return comments.find((c: Any) => c.body.includes("porchlight:propose")) ?? null;
      },
      { ...WAIT, message: "the propose comment" },
    );
    expect(comment.body).toContain("error result");
    expect(comment.body).toContain("expect a single upstream namespace");
    const { data: pull } = await gh.request("GET", `/repos/acme/pkgs/pulls/${pr.number}`);
    expect(pull.draft, "the proposal is a Draft again").toBe(true);
  });
});
