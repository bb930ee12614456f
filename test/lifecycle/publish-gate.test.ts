/**
 * Publish on an unprotected default branch: a pull request can be merged while `porchlight/render`
 * fails, but a package that does not pass the merge gate at the merge commit is not tagged (Porch
 * refuses to approve a revision that does not render); the pull request comment says why and how to fix.
 */
import nock from "nock";
import type { Probot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { PUBLISH_COMMENT_MARKER } from "../../src/lifecycle/proposals/publish.js";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import { deliverDraftPush, pullRequestEvent } from "./support/events.js";
import { FakeRepo } from "./support/fake-repo.js";

afterEach(() => nock.cleanAll());

const BROKEN = [...SET_NAMESPACE, "  - image: example.com/fns/does-not-exist:v1"];

async function setup() {
  const fake = new FakeRepo({ "README.md": "# packages\n" }).install();
  return { fake, probot: await createTestProbot() };
}

/** Opens a pull request from `branch`, merges it regardless of its check, delivers `closed`. */
async function mergeAnyway(probot: Probot, fake: FakeRepo, branch: string) {
  const pull = fake.openPull(branch);
  await probot.receive(pullRequestEvent(fake, pull, "opened"));
  const merge = fake.merge(pull.number);
  await probot.receive(pullRequestEvent(fake, pull, "closed"));
  const comment = fake.comments.find(
    (c) => c.issue === pull.number && c.body.includes(PUBLISH_COMMENT_MARKER),
  );
  return { pull, merge, comment: comment?.body ?? "" };
}

describe("publish refuses what does not pass the merge gate at the merge commit", () => {
  it("does not tag a package that is Rendered=False, keeps the draft and says how to fix it", async () => {
    const { fake, probot } = await setup();
    await deliverDraftPush({
      probot,
      fake,
      branch: "drafts/pkg/ws",
      changes: { "pkg/Kptfile": kptfile("pkg", BROKEN), "pkg/deploy.yaml": deployment("web") },
    });
    const { merge, comment } = await mergeAnyway(probot, fake, "drafts/pkg/ws");
    expect(fake.latestCheck(fake.commits.get(merge)!.parents[1]!)?.conclusion).toBe("failure");
    expect([...fake.tags]).toEqual([]);
    expect(fake.heads.has("drafts/pkg/ws")).toBe(true); // the fix goes there
    expect(comment).toContain("### ⛔ Not published");
    expect(comment).toContain(`\`pkg\`: ⛔ **not published** — at the merge commit \`${merge.slice(0, 7)}\``);
    expect(comment).toContain("rendering fails (Rendered=False)");
    expect(comment).toContain("example.com/fns/does-not-exist:v1");
    expect(comment).toContain("Porch refuses to approve a package revision that does not render");
    expect(comment).toContain("porchlight protect");
    fake.assertClean();
  });

  it("does not tag a package whose readiness gate is unmet, and publishes the other package", async () => {
    const { fake, probot } = await setup();
    const gated = kptfile("db", SET_NAMESPACE).replace(
      "pipeline:",
      "info:\n  readinessGates:\n    - conditionType: security-approved\npipeline:",
    );
    await deliverDraftPush({
      probot,
      fake,
      branch: "drafts/apps/web/ws",
      changes: {
        "apps/web/Kptfile": kptfile("web", SET_NAMESPACE),
        "apps/web/deploy.yaml": deployment("web"),
        "apps/db/Kptfile": gated,
        "apps/db/deploy.yaml": deployment("db"),
      },
    });
    const { merge, comment } = await mergeAnyway(probot, fake, "drafts/apps/web/ws");
    expect([...fake.tags]).toEqual([["apps/web/v1", merge]]);
    expect(fake.heads.has("drafts/apps/web/ws")).toBe(true);
    expect(comment).toContain("### 📦 Published");
    expect(comment).toContain("tag `apps/web/v1`");
    expect(comment).toContain("`apps/db`: ⛔ **not published**");
    expect(comment).toContain("readiness gate `security-approved` is not met");
    fake.assertClean();
  });
});
