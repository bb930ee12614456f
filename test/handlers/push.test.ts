import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pushEvent } from "../helpers/events.js";
import { commitContents, commitMessage, GitHubMock, useNock } from "../helpers/github-mock.js";
import {
  createTestProbot,
  deployment,
  kptfile,
  renderedCondition,
  SET_NAMESPACE,
  summaryOf,
} from "./harness.js";

useNock();

const SHA = "a".repeat(40);
const RENDERED = "b".repeat(40);
const BRANCH = "drafts/apps/web/v1";

const webFiles = (pipeline: string[] = SET_NAMESPACE): Record<string, string> => ({
  "README.md": "# not a package\n",
  "apps/web/Kptfile": kptfile("web", pipeline),
  "apps/web/deploy.yaml": deployment("web"),
  "apps/other/Kptfile": kptfile("other"),
  "apps/other/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n",
});

const edit = (paths: string[] = ["apps/web/deploy.yaml"], message = "Edit web") =>
  pushEvent({ branch: BRANCH, after: SHA, commits: [{ message, modified: paths }] });

/**
 * The reads of a draft job whose branch head is `sha` holding `files`: the snapshot (config absent),
 * the verdict lookup (no run yet), the tree, the draft's diff and the package's blobs.
 */
function reads(gh: GitHubMock, sha: string, files: Record<string, string>, message?: string): GitHubMock {
  return gh
    .branch(BRANCH, sha, message)
    .config()
    .checkRuns(sha)
    .tree(sha, files)
    .compare(sha)
    .blobs(files, ["apps/web"]);
}

/** Renders `files` once (push of SHA, committed as RENDERED) and returns the files of the rendered commit. */
async function firstRender(files: Record<string, string>): Promise<Record<string, string>> {
  const first = reads(new GitHubMock(), SHA, files).commit(RENDERED).createCheckRun();
  await (await createTestProbot()).receive(edit());
  first.assertDone();
  const rendered = { ...files };
  for (const [p, c] of Object.entries(commitContents(first.commitInputs()[0]))) rendered[p] = c ?? "";
  return rendered;
}

/** The mock for a head `sha` holding `files` that is rendered and reported without a commit. */
const judgeOnly = (sha: string, files: Record<string, string>, message?: string) =>
  reads(new GitHubMock(), sha, files, message).createCheckRun();

