import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pushEvent } from "../helpers/events.js";
import { GitHubMock, useNock } from "../helpers/github-mock.js";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE, summaryOf, treeContents } from "./harness.js";

useNock();

const SHA = "e".repeat(40);
const RENDERED = "f".repeat(40);

describe("a push touching two packages", () => {
  it("renders both into ONE commit whose message names both, and one check run", async () => {
    const files = {
      "apps/web/Kptfile": kptfile("web", SET_NAMESPACE),
      "apps/web/deploy.yaml": deployment("web"),
      "apps/api/Kptfile": kptfile("api", SET_NAMESPACE),
      "apps/api/deploy.yaml": deployment("api"),
    };
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files);
    gh.createTree().createCommit(RENDERED).updateRef("drafts/apps/web/v1").createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({
        branch: "drafts/apps/web/v1",
        after: SHA,
        commits: [{ modified: ["apps/web/deploy.yaml"] }, { modified: ["apps/api/deploy.yaml"] }],
      }),
    );

    gh.assertDone();
    expect(gh.bodies("POST", "/git/commits")[0]?.message).toMatch(/^Render apps\/api, apps\/web\n/);
    const written = treeContents(gh.bodies("POST", "/git/trees")[0]);
    expect(parse(written["apps/api/deploy.yaml"] ?? "").metadata.namespace).toBe("prod");
    expect(parse(written["apps/web/deploy.yaml"] ?? "").metadata.namespace).toBe("prod");
    const check = gh.bodies("POST", "/check-runs")[0];
    expect(check).toMatchObject({
      head_sha: RENDERED,
      conclusion: "success",
      output: { title: "Rendered 2 packages: apps/api, apps/web" },
    });
  });
});

describe("reading a package", () => {
  it("reads each distinct blob once, even when several files share it", async () => {
    const same = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\n";
    const files = { "apps/web/Kptfile": kptfile("web"), "apps/web/a.yaml": same, "apps/web/b/a.yaml": same };
    const gh = new GitHubMock()
      .tree(SHA, files)
      .compare(SHA)
      .config()
      .blobs(files)
      .createTree()
      .createCommit(RENDERED);
    gh.updateRef("drafts/apps/web/v1").createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({ branch: "drafts/apps/web/v1", after: SHA, commits: [{ added: ["apps/web/a.yaml"] }] }),
    );

    gh.assertDone();
    expect(gh.requests.filter((r) => r.path.includes("/git/blobs/"))).toHaveLength(2);
  });
});

describe("the loop guard", () => {
  it("never commits on top of its own render commit, even when a function is not idempotent", async () => {
    const files = {
      "apps/web/Kptfile": kptfile("web", ["mutators:", "  - exec: node test/handlers/fixtures/stamp.mjs"]),
      "apps/web/deploy.yaml": deployment("web"),
    };
    const gh = new GitHubMock().tree(SHA, files).compare(SHA).config().blobs(files).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({
        branch: "drafts/apps/web/v1",
        after: SHA,
        commits: [
          {
            message: `Render apps/web\n\nRendered-From: ${"1".repeat(40)}\n`,
            modified: ["apps/web/Kptfile"],
          },
        ],
      }),
    );

    gh.assertDone();
    expect(gh.bodies("POST", "/git/trees")).toEqual([]);
    const check = gh.bodies("POST", "/check-runs")[0];
    // The same verdict a pull request gets for this sha: its content is not what rendering produces.
    expect(check).toMatchObject({ head_sha: SHA, conclusion: "failure" });
    expect(summaryOf(check)).toContain("not idempotent");
    expect(summaryOf(check)).toMatch(/content differs from what rendering produces \(.*`deploy.yaml`\)/);
  });
});
