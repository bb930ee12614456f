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

/** The reads of a draft job on `branch` at SHA holding `pkg`, with `.github/porchlight.yml` = `config`. */
const reads = (branch: string, pkg: Record<string, string>, config: string) =>
  new GitHubMock().branch(branch, SHA).config(config).checkRuns(SHA).tree(SHA, pkg).compare(SHA);

describe("push and .github/porchlight.yml", () => {
  it("renders branches under the configured draftBranchPrefix", async () => {
    const pkg = files();
    const gh = reads("porch/apps/web/v1", pkg, "draftBranchPrefix: porch/\n");
    gh.blobs(pkg, ["apps/web"]).commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(push("porch/apps/web/v1"));
    gh.assertDone();
    expect(gh.bodies("POST", "/check-runs")[0]).toMatchObject({ head_sha: RENDERED, conclusion: "success" });

    // ... and no longer the default drafts/ prefix.
    const other = new GitHubMock().branch("drafts/apps/web/v1", SHA).config("draftBranchPrefix: porch/\n");
    await probot.receive(push("drafts/apps/web/v1"));
    other.assertDone();
    expect(other.requests.map((r) => r.path)).toEqual(["/graphql"]);
  });

  it("lets the file's pushOnFailure override the operator's default", async () => {
    const pkg = files([...SET_NAMESPACE, `  - exec: ${REPORT_FN} error 1`]);
    // Operator: Unrendered (would commit the status). Repository: None (commits nothing).
    const gh = reads("drafts/apps/web/v1", pkg, "pushOnFailure: None\n");
    gh.blobs(pkg, ["apps/web"]).createCheckRun();
    await (await createTestProbot({ pushOnFailure: "Unrendered" })).receive(push("drafts/apps/web/v1"));
    gh.assertDone();
    expect(gh.commitInputs()).toEqual([]);
    expect(gh.bodies("POST", "/check-runs")[0]).toMatchObject({ head_sha: SHA, conclusion: "failure" });

    // Without the field, the operator's default applies (None here: nothing stored either).
    const op = reads("drafts/apps/web/v1", pkg, "deleteBranchOnPublish: false\n");
    op.blobs(pkg, ["apps/web"]).createCheckRun();
    await (await createTestProbot({ pushOnFailure: "None" })).receive(push("drafts/apps/web/v1"));
    op.assertDone();
    expect(op.commitInputs()).toEqual([]);
  });

  it("renders only packages inside the configured directories", async () => {
    const pkg = files();
    const gh = reads("drafts/apps/web/v1", pkg, "directories: [other]\n").createCheckRun();
    await (await createTestProbot()).receive(push("drafts/apps/web/v1", ["apps/web/deploy.yaml"]));
    gh.assertDone(); // apps/web is outside `other`: no blob read, nothing rendered, a neutral check
    expect(gh.bodies("POST", "/check-runs")).toMatchObject([{ conclusion: "neutral" }]);
    expect(summaryOf(gh.bodies("POST", "/check-runs")[0])).toContain("under other");
  });

  it("reports a bad file as one failed check naming the field, on the pushed draft", async () => {
    const gh = new GitHubMock().branch("drafts/apps/web/v1", SHA).config("pushOnFailure: Sometimes\n");
    gh.checkRuns(SHA).createCheckRun();
    await (await createTestProbot()).receive(push("drafts/apps/web/v1"));
    gh.assertDone();
    const checks = gh.bodies("POST", "/check-runs");
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ head_sha: SHA, status: "completed", conclusion: "failure" });
    expect(summaryOf(checks[0])).toContain('.github/porchlight.yml: field "pushOnFailure"');
    expect(gh.commitInputs()).toEqual([]);
  });
});