describe("push to a draft branch", () => {
  it("renders the touched package, commits the output once onto the pushed head and reports success on that commit", async () => {
    const files = webFiles();
    const gh = reads(new GitHubMock(), SHA, files).commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(edit());

    gh.assertDone();
    const [input] = gh.commitInputs();
    const written = commitContents(input);
    expect(Object.keys(written).sort()).toEqual(["apps/web/Kptfile", "apps/web/deploy.yaml"]);
    expect(parse(written["apps/web/deploy.yaml"] ?? "").metadata.namespace).toBe("prod");
    expect(written["apps/web/deploy.yaml"]).toContain("name: web # the app");
    expect(renderedCondition(written["apps/web/Kptfile"])).toMatchObject({
      type: "Rendered",
      status: "True",
    });
    // One compare-and-swap: the commit lands only if the branch still points at the rendered head.
    expect(input?.expectedHeadOid).toBe(SHA);
    expect(input?.branch).toEqual({ repositoryNameWithOwner: `${gh.owner}/${gh.repo}`, branchName: BRANCH });
    expect(input?.message.headline).toBe("Render apps/web");
    expect(commitMessage(input)).toMatch(new RegExp(`\\n\\nRendered-From: ${SHA}$`));
    expect(gh.requests.filter((r) => r.method !== "GET" && r.path !== "/graphql").map((r) => r.path)).toEqual(
      [`${gh.base}/check-runs`],
    );
    const [check] = gh.bodies("POST", "/check-runs");
    expect(check).toMatchObject({
      name: "porchlight/render",
      head_sha: RENDERED,
      status: "completed",
      conclusion: "success",
    });
    expect(summaryOf(check)).toContain("set-namespace:v0.4.1");
  });

  it("gives an already-rendered push only its check: no commit, success", async () => {
    const rendered = await firstRender(webFiles());

    // The app's own commit comes back as a push (to a fresh process): only the check.
    const gh = judgeOnly(RENDERED, rendered, `Render apps/web\n\nRendered-From: ${SHA}`);
    const echo = pushEvent({
      branch: BRANCH,
      before: SHA,
      after: RENDERED,
      commits: [{ message: `Render apps/web\n\nRendered-From: ${SHA}\n`, modified: ["apps/web/Kptfile"] }],
    });
    await (await createTestProbot()).receive(echo);

    gh.assertDone();
    expect(gh.bodies("POST", "/check-runs")[0]).toMatchObject({ head_sha: RENDERED, conclusion: "success" });
  });

  it("does not commit when re-rendering an already-rendered package changes only the functions' result messages", async () => {
    const rendered = await firstRender({ ...webFiles(), "apps/web/README.md": "# web\n" });
    expect(rendered["apps/web/Kptfile"]).toContain("1 value(s) changed");

    // A user edits only the README of the rendered package: the re-render reports "no value changed".
    const USER = "e".repeat(40);
    const gh = judgeOnly(USER, { ...rendered, "apps/web/README.md": "# web, documented\n" });
    const docs = pushEvent({
      branch: BRANCH,
      before: RENDERED,
      after: USER,
      commits: [{ message: "Document web", modified: ["apps/web/README.md"] }],
    });
    await (await createTestProbot()).receive(docs);

    gh.assertDone();
    expect(gh.commitInputs()).toEqual([]);
    const [check] = gh.bodies("POST", "/check-runs");
    expect(check).toMatchObject({ head_sha: USER, conclusion: "success" });
    expect(summaryOf(check)).toMatch(/no commit/);
  });

  it("does nothing for the echo of its own commit in the same process, nor for a redelivered webhook", async () => {
    const files = webFiles();
    const gh = reads(new GitHubMock(), SHA, files).commit(RENDERED).createCheckRun();
    // The redelivery's job reads the branch: its head is the render commit, whose verdict is known.
    // The echo of the render commit costs no request at all.
    gh.config();
    const probot = await createTestProbot();

    await probot.receive(edit());
    await probot.receive({ ...edit(), id: "redelivery" });
    await probot.receive(
      pushEvent({
        branch: BRANCH,
        before: SHA,
        after: RENDERED,
        commits: [{ message: `Render apps/web\n\nRendered-From: ${SHA}\n`, modified: ["apps/web/Kptfile"] }],
      }),
    );

    gh.assertDone();
    expect(gh.bodies("POST", "/check-runs")).toHaveLength(1);
  });

  it("drops the result when the branch moved before the commit landed, and looks at the new head", async () => {
    const files = webFiles();
    const NEWER = "9".repeat(40);
    const gh = reads(new GitHubMock(), SHA, files).commit({ stale: true, movedTo: NEWER });
    // The branch's new job reads the new head, which already has its verdict (a run from this app).
    gh.config().checkRuns(NEWER, [
      { id: 7, name: "porchlight/render", head_sha: NEWER, status: "completed", conclusion: "success" },
    ]);
    const probot = await createTestProbot();

    await probot.receive(edit());

    gh.assertDone();
    expect(gh.commitInputs().map((i) => i.expectedHeadOid)).toEqual([SHA]);
    expect(gh.bodies("POST", "/check-runs")).toEqual([]);
  });

  it("ignores pushes to other branches, tags and branch deletions", async () => {
    // Another branch: only the snapshot is read (the configuration names the draft branch prefix).
    const gh = new GitHubMock().branch("main", SHA).config();
    const probot = await createTestProbot();
    await probot.receive(
      pushEvent({ branch: "main", after: SHA, commits: [{ modified: ["apps/web/deploy.yaml"] }] }),
    );
    const deletion = edit();
    deletion.payload.deleted = true;
    await probot.receive(deletion);
    const tag = edit();
    tag.payload.ref = "refs/tags/apps/web/v1";
    await probot.receive(tag);
    gh.assertDone();
    expect(gh.requests.map((r) => [r.method, r.path])).toEqual([["POST", "/graphql"]]);
  });

  it("reports a neutral check when the draft touches no package, so a required check never waits", async () => {
    const files = webFiles();
    const gh = new GitHubMock()
      .branch("drafts/docs/v1", SHA)
      .config()
      .checkRuns(SHA)
      .tree(SHA, files)
      .compare(SHA);
    gh.createCheckRun();
    const probot = await createTestProbot();
    await probot.receive(
      pushEvent({ branch: "drafts/docs/v1", after: SHA, commits: [{ modified: ["README.md"] }] }),
    );
    gh.assertDone();
    expect(gh.bodies("POST", "/check-runs")).toMatchObject([
      { head_sha: SHA, status: "completed", conclusion: "neutral", output: { title: "No package changed" } },
    ]);
  });
});

