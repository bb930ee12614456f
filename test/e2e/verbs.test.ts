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
    // A failing proposal stays Proposed here, so approve meets the failing check itself.
    await gh.createRepo("acme", "catalog", {
      "README.md": "# catalog\n",
      ".github/porchlight.yml": "convertFailingToDraft: false\n",
    });
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

  /** Runs the built CLI with the installation's token against the fake; never throws on exit != 0. */
  const porchlight = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const env = { ...process.env, GITHUB_TOKEN: await gh.installationToken(), GITHUB_API_URL: gh.apiUrl };
    try {
      const { stdout, stderr } = await run(process.execPath, [cli, ...args], { env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
    }
  };
  const lifecycles = async (): Promise<Record<string, string>> => {
    const { stdout } = await porchlight("rpkg", "get", "--repo", "acme/catalog");
    return Object.fromEntries(
      stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s{3,}/))
        .map((c) => [c[0], c[5]]),
    );
  };
  const tagSha = async (tag: string) =>
    (await gh.request("GET", `/repos/acme/catalog/git/ref/tags/${tag}`)).data?.object?.sha as
      | string
      | undefined;

  it("init, propose, approve publish a package; approve is refused while porchlight/render fails", async () => {
    const init = await porchlight(
      "rpkg",
      "init",
      "app",
      "--repo",
      "acme/catalog",
      "--workspace",
      "v1",
      "--description",
      "the app",
    );
    expect(init.stderr).toBe("");
    expect(init.stdout).toContain("catalog.app.v1 created");
    const kptfile = await gh.gitShow("acme", "catalog", "drafts/app/v1", "app/Kptfile");
    expect(kptfile).toContain("description: the app");
    expect(await gh.gitShow("acme", "catalog", "drafts/app/v1", "app/package-context.yaml")).toContain(
      "name: app",
    );
    expect((await lifecycles())["catalog.app.v1"]).toBe("Draft");
    // Approving a Draft is refused.
    expect((await porchlight("rpkg", "approve", "catalog.app.v1", "--repo", "acme/catalog")).code).toBe(1);
    expect((await porchlight("rpkg", "propose", "catalog.app.v1", "--repo", "acme/catalog")).code).toBe(0);
    expect((await lifecycles())["catalog.app.v1"]).toBe("Proposed");
    await scenario.waitFor(
      async () => {
        const sha = await head("catalog", "drafts/app/v1");
        return sha ? renderRun("catalog", sha) : null;
      },
      { ...WAIT, message: "porchlight/render on the proposal" },
    );
    const approved = await porchlight("rpkg", "approve", "catalog.app.v1", "--repo", "acme/catalog");
    expect(approved.stderr).toBe("");
    expect(approved.code).toBe(0);
    await scenario.waitFor(async () => (await tagSha("app/v1")) ?? null, {
      ...WAIT,
      message: "the tag app/v1",
    });

    // A proposal whose render fails (an error result): approve refused, non-zero exit, nothing merged.
    const files = Object.fromEntries(Object.entries(TWO_NAMESPACES).map(([f, t]) => [`bad/${f}`, t]));
    await gh.pushFiles("acme", "catalog", "drafts/bad/v1", files, "bad", { from: "main" });
    expect((await porchlight("rpkg", "propose", "catalog.bad.v1", "--repo", "acme/catalog")).code).toBe(0);
    await scenario.waitFor(
      async () => {
        const sha = await head("catalog", "drafts/bad/v1");
        return sha ? renderRun("catalog", sha) : null;
      },
      { ...WAIT, message: "porchlight/render on the failing proposal" },
    );
    const refused = await porchlight("rpkg", "approve", "catalog.bad.v1", "--repo", "acme/catalog");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("approve refused: porchlight/render");
    expect(refused.stderr).toContain("is failure");
    expect((await lifecycles())["catalog.bad.v1"]).toBe("Proposed");
    // An ambiguous or unknown NAME is refused naming the candidates.
    const unknown = await porchlight("rpkg", "approve", "catalog.bad", "--repo", "acme/catalog");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("catalog.bad.v1");
    // del of a Draft/Proposed: the pull request closed, the branch gone.
    expect((await porchlight("rpkg", "del", "catalog.bad.v1", "--repo", "acme/catalog")).code).toBe(0);
    expect(await head("catalog", "drafts/bad/v1")).toBeUndefined();
    const pulls = (await gh.request("GET", "/repos/acme/catalog/pulls?state=all")).data;
    expect(pulls.find((p: Any) => p.head.ref === "drafts/bad/v1").state).toBe("closed");
  }, 180_000);

  it("a deletion is proposed, rejected back to Published, proposed again and done, its commit still reachable", async () => {
    const sha: string = await scenario.waitFor(async () => (await tagSha("app/v1")) ?? null, WAIT);
    expect(
      (await porchlight("rpkg", "propose-delete", "catalog.app.v1", "--repo", "acme/catalog")).code,
    ).toBe(0);
    expect((await lifecycles())["catalog.app.v1"]).toBe("DeletionProposed");
    // The proposal is seen where reviewers look: the app's neutral check on the proposal's own commit, an issue.
    const proposalCheck = await scenario.waitFor(
      async () => {
        const at = await head("catalog", "deletion-proposed/app/v1");
        return at && at !== sha ? renderRun("catalog", at) : null;
      },
      { ...WAIT, message: "the DeletionProposed check on the proposal's commit" },
    );
    expect(proposalCheck.conclusion).toBe("neutral");
    expect(proposalCheck.output.title).toBe("DeletionProposed: app/v1");
    const issues = async () =>
      (await gh.request("GET", "/repos/acme/catalog/issues?state=all&labels=porchlight-deletion")).data;
    const issue = (await issues()).find((i: Any) => i.title === "DeletionProposed: app/v1");
    expect(issue.state).toBe("open");
    expect(issue.body).toContain("porchlight rpkg del catalog.app.v1");
    // del of a Published revision that is not proposed for deletion is refused; reject restores it.
    expect((await porchlight("rpkg", "reject", "catalog.app.v1", "--repo", "acme/catalog")).code).toBe(0);
    const rejected = (await issues()).find((i: Any) => i.number === issue.number);
    expect(rejected.state).toBe("closed");
    const notes = (await gh.request("GET", `/repos/acme/catalog/issues/${issue.number}/comments`)).data;
    expect(notes.at(-1).body).toContain("Deletion rejected");
    expect((await lifecycles())["catalog.app.v1"]).toBe("Published");
    expect((await porchlight("rpkg", "del", "catalog.app.v1", "--repo", "acme/catalog")).code).toBe(1);
    expect(await tagSha("app/v1")).toBe(sha);
    // Proposed again, then deleted: no longer listed, the commit kept at deleted/app/v1.
    expect(
      (await porchlight("rpkg", "propose-delete", "catalog.app.v1", "--repo", "acme/catalog")).code,
    ).toBe(0);
    const deleted = await porchlight("rpkg", "del", "catalog.app.v1", "--repo", "acme/catalog");
    expect(deleted.stderr).toBe("");
    expect(deleted.code).toBe(0);
    expect(await lifecycles()).not.toHaveProperty("catalog.app.v1");
    expect(await tagSha("app/v1")).toBeUndefined();
    expect(await head("catalog", "deleted/app/v1")).toBe(sha);
    expect(await gh.gitShow("acme", "catalog", "deleted/app/v1", "app/Kptfile")).toContain("name: app");

    // The package exists: init refuses (its fresh Kptfile would replace the pipeline on approve).
    const reinit = await porchlight("rpkg", "init", "app", "--repo", "acme/catalog", "--workspace", "again");
    expect(reinit.code).toBe(1);
    expect(reinit.stderr).toContain("app already exists in acme/catalog");
    // Revision 1 published again at another commit, then deleted: kept beside the first, not lost.
    await gh.pushFiles("acme", "catalog", "main", { "app/extra.yaml": "a: 1\n" }, "edit");
    const again = (await head("catalog", "main")) ?? "";
    expect(again).not.toBe(sha);
    await gh.request("POST", "/repos/acme/catalog/git/refs", { ref: "refs/tags/app/v1", sha: again });
    expect(
      (await porchlight("rpkg", "propose-delete", "catalog.app.v1", "--repo", "acme/catalog")).code,
    ).toBe(0);
    const second = await porchlight("rpkg", "del", "catalog.app.v1", "--repo", "acme/catalog");
    expect(second.code).toBe(0);
    const keptAt = `deleted/app/v1-${again.slice(0, 12)}`;
    expect(second.stdout).toContain(keptAt);
    expect(await head("catalog", keptAt)).toBe(again);
    expect(await head("catalog", "deleted/app/v1")).toBe(sha);
  }, 120_000);

  it("clone from a git URL, pull as a ResourceList, push only to a Draft, a NAME two repositories hold is refused", async () => {
    await gh.createRepo("acme", "shop", {
      "README.md": "# shop\n",
      "web/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: web\n",
      "web/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  color: blue\n",
    });
    await gh.request("POST", "/repos/acme/shop/git/refs", {
      ref: "refs/tags/web/v1",
      sha: await head("shop", "main"),
    });
    const url = `${gh.url}/acme/shop.git/web@web/v1`;
    const cloned = await porchlight(
      "rpkg",
      "clone",
      url,
      "store",
      "--repo",
      "acme/pkgs",
      "--workspace",
      "v1",
    );
    expect(cloned.stderr).toBe("");
    expect(cloned.stdout).toContain("pkgs.store.v1 created");
    const kptfile = await gh.gitShow("acme", "pkgs", "drafts/store/v1", "store/Kptfile");
    expect(kptfile).toContain(`repo: ${gh.url}/acme/shop`);
    expect(kptfile).toContain("ref: web/v1");
    expect(await gh.gitShow("acme", "pkgs", "drafts/store/v1", "store/package-context.yaml")).toContain(
      "name: store",
    );
    // pull without DIR: a ResourceList, each resource with its file.
    const pulled = await porchlight("rpkg", "pull", "shop.web.main");
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain("kind: ResourceList");
    expect(pulled.stdout).toContain("config.kubernetes.io/path: cm.yaml");
    expect(pulled.stdout).toContain("color: blue");
    // push to a Published revision is refused.
    const dir = path.join(work, "shop-web");
    expect((await porchlight("rpkg", "pull", "shop.web.v1", dir)).code).toBe(0);
    const refused = await porchlight("rpkg", "push", "shop.web.v1", dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("only a Draft can be pushed to");
    // The same NAME in two repositories: refused naming both; --repo narrows.
    await gh.createRepo("globex", "shop", {
      "README.md": "# shop\n",
      "web/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: web\n",
    });
    const ambiguous = await porchlight("rpkg", "pull", "shop.web.main");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain("is ambiguous");
    expect(ambiguous.stderr).toContain("acme/shop");
    expect(ambiguous.stderr).toContain("globex/shop");
    expect((await porchlight("rpkg", "pull", "shop.web.main", "--repo", "globex/shop")).code).toBe(0);
    // A usage error names the verb and shows its help.
    const usage = await porchlight("rpkg", "clone", url);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("Usage: porchlight rpkg clone");
  }, 120_000);

  it("an upgrade that cannot be merged says so and creates nothing; the way out it suggests (force-delete-replace) works", async () => {
    const deploy = (replicas: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: ${replicas}\n`;
    await gh.createRepo("acme", "fleet", {
      "README.md": "# fleet\n",
      "base/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\n",
      "base/deploy.yaml": deploy("1"),
    });
    const tag = async (name: string) =>
      gh.request("POST", "/repos/acme/fleet/git/refs", {
        ref: `refs/tags/${name}`,
        sha: await head("fleet", "main"),
      });
    await tag("base/v1");
    expect(
      (
        await porchlight(
          "rpkg",
          "clone",
          "fleet.base.v1",
          "east",
          "--repo",
          "acme/fleet",
          "--workspace",
          "v1",
        )
      ).code,
    ).toBe(0);
    // The downstream on the default branch, with replicas made a map locally.
    const files: Record<string, string> = {};
    for (const f of ["Kptfile", "deploy.yaml", "package-context.yaml"])
      files[`east/${f}`] = (await gh.gitShow("acme", "fleet", "drafts/east/v1", `east/${f}`)) ?? "";
    files["east/deploy.yaml"] = files["east/deploy.yaml"]!.replace("replicas: 1", "replicas:\n    min: 2");
    await gh.pushFiles(
      "acme",
      "fleet",
      "main",
      { ...files, "base/deploy.yaml": deploy("5") },
      "east, base v2",
    );
    await tag("base/v2");
    const failed = await porchlight(
      "rpkg",
      "upgrade",
      "fleet.east.main",
      "--revision",
      "2",
      "--workspace",
      "up2",
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("cannot be merged");
    expect(failed.stderr).toContain("spec.replicas");
    expect(await head("fleet", "drafts/east/up2")).toBeUndefined();
    const way = await porchlight(
      "rpkg",
      "upgrade",
      "fleet.east.main",
      "--revision",
      "2",
      "--workspace",
      "upgrade-v2",
      "--strategy",
      "force-delete-replace",
    );
    expect(way.stderr).toBe("");
    expect(way.code).toBe(0);
    expect(way.stdout).toContain("fleet.east.upgrade-v2 created");
    expect(await gh.gitShow("acme", "fleet", "drafts/east/upgrade-v2", "east/deploy.yaml")).toContain(
      "replicas: 5",
    );
    const kptfile = await gh.gitShow("acme", "fleet", "drafts/east/upgrade-v2", "east/Kptfile");
    expect(kptfile).toContain("ref: base/v2");
    // The porchlight/upgrade run is on the upgrade's own commit (the app may have rendered on top of it since).
    const commits = (await gh.request("GET", "/repos/acme/fleet/commits?sha=drafts/east/upgrade-v2")).data;
    const ours = commits.find((c: Any) => c.commit.message.startsWith("Upgrade east to base/v2"));
    const runs = await gh.checkRuns("acme", "fleet", ours.sha);
    expect(runs.find((r: Any) => r.name === "porchlight/upgrade")?.conclusion).toBe("success");
  }, 120_000);
});
