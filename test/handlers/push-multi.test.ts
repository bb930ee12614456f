import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pushEvent } from "../helpers/events.js";
import { commitContents, GitHubMock, useNock } from "../helpers/github-mock.js";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE, summaryOf } from "./harness.js";

// exec functions start in an empty directory of their own: their scripts are named by absolute path.
const FIXTURES = path.resolve("test/handlers/fixtures");

useNock();

const SHA = "e".repeat(40);
const RENDERED = "f".repeat(40);
const BRANCH = "drafts/apps/web/v1";

/** The reads of the draft job for a head SHA holding `files`. */
const reads = (files: Record<string, string>, message?: string, changed: string[] = []) =>
  new GitHubMock()
    .branch(BRANCH, SHA, message)
    .config()
    .checkRuns(SHA)
    .tree(SHA, files)
    .compare(SHA, changed)
    .blobs(files);

describe("a push touching two packages", () => {
  it("renders both into ONE commit whose message names both, and one check run", async () => {
    const files = {
      "apps/web/Kptfile": kptfile("web", SET_NAMESPACE),
      "apps/web/deploy.yaml": deployment("web"),
      "apps/api/Kptfile": kptfile("api", SET_NAMESPACE),
      "apps/api/deploy.yaml": deployment("api"),
    };
    // The draft changes both packages against the default branch (what its pull request shows).
    const gh = reads(files, undefined, ["apps/api/deploy.yaml", "apps/web/deploy.yaml"])
      .commit(RENDERED)
      .createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({
        branch: "drafts/apps/web/v1",
        after: SHA,
        commits: [{ modified: ["apps/web/deploy.yaml"] }, { modified: ["apps/api/deploy.yaml"] }],
      }),
    );

    gh.assertDone();
    expect(gh.commitInputs()[0]?.message.headline).toBe("Render apps/api, apps/web");
    const written = commitContents(gh.commitInputs()[0]);
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
  it("reads all its blobs in one batched request, each distinct blob once", async () => {
    const same = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\n";
    const files = { "apps/web/Kptfile": kptfile("web"), "apps/web/a.yaml": same, "apps/web/b/a.yaml": same };
    const gh = reads(files).commit(RENDERED).createCheckRun();
    const probot = await createTestProbot();

    await probot.receive(
      pushEvent({ branch: "drafts/apps/web/v1", after: SHA, commits: [{ added: ["apps/web/a.yaml"] }] }),
    );

    gh.assertDone();
    const batches = gh.requests.filter((r) =>
      String((r.body as { query?: string })?.query).includes("porchlightBlobs("),
    );
    expect(batches).toHaveLength(1);
    expect(
      String((batches[0]?.body as { query?: string } | undefined)?.query).match(/object\(oid:/g),
    ).toHaveLength(2);
    expect(gh.requests.filter((r) => r.path.includes("/git/blobs/"))).toEqual([]);
  });
});

describe("the loop guard", () => {
  it("never commits on top of its own render commit, even when a function is not idempotent", async () => {
    const files = {
      "apps/web/Kptfile": kptfile("web", ["mutators:", `  - exec: node ${FIXTURES}/stamp.mjs`]),
      "apps/web/deploy.yaml": deployment("web"),
    };
    const gh = reads(files, `Render apps/web\n\nRendered-From: ${"1".repeat(40)}`).createCheckRun();
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
    expect(gh.commitInputs()).toEqual([]);
    const check = gh.bodies("POST", "/check-runs")[0];
    // The same verdict a pull request gets for this sha: its content is not what rendering produces.
    expect(check).toMatchObject({ head_sha: SHA, conclusion: "failure" });
    expect(summaryOf(check)).toContain("not idempotent");
    expect(summaryOf(check)).toMatch(/content differs from what rendering produces \(.*`deploy.yaml`\)/);
  });
});