describe("subpackages", () => {
  it("renders the top-most package with its subpackage when the subpackage changed", async () => {
    const files: Record<string, string> = {
      ...webFiles(),
      "apps/web/db/Kptfile": kptfile("db", [
        "mutators:",
        "  - image: set-labels:v0.2",
        "    configMap:",
        "      tier: db",
      ]),
      "apps/web/db/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: db\n",
    };
    const gh = new GitHubMock().branch("drafts/apps/web/db/v1", SHA).config().checkRuns(SHA);
    gh.tree(SHA, files).compare(SHA).blobs(files, ["apps/web"]).commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({
        branch: "drafts/apps/web/db/v1",
        after: SHA,
        commits: [{ modified: ["apps/web/db/svc.yaml"] }],
      }),
    );

    gh.assertDone();
    const written = commitContents(gh.commitInputs()[0]);
    const svc = parse(written["apps/web/db/svc.yaml"] ?? "");
    expect(svc.metadata.labels).toEqual({ tier: "db" });
    expect(svc.metadata.namespace).toBe("prod");
    expect(parse(written["apps/web/deploy.yaml"] ?? "").metadata.labels).toBeUndefined();
    expect(gh.commitInputs()[0]?.message.headline).toBe("Render apps/web");
    const summary = summaryOf(gh.bodies("POST", "/check-runs")[0]);
    expect(summary).toContain("mutator (./db)");
  });
});

describe("GitHub failures", () => {
  it("runs the job again when GitHub fails mid-render, and reports the render once", async () => {
    const files = webFiles();
    const gh = new GitHubMock().branch(BRANCH, SHA);
    // Two attempts fail on the blob read (GitHub answers 502), the third renders.
    for (let i = 0; i < 3; i++) gh.config().checkRuns(SHA).tree(SHA, files).compare(SHA);
    gh.scope
      .post("/graphql", (body: { query?: string }) => String(body.query).includes("porchlightBlobs("))
      .times(2)
      .reply(502, { message: "Server Error" });
    gh.blobs(files, ["apps/web"]).commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(edit());

    gh.assertDone();
    expect(probot.failures).toEqual([]);
    expect(gh.bodies("POST", "/check-runs")).toMatchObject([{ head_sha: RENDERED, conclusion: "success" }]);
  });

  it("reports no verdict while GitHub stays unavailable (reconciliation redoes the work later)", async () => {
    const files = webFiles();
    const gh = new GitHubMock().branch(BRANCH, SHA);
    for (let i = 0; i < 3; i++) gh.config().checkRuns(SHA).tree(SHA, files).compare(SHA);
    gh.scope
      .post("/graphql", (body: { query?: string }) => String(body.query).includes("porchlightBlobs("))
      .times(3)
      .reply(503, { message: "Service Unavailable" });
    const probot = await createTestProbot();

    await probot.receive(edit());

    gh.assertDone();
    expect(probot.failures).toHaveLength(1);
    expect(String(probot.failures[0])).toContain("graphql.blobs");
    expect(gh.bodies("POST", "/check-runs")).toEqual([]);
  });
});

describe("installation events", () => {
  it("reconcile the repositories the app gains", async () => {
    const gh = new GitHubMock();
    const probot = await createTestProbot();
    const jobs: unknown[] = [];
    probot.queue.enqueue = async (job) => void jobs.push(job);
    await probot.receive({
      id: "i-1",
      name: "installation_repositories",
      payload: {
        action: "added",
        installation: { id: 42 },
        repositories_added: [{ id: 1, name: "pkgs", full_name: "acme/pkgs", private: false, node_id: "R" }],
        repositories_removed: [],
        repository_selection: "selected",
        sender: { login: "octo", id: 1 },
      },
    } as never);
    await probot.receive({
      id: "i-2",
      name: "installation",
      payload: { action: "created", installation: { id: 42 }, sender: { login: "octo", id: 1 } },
    } as never);
    gh.assertDone();
    expect(jobs).toEqual([
      { kind: "reconcile", installationId: 42, repo: { owner: "acme", repo: "pkgs" } },
      { kind: "reconcile", installationId: 42 },
    ]);
  });
});
