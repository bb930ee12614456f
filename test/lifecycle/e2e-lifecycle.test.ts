/**
 * End-to-end lifecycle: the BUILT app (`npm start`) against ../shared/tools/fake-github (real bare git
 * repositories, webhooks emitted by the server itself, GraphQL, rulesets enforced on merge), driven the
 * way a user would: `porchlight protect`, draft push, pull request, failing render → GitHub draft PR,
 * fix, ready for review, merge (blocked while failing), tag, and `porchlight rpkg get`.
 * Skips visibly when the fake is absent.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProtect } from "../../src/cli/protect.js";
import { runRpkgGet } from "../../src/cli/rpkg-get.js";
import { ensureBuiltCli, sharedDir } from "../helpers/built-cli.js";
import { providedByCi } from "../helpers/ci-provides.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const scenarioPath = path.join(sharedDir, "tools/fake-github/scenario.mjs");
const available = providedByCi(
  "lifecycle end to end (fake GitHub)",
  existsSync(scenarioPath),
  `${scenarioPath} is absent`,
);
if (!available) console.warn(`lifecycle e2e skipped: ${scenarioPath} is absent (fake GitHub not available)`);

// biome-ignore lint/suspicious/noExplicitAny: the fake is plain JavaScript imported at test time.
type Any = any;

const kptfile = (extra = "") => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: prod
${extra}`;
const BROKEN = "    - image: example.com/fns/does-not-exist:v1\n";
const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n";

describe.skipIf(!available)("lifecycle end to end (npm start, fake GitHub)", () => {
  let scenario: Any;
  let gh: Any;
  let app: Any;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-lifecycle-e2e-"));

  beforeAll(async () => {
    ensureBuiltCli(); // the app runs from dist/, rebuilt only when older than src/
    scenario = await import(pathToFileURL(scenarioPath).href);
    gh = await scenario.startFakeGitHub({ dataDir });
    await gh.createRepo("acme", "pkgs", { "README.md": "# packages\n" });
    app = await gh.startApp({ cmd: ["npm", "start"], cwd: repoRoot, readyTimeoutMs: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("protect → draft → failing PR becomes a draft → fix → ready → merge → pkg/v1 → rpkg get", async () => {
    const env = { GITHUB_TOKEN: await gh.installationToken(), GITHUB_API_URL: gh.apiUrl };
    const out: string[] = [];
    const io = { env, stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
    const head = async (branch: string) =>
      (await gh.request("GET", `/repos/acme/pkgs/branches/${branch}`)).data?.commit?.sha as
        | string
        | undefined;
    const renderChecks = async (sha: string) =>
      ((await gh.checkRuns("acme", "pkgs", sha)) as Any[]).filter((r: Any) => r.name === "porchlight/render");
    const latest = async (sha: string) => (await renderChecks(sha)).at(-1);
    // Every path that reported on `sha` (push, pull request events) agrees, and none is left in progress.
    const verdicts = async (sha: string) =>
      [...new Set((await renderChecks(sha)).map((r: Any) => `${r.status}/${r.conclusion}`))] as string[];
    const isDraft = async (nodeId: string) =>
      (
        await gh.graphql("query($id: ID!) { node(id: $id) { ... on PullRequest { isDraft } } }", {
          id: nodeId,
        })
      ).data?.node?.isDraft;

    // porchlight protect: the ruleset requiring porchlight/render from app 1 on the default branch.
    expect(await runProtect(["acme/pkgs", "--app-id", String(gh.appId)], io), out.join("")).toBe(0);
    await gh.setFlags({ enforceRulesets: true });

    // Draft with a pipeline that cannot run; the app commits the Kptfile status.
    const branch = "drafts/pkg/first";
    const first = await gh.pushFiles(
      "acme",
      "pkgs",
      branch,
      { "pkg/Kptfile": kptfile(BROKEN), "pkg/deploy.yaml": deploy },
      "Init pkg",
      {
        from: "main",
      },
    );
    await scenario.waitFor(async () => (await head(branch)) !== first.after, {
      timeoutMs: 30_000,
      message: "status commit",
    });
    await gh.idle({ quietMs: 1500 });

    // Propose: the render fails, so the pull request is turned back into a draft, with one comment.
    const pr = await gh.createPullRequest("acme", "pkgs", {
      head: branch,
      base: "main",
      title: "pkg first",
      draft: false,
    });
    await scenario.waitFor(() => isDraft(pr.node_id), {
      timeoutMs: 30_000,
      message: "PR converted to draft",
    });
    await gh.idle({ quietMs: 1500 });
    expect((await latest((await head(branch))!))?.conclusion).toBe("failure");
    expect(await verdicts((await head(branch))!)).toEqual(["completed/failure"]);
    await expect(gh.merge("acme", "pkgs", pr.number, "merge", { enforce: true })).rejects.toThrow(
      /porchlight\/render/,
    );

    // Fix, then mark ready for review.
    await gh.pushFiles("acme", "pkgs", branch, { "pkg/Kptfile": kptfile() }, "Fix pipeline");
    await scenario.waitFor(async () => (await latest((await head(branch))!))?.conclusion === "success", {
      timeoutMs: 30_000,
      message: "success on the rendered head",
    });
    await gh.idle({ quietMs: 1500 });
    await gh.graphql(
      "mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }",
      {
        id: pr.node_id,
      },
    );
    await gh.idle({ quietMs: 1500 });
    expect(await isDraft(pr.node_id)).toBe(false);
    expect(await verdicts((await head(branch))!)).toEqual(["completed/success"]);
    const comments = (await gh.request("GET", `/repos/acme/pkgs/issues/${pr.number}/comments`)).data as Any[];
    expect(comments.filter((c) => c.body.includes("porchlight:propose"))).toHaveLength(1);
    expect(comments.find((c) => c.body.includes("porchlight:propose")).body).toContain("Renders cleanly now");

    // Approve = merge (the ruleset lets it through now) → tag pkg/v1 on the merge commit.
    const merged = await gh.merge("acme", "pkgs", pr.number, "merge", { enforce: true });
    const tag = await scenario.waitFor(
      async () => (await gh.request("GET", "/repos/acme/pkgs/git/matching-refs/tags/pkg/")).data?.[0],
      { timeoutMs: 30_000, message: "tag pkg/v1" },
    );
    expect(tag).toMatchObject({ ref: "refs/tags/pkg/v1", object: { sha: merged.merge_commit_sha } });
    await gh.idle({ quietMs: 1500 });
    expect(await head(branch)).toBeUndefined(); // draft branch deleted

    // porchlight rpkg get over the same repository.
    out.length = 0;
    expect(await runRpkgGet(["get", "--repo", "acme/pkgs"], io), out.join("")).toBe(0);
    expect(out.join("")).toMatch(/pkgs\.pkg\.v1\s+pkg\s+v1\s+1\s+true\s+Published\s+pkgs/);
    expect(out.join("")).toMatch(/pkgs\.pkg\.main\s+pkg\s+main\s+-1\s+false\s+Published\s+pkgs/);

    const { violations } = await gh.violations();
    expect(violations.filter((v: Any) => v.kind !== "note")).toEqual([]);
  }, 180_000);

  it("an unprotected repository: merging a failing draft publishes nothing and the comment says why", async () => {
    // No ruleset here, and failing pull requests stay ready for review: nothing stops the merge.
    await gh.createRepo("acme", "open", {
      "README.md": "# open\n",
      ".github/porchlight.yml": "convertFailingToDraft: false\n",
    });
    const branch = "drafts/pkg/ws";
    const headOf = async () =>
      (await gh.request("GET", `/repos/acme/open/branches/${branch}`)).data?.commit?.sha as
        | string
        | undefined;
    const first = await gh.pushFiles(
      "acme",
      "open",
      branch,
      { "pkg/Kptfile": kptfile(BROKEN), "pkg/deploy.yaml": deploy },
      "Init pkg",
      { from: "main" },
    );
    await scenario.waitFor(async () => (await headOf()) !== first.after, {
      timeoutMs: 30_000,
      message: "status commit",
    });
    await gh.idle({ quietMs: 1500 });
    const pr = await gh.createPullRequest("acme", "open", {
      head: branch,
      base: "main",
      title: "pkg",
      draft: false,
    });
    await gh.idle({ quietMs: 1500 });
    await gh.merge("acme", "open", pr.number, "merge");
    const comment = await scenario.waitFor(
      async () =>
        ((await gh.request("GET", `/repos/acme/open/issues/${pr.number}/comments`)).data as Any[]).find((c) =>
          c.body.includes("porchlight:publish"),
        ),
      { timeoutMs: 30_000, message: "publish comment" },
    );
    await gh.idle({ quietMs: 1500 });
    expect(comment.body).toContain("### ⛔ Not published");
    expect(comment.body).toContain("rendering fails (Rendered=False)");
    expect(comment.body).toContain("Porch refuses to approve a package revision that does not render");
    const tags = (await gh.request("GET", "/repos/acme/open/git/matching-refs/tags/")).data as Any[];
    expect(tags).toEqual([]);
    expect(await headOf()).toBeDefined(); // the draft branch is kept for the fix
    const { violations } = await gh.violations();
    expect(violations.filter((v: Any) => v.kind !== "note")).toEqual([]);
  }, 120_000);
});
