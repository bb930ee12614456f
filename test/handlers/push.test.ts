import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pushEvent } from "../helpers/events.js";
import { GitHubMock, useNock } from "../helpers/github-mock.js";
import {
  createTestProbot,
  deployment,
  kptfile,
  renderedCondition,
  SET_NAMESPACE,
  summaryOf,
  treeContents,
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

/** Renders `files` once (push of SHA, committed as RENDERED) and returns the files of the rendered commit. */
async function firstRender(files: Record<string, string>): Promise<Record<string, string>> {
  const first = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files, ["apps/web"]);
  first.createTree().createCommit(RENDERED).updateRef(BRANCH).createCheckRun();
  await (await createTestProbot()).receive(edit());
  first.assertDone();
  const rendered = { ...files };
  for (const [p, c] of Object.entries(treeContents(first.bodies("POST", "/git/trees")[0])))
    rendered[p] = c ?? "";
  return rendered;
}

/** The mock for a push of `sha` holding `files` that is rendered and reported without a commit. */
const judgeOnly = (sha: string, files: Record<string, string>) =>
  new GitHubMock().tree(sha, files).compare(sha).config().blobs(files, ["apps/web"]).createCheckRun();

describe("push to a draft branch", () => {
  it("renders the touched package, commits the output once and reports success on that commit", async () => {
    const files = webFiles();
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files, ["apps/web"]);
    gh.createTree().createCommit(RENDERED).updateRef(BRANCH).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(edit());

    gh.assertDone();
    const written = treeContents(gh.bodies("POST", "/git/trees")[0]);
    expect(Object.keys(written).sort()).toEqual(["apps/web/Kptfile", "apps/web/deploy.yaml"]);
    expect(parse(written["apps/web/deploy.yaml"] ?? "").metadata.namespace).toBe("prod");
    expect(written["apps/web/deploy.yaml"]).toContain("name: web # the app");
    expect(renderedCondition(written["apps/web/Kptfile"])).toMatchObject({
      type: "Rendered",
      status: "True",
    });
    expect(gh.bodies("POST", "/git/trees")[0]?.base_tree).toBe(`tree-${SHA}`);
    const commit = gh.bodies("POST", "/git/commits")[0];
    expect(commit?.parents).toEqual([SHA]);
    expect(commit?.message).toMatch(/^Render apps\/web\n/);
    expect(commit?.message).toMatch(new RegExp(`\\n\\nRendered-From: ${SHA}\\n?$`));
    expect(gh.bodies("PATCH", "/git/refs/heads%2Fdrafts%2Fapps%2Fweb%2Fv1")).toEqual([
      { sha: RENDERED, force: false },
    ]);
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
    const gh = judgeOnly(RENDERED, rendered);
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
    expect(gh.bodies("POST", "/git/trees")).toEqual([]);
    const [check] = gh.bodies("POST", "/check-runs");
    expect(check).toMatchObject({ head_sha: USER, conclusion: "success" });
    expect(summaryOf(check)).toMatch(/no commit/);
  });

  it("does nothing for the echo of its own commit in the same process, nor for a redelivered webhook", async () => {
    const files = webFiles();
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files, ["apps/web"]);
    gh.createTree().createCommit(RENDERED).updateRef(BRANCH).createCheckRun();
    gh.config().config(); // each delivery reads the repository config, then finds the work done
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

  it("drops the result quietly when the ref update is not a fast forward (a newer push exists)", async () => {
    const files = webFiles();
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files, ["apps/web"]);
    gh.createTree().createCommit(RENDERED).updateRef(BRANCH, { race: true });
    const probot = await createTestProbot();

    await probot.receive(edit());

    gh.assertDone();
    expect(gh.bodies("POST", "/check-runs")).toEqual([]);
  });

  it("ignores pushes to other branches, tags and branch deletions", async () => {
    // Another branch: only the repository config is read (it names the draft branch prefix).
    const gh = new GitHubMock().config();
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
    expect(gh.requests.map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(gh.requests.every((r) => r.path.endsWith("porchlight.yml"))).toBe(true);
  });

  it("reports no check when the push touched no package", async () => {
    const files = webFiles();
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config();
    const probot = await createTestProbot();
    await probot.receive(
      pushEvent({ branch: "drafts/docs/v1", after: SHA, commits: [{ modified: ["README.md"] }] }),
    );
    gh.assertDone();
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
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files, ["apps/web"]);
    gh.createTree().createCommit(RENDERED).updateRef("drafts/apps/web/db/v1").createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({
        branch: "drafts/apps/web/db/v1",
        after: SHA,
        commits: [{ modified: ["apps/web/db/svc.yaml"] }],
      }),
    );

    gh.assertDone();
    const written = treeContents(gh.bodies("POST", "/git/trees")[0]);
    const svc = parse(written["apps/web/db/svc.yaml"] ?? "");
    expect(svc.metadata.labels).toEqual({ tier: "db" });
    expect(svc.metadata.namespace).toBe("prod");
    expect(parse(written["apps/web/deploy.yaml"] ?? "").metadata.labels).toBeUndefined();
    expect(gh.bodies("POST", "/git/commits")[0]?.message).toMatch(/^Render apps\/web\n/);
    const summary = summaryOf(gh.bodies("POST", "/check-runs")[0]);
    expect(summary).toContain("mutator (./db)");
  });
});

describe("GitHub failures", () => {
  it("completes a failure check on the pushed sha when GitHub fails mid-render, and rethrows", async () => {
    const files = webFiles();
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config();
    gh.scope
      .get(/\/git\/blobs\//)
      .times(2)
      .reply(gh.reply(502, { message: "Server Error" }));
    gh.createCheckRun();
    const probot = await createTestProbot();

    await expect(probot.receive(edit())).rejects.toThrow();

    gh.assertDone();
    const [check] = gh.bodies("POST", "/check-runs");
    expect(check).toMatchObject({ head_sha: SHA, status: "completed", conclusion: "failure" });
    expect(summaryOf(check)).toContain("GitHub was unavailable");
    expect(summaryOf(check)).toContain("git.getBlob");
  });
});
