/**
 * One verdict per sha: a push and the pull request events of the same sha produce ONE
 * `porchlight/render` run; a re-run adds a run (GitHub's convention) that applies the same merge gate,
 * so every run on a sha says the same thing.
 */
import nock from "nock";
import type { Probot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import { checkRunEvent, deliverDraftPush, pullRequestEvent } from "./support/events.js";
import { FakeRepo } from "./support/fake-repo.js";

afterEach(() => nock.cleanAll());

const GATED = kptfile("pkg", SET_NAMESPACE).replace(
  "pipeline:",
  "info:\n  readinessGates:\n    - conditionType: security-approved\npipeline:",
);

async function setup(config?: string) {
  const fake = new FakeRepo({ "README.md": "# packages\n" }).install();
  fake.config = config;
  return { fake, probot: await createTestProbot() };
}

const draftPush = (probot: Probot, fake: FakeRepo, branch: string, changes: Record<string, string | null>) =>
  deliverDraftPush({ probot, fake, branch, changes });

/** Every `porchlight/render` check on `sha`: all completed, and their conclusions. */
function conclusions(fake: FakeRepo, sha: string): string[] {
  const checks = fake.checksOn(sha);
  expect(checks.every((c) => c.status === "completed")).toBe(true);
  return checks.map((c) => c.conclusion ?? "");
}

describe("one verdict per sha", () => {
  it("fails the draft push's check too while a readiness gate is unmet, agreeing with the pull request", async () => {
    const { fake, probot } = await setup();
    const head = await draftPush(probot, fake, "drafts/pkg/ws", {
      "pkg/Kptfile": GATED,
      "pkg/deploy.yaml": deployment("web"),
    });
    expect(fake.commits.get(head)?.message).toMatch(/^Render pkg\n/); // rendered and committed
    expect(fake.latestCheck(head)?.output?.title).toBe("Not mergeable: readiness gates not met");
    expect(conclusions(fake, head)).toEqual(["failure"]);

    const pull = fake.openPull("drafts/pkg/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(conclusions(fake, head)).toEqual(["failure"]); // opening the pull request adds no run
    await probot.receive(checkRunEvent(fake, { action: "rerequested", sha: head, branch: "drafts/pkg/ws" }));
    expect(conclusions(fake, head)).toEqual(["failure", "failure"]);
    fake.assertClean();
  });

  it("judges a push on every package the draft changes, as its pull request does", async () => {
    const { fake, probot } = await setup();
    // First push: two packages, one of them gated (fails the gate).
    await draftPush(probot, fake, "drafts/apps/web/ws", {
      "apps/web/Kptfile": kptfile("web", SET_NAMESPACE),
      "apps/web/deploy.yaml": deployment("web"),
      "apps/db/Kptfile": GATED.replace("name: pkg", "name: db"),
      "apps/db/deploy.yaml": deployment("db"),
    });
    // Second push touches only apps/web: its check still judges apps/db, which the draft changes.
    const head = await draftPush(probot, fake, "drafts/apps/web/ws", {
      "apps/web/deploy.yaml": deployment("web").replace("replicas: 1", "replicas: 3"),
    });
    expect(fake.latestCheck(head)?.output?.summary).toContain(
      "`apps/db`: readiness gate `security-approved`",
    );
    const pull = fake.openPull("drafts/apps/web/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(conclusions(fake, head)).toEqual(["failure"]);
    fake.assertClean();
  });

  it("renders an unrendered head when the pull request opens: its checks agree on the render commit", async () => {
    const { fake, probot } = await setup();
    // Pushed before the app was installed (no webhook): not rendered yet.
    const pushed = fake.push({
      branch: "drafts/pkg/ws",
      changes: { "pkg/Kptfile": GATED, "pkg/deploy.yaml": deployment("web") },
    });
    const pull = fake.openPull("drafts/pkg/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    const rendered = fake.heads.get("drafts/pkg/ws")!;
    expect(fake.commits.get(rendered)?.parents).toEqual([pushed.after]);
    expect(fake.checksOn(pushed.after)).toEqual([]); // rendered once, reported on the commit holding it
    await probot.receive(pullRequestEvent(fake, pull, "synchronize"));
    expect(conclusions(fake, rendered)).toEqual(["failure"]);
    fake.assertClean();
  });

  it("still reports a re-run of an older, unrendered commit of the draft (its render cannot land)", async () => {
    const { fake, probot } = await setup();
    const pushed = fake.push({
      branch: "drafts/pkg/ws",
      changes: { "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE), "pkg/deploy.yaml": deployment("web") },
    });
    const head = await draftPush(probot, fake, "drafts/pkg/ws", { "README.md": "# packages, v2\n" });
    await probot.receive(
      checkRunEvent(fake, { action: "rerequested", sha: pushed.after, branch: "drafts/pkg/ws" }),
    );
    expect(fake.heads.get("drafts/pkg/ws")).toBe(head); // the newer head stays
    expect(conclusions(fake, pushed.after)).toEqual(["failure"]);
    expect(fake.latestCheck(pushed.after)?.output?.summary).toContain(
      "content differs from what rendering produces",
    );
    fake.assertClean();
  });
});
