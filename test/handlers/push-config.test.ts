/**
 * The push handler reads `.github/porchlight.yml` (Probot's `context.config`, default branch) like the
 * pull request handlers: draft prefix, pushOnFailure (the file overrides the operator's default),
 * directories; a bad file is one failed check naming the field.
 */
import { describe, expect, it } from "vitest";
import { pushEvent } from "../helpers/events.js";
import { GitHubMock, useNock } from "../helpers/github-mock.js";
import { createTestProbot, deployment, kptfile, REPORT_FN, SET_NAMESPACE, summaryOf } from "./harness.js";

useNock();

const SHA = "f".repeat(40);
const RENDERED = "9".repeat(40);

const files = (pipeline: string[] = SET_NAMESPACE): Record<string, string> => ({
  "apps/web/Kptfile": kptfile("web", pipeline),
  "apps/web/deploy.yaml": deployment("web"),
  "other/db/Kptfile": kptfile("db", SET_NAMESPACE),
  "other/db/deploy.yaml": deployment("db"),
});

const push = (branch: string, modified = ["apps/web/deploy.yaml"]) =>
  pushEvent({ branch, after: SHA, commits: [{ modified }] });

describe("push and .github/porchlight.yml", () => {
  it("renders branches under the configured draftBranchPrefix", async () => {
    const pkg = files();
    const gh = new GitHubMock().config("draftBranchPrefix: porch/\n").tree(SHA, pkg).compare(SHA);
    gh.blobs(pkg, ["apps/web"]).createTree().createCommit(RENDERED).updateRef("porch/apps/web/v1");
    gh.createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(push("porch/apps/web/v1"));
    gh.assertDone();
    expect(gh.bodies("POST", "/check-runs")[0]).toMatchObject({ head_sha: RENDERED, conclusion: "success" });

    // ... and no longer the default drafts/ prefix.
    const other = new GitHubMock().config("draftBranchPrefix: porch/\n");
    await probot.receive(push("drafts/apps/web/v1"));
    other.assertDone();
    expect(other.requests.filter((r) => !r.path.endsWith("porchlight.yml"))).toEqual([]);
  });

  it("lets the file's pushOnFailure override the operator's default", async () => {
    const pkg = files([...SET_NAMESPACE, `  - exec: ${REPORT_FN} error 1`]);
    // Operator: Unrendered (would commit the status). Repository: None (commits nothing).
    const gh = new GitHubMock().config("pushOnFailure: None\n").tree(SHA, pkg).compare(SHA);
    gh.blobs(pkg, ["apps/web"]).createCheckRun();
    await (await createTestProbot({ pushOnFailure: "Unrendered" })).receive(push("drafts/apps/web/v1"));
    gh.assertDone();
    expect(gh.bodies("POST", "/git/trees")).toEqual([]);
    expect(gh.bodies("POST", "/check-runs")[0]).toMatchObject({ head_sha: SHA, conclusion: "failure" });

    // Without the field, the operator's default applies (None here: nothing stored either).
    const op = new GitHubMock().config("deleteBranchOnPublish: false\n").tree(SHA, pkg).compare(SHA);
    op.blobs(pkg, ["apps/web"]).createCheckRun();
    await (await createTestProbot({ pushOnFailure: "None" })).receive(push("drafts/apps/web/v1"));
    op.assertDone();
    expect(op.bodies("POST", "/git/trees")).toEqual([]);
  });

  it("renders only packages inside the configured directories", async () => {
    const pkg = files();
    const gh = new GitHubMock().config("directories: [other]\n").tree(SHA, pkg).compare(SHA);
    await (await createTestProbot()).receive(push("drafts/apps/web/v1", ["apps/web/deploy.yaml"]));
    gh.assertDone(); // apps/web is outside `other`: nothing read, nothing rendered, no check
    expect(gh.bodies("POST", "/check-runs")).toEqual([]);
  });

  it("reports a bad file as one failed check naming the field, on the pushed draft", async () => {
    const gh = new GitHubMock().config("pushOnFailure: Sometimes\n").createCheckRun();
    await (await createTestProbot()).receive(push("drafts/apps/web/v1"));
    gh.assertDone();
    const checks = gh.bodies("POST", "/check-runs");
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ head_sha: SHA, status: "completed", conclusion: "failure" });
    expect(summaryOf(checks[0])).toContain('.github/porchlight.yml: field "pushOnFailure"');
    expect(gh.bodies("POST", "/git/trees")).toEqual([]);
  });
});
