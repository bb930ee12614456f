import nock from "nock";
import type { Probot } from "probot";
import { afterEach, describe, expect, it } from "vitest";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import {
  checkRunEvent,
  checkSuiteEvent,
  deliverDraftPush,
  mergeGroupEvent,
  pullRequestEvent,
  pushEventFor,
} from "./support/events.js";
import { FakeRepo } from "./support/fake-repo.js";

afterEach(() => nock.cleanAll());

async function setup(files: Record<string, string> = { "README.md": "# packages\n" }, config?: string) {
  const fake = new FakeRepo(files).install();
  fake.config = config;
  const probot = await createTestProbot();
  return { fake, probot };
}

/** A user push to a draft branch, delivered; returns the head after the app rendered it. */
const draftPush = (probot: Probot, fake: FakeRepo, branch: string, changes: Record<string, string | null>) =>
  deliverDraftPush({ probot, fake, branch, changes });

const summary = (fake: FakeRepo, sha: string) => fake.latestCheck(sha)?.output?.summary ?? "";

describe("merge gate", () => {
  it("fails while a readiness gate has no True condition, without converting a PR that renders", async () => {
    const { fake, probot } = await setup();
    const gated = kptfile("pkg", SET_NAMESPACE).replace(
      "pipeline:",
      "info:\n  readinessGates:\n    - conditionType: security-approved\npipeline:",
    );
    const head = await draftPush(probot, fake, "drafts/pkg/ws", {
      "pkg/Kptfile": gated,
      "pkg/deploy.yaml": deployment("web"),
    });
    const pull = fake.openPull("drafts/pkg/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(fake.latestCheck(head)?.conclusion).toBe("failure");
    expect(fake.latestCheck(head)?.output?.title).toBe("Not mergeable: readiness gates not met");
    expect(summary(fake, head)).toContain(
      '`pkg`: readiness gate `security-approved` is not met: no condition "security-approved" in status.conditions',
    );
    expect(pull.draft).toBe(false); // it renders: only the gate blocks the merge, no conversion
    expect(fake.comments).toEqual([]);
    fake.assertClean();
  });

  it("fails when rendered output or the Kptfile status was edited by hand (trusting only its own render)", async () => {
    const { fake, probot } = await setup();
    const head = await draftPush(probot, fake, "drafts/pkg/ws", {
      "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE),
      "pkg/deploy.yaml": deployment("web"),
    });
    // A hand edit pushed to a branch that is not a draft branch (the app does not re-render it).
    const rendered = fake.files(head);
    const edited = fake.push({
      branch: "hand-edit",
      from: head,
      changes: {
        "pkg/deploy.yaml": rendered.get("pkg/deploy.yaml")!.replace("namespace: prod", "namespace: dev"),
      },
    });
    const pull = fake.openPull("hand-edit");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(fake.latestCheck(edited.after)?.conclusion).toBe("failure");
    expect(summary(fake, edited.after)).toContain(
      "content differs from what rendering produces (`deploy.yaml`)",
    );
    expect(fake.heads.get("hand-edit")).toBe(edited.after); // never committed to a non-draft branch

    // A Kptfile claiming Rendered=True for a pipeline that cannot run: our render decides.
    const lying = fake.push({
      branch: "lying",
      from: head,
      changes: {
        "pkg/Kptfile": rendered
          .get("pkg/Kptfile")!
          .replace(
            "      namespace: prod\n",
            "      namespace: prod\n  - image: example.com/fns/missing:v1\n",
          ),
      },
    });
    const pull2 = fake.openPull("lying");
    await probot.receive(pullRequestEvent(fake, pull2, "opened"));
    expect(fake.read(lying.after, "pkg/Kptfile")).toContain('status: "True"');
    expect(fake.latestCheck(lying.after)?.conclusion).toBe("failure");
    expect(summary(fake, lying.after)).toContain("rendering fails (Rendered=False)");
    fake.assertClean();
  });

  it("judges a pull request touching two packages, and publishes both", async () => {
    const { fake, probot } = await setup();
    const head = await draftPush(probot, fake, "drafts/apps/web/ws", {
      "apps/web/Kptfile": kptfile("web", SET_NAMESPACE),
      "apps/web/deploy.yaml": deployment("web"),
      "apps/db/Kptfile": kptfile("db", SET_NAMESPACE),
      "apps/db/deploy.yaml": deployment("db"),
    });
    const pull = fake.openPull("drafts/apps/web/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    const check = fake.latestCheck(head);
    expect(check?.conclusion).toBe("success");
    expect(check?.output?.summary).toContain("`apps/web`");
    expect(check?.output?.summary).toContain("`apps/db`");
    const merge = fake.merge(pull.number);
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect(fake.tags.get("apps/web/v1")).toBe(merge);
    expect(fake.tags.get("apps/db/v1")).toBe(merge);
    fake.assertClean();
  });

  it("never publishes again a revision that was deleted, when its merge is redelivered", async () => {
    const { fake, probot } = await setup();
    await draftPush(probot, fake, "drafts/apps/web/ws", {
      "apps/web/Kptfile": kptfile("web"),
      "apps/web/cm.yaml": deployment("web"),
    });
    const pull = fake.openPull("drafts/apps/web/ws");
    const merge = fake.merge(pull.number);
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect(fake.tags.get("apps/web/v1")).toBe(merge);

    // rpkg del: the commit is kept at deleted/apps/web/v1, the tag is gone.
    fake.heads.set("deleted/apps/web/v1", merge);
    fake.tags.delete("apps/web/v1");
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect([...fake.tags]).toEqual([]);
    const comment = fake.comments.find(
      (c) => c.issue === pull.number && c.body.includes("porchlight:publish"),
    );
    expect(comment?.body).toContain("was deleted");
    expect(comment?.body).toContain("deleted/apps/web/v1");
    expect(comment?.body).toContain("### ⛔ Not published");
  });

  it("handles package paths with slashes and workspaces that already are revisions, never moving a tag", async () => {
    const { fake, probot } = await setup();
    const files = { "team/apps/web/Kptfile": kptfile("web"), "team/apps/web/cm.yaml": deployment("web") };
    await draftPush(probot, fake, "drafts/team/apps/web/v3", files);
    const pull = fake.openPull("drafts/team/apps/web/v3");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    const merge = fake.merge(pull.number);
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect([...fake.tags]).toEqual([["team/apps/web/v3", merge]]);

    // Redelivered: already published at this merge commit, nothing new.
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect([...fake.tags]).toEqual([["team/apps/web/v3", merge]]);

    // Another v3 workspace: the tag exists and is not moved; the comment says so.
    await draftPush(probot, fake, "drafts/team/apps/web/v3", {
      "team/apps/web/cm.yaml": deployment("web").replace("replicas: 1", "replicas: 2"),
    });
    const pull2 = fake.openPull("drafts/team/apps/web/v3");
    const merge2 = fake.merge(pull2.number);
    await probot.receive(pullRequestEvent(fake, pull2, "closed"));
    expect(fake.tags.get("team/apps/web/v3")).toBe(merge);
    expect(merge2).not.toBe(merge);
    const comment = fake.comments.find(
      (c) => c.issue === pull2.number && c.body.includes("porchlight:publish"),
    );
    expect(comment?.body).toContain("tag `team/apps/web/v3` already exists");
    expect(comment?.body).toContain("**not moved**");
    // Nothing was published: not headed "Published", and the draft (where the fix goes) is kept.
    expect(comment?.body).toContain("### ⛔ Not published");
    expect(comment?.body).not.toContain("### 📦 Published");
    expect(comment?.body).toContain("was kept");
    expect(fake.heads.has("drafts/team/apps/web/v3")).toBe(true);
    fake.assertClean();
  });

  it("gives a pull request touching no package a neutral check", async () => {
    const { fake, probot } = await setup();
    const pushed = fake.push({ branch: "docs", changes: { "README.md": "# more\n" } });
    const pull = fake.openPull("docs");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(fake.latestCheck(pushed.after)).toMatchObject({ conclusion: "neutral", status: "completed" });
    fake.assertClean();
  });

  it("judges only packages inside the configured directories", async () => {
    const { fake, probot } = await setup(undefined, "directories: [catalog]\n");
    const outside = fake.push({
      branch: "drafts/other/pkg/ws",
      changes: {
        "other/pkg/Kptfile": kptfile("pkg", SET_NAMESPACE),
        "other/pkg/deploy.yaml": deployment("web"),
      },
    });
    const pull = fake.openPull("drafts/other/pkg/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(fake.latestCheck(outside.after)?.conclusion).toBe("neutral");
    expect(fake.latestCheck(outside.after)?.output?.summary).toContain("under catalog");
    fake.merge(pull.number);
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect(fake.tags.size).toBe(0); // outside the package directories: nothing published
    expect(fake.heads.has("drafts/other/pkg/ws")).toBe(true); // and nothing deleted
    fake.assertClean();
  });

  it("reports an invalid .github/porchlight.yml as one failed check naming the field", async () => {
    const { fake, probot } = await setup(undefined, "pushOnFailure: Sometimes\n");
    const pushed = fake.push({ branch: "drafts/pkg/ws", changes: { "pkg/Kptfile": kptfile("pkg") } });
    const pull = fake.openPull("drafts/pkg/ws");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    const checks = fake.checksOn(pushed.after);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({
      conclusion: "failure",
      output: { title: "Invalid .github/porchlight.yml" },
    });
    expect(checks[0]?.output?.summary).toContain('field "pushOnFailure"');
    fake.assertClean();
  });

  it("keeps the draft branch on publish when deleteBranchOnPublish is false", async () => {
    const { fake, probot } = await setup(undefined, "deleteBranchOnPublish: false\n");
    await draftPush(probot, fake, "drafts/pkg/ws", { "pkg/Kptfile": kptfile("pkg") });
    const pull = fake.openPull("drafts/pkg/ws");
    fake.merge(pull.number);
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect(fake.tags.has("pkg/v1")).toBe(true);
    expect(fake.heads.has("drafts/pkg/ws")).toBe(true);
    fake.assertClean();
  });
});

describe("merge queue and re-runs", () => {
  it("renders a merge group, commits nothing and reports on merge_group.head_sha", async () => {
    const { fake, probot } = await setup();
    const head = await draftPush(probot, fake, "drafts/pkg/ws", {
      "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE),
      "pkg/deploy.yaml": deployment("web"),
    });
    const base = fake.heads.get("main")!;
    const group = fake.push({ branch: "gh-readonly-queue/main/pr-1", from: head, changes: {} });
    const commitsBefore = fake.commits.size;
    const requestsBefore = fake.requests.length;
    await probot.receive(mergeGroupEvent(fake, { headSha: group.after, baseSha: base }));
    expect(fake.latestCheck(group.after)?.conclusion).toBe("success");
    expect(summary(fake, group.after)).toContain("Merge queue: rendered in memory, nothing committed.");
    expect(fake.commits.size).toBe(commitsBefore);
    const query = (r: { body: unknown }) => String((r.body as { query?: string } | undefined)?.query ?? "");
    const writes = fake.requests
      .slice(requestsBefore)
      .filter((r) => r.method !== "GET" && !(r.path === "/graphql" && query(r).startsWith("query")));
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /repos/acme/pkgs/check-runs"]);
    fake.assertClean();
  });

  it("re-renders on check_run rerequested, the Re-render button and check_suite rerequested", async () => {
    const { fake, probot } = await setup();
    const head = await draftPush(probot, fake, "drafts/pkg/ws", {
      "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE),
      "pkg/deploy.yaml": deployment("web"),
    });
    expect(fake.checksOn(head)).toHaveLength(1);
    // The push handler's own check carries the Re-render button too (same port, same check on every path).
    expect(fake.checksOn(head)[0]?.actions?.[0]?.identifier).toBe("rerender");

    const pull = fake.openPull("drafts/pkg/ws");
    await probot.receive(
      checkRunEvent(fake, { action: "rerequested", sha: head, branch: "drafts/pkg/ws", pulls: [pull] }),
    );
    expect(fake.checksOn(head)).toHaveLength(2);
    expect(fake.latestCheck(head)?.output?.summary).toContain("Re-run for pull request #1.");
    expect(fake.latestCheck(head)?.actions).toEqual([
      { label: "Re-render", description: "Render this commit again", identifier: "rerender" },
    ]);

    await probot.receive(
      checkRunEvent(fake, { action: "requested_action", sha: head, branch: "drafts/pkg/ws" }),
    );
    expect(fake.checksOn(head)).toHaveLength(3);
    await probot.receive(
      checkRunEvent(fake, {
        action: "requested_action",
        sha: head,
        branch: "drafts/pkg/ws",
        identifier: "other",
      }),
    );
    expect(fake.checksOn(head)).toHaveLength(3);

    await probot.receive(checkSuiteEvent(fake, { sha: head, branch: "drafts/pkg/ws" }));
    expect(fake.checksOn(head)).toHaveLength(4);
    expect(fake.heads.get("drafts/pkg/ws")).toBe(head); // already rendered: re-runs commit nothing
    expect(fake.checksOn(head).every((c) => c.conclusion === "success")).toBe(true);
    fake.assertClean();
  });

  it("checks a direct push to the default branch without committing to it", async () => {
    const { fake, probot } = await setup();
    const pushed = fake.push({
      branch: "main",
      changes: { "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE), "pkg/deploy.yaml": deployment("web") },
    });
    await probot.receive(pushEventFor(fake, "main", pushed));
    expect(fake.heads.get("main")).toBe(pushed.after);
    expect(fake.latestCheck(pushed.after)?.conclusion).toBe("failure"); // not rendered
    expect(summary(fake, pushed.after)).toContain("porchlight never commits to the default branch");
    fake.assertClean();
  });
});
