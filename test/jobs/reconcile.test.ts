import { describe, expect, it } from "vitest";
import { reconcile, reconcileRepository } from "../../src/jobs/reconcile.js";
import { formatExternalId } from "../../src/lifecycle/verdict.js";
import type { Job } from "../../src/lifecycle/work-queue.js";
import { PUBLISH_COMMENT_MARKER } from "../../src/report/comments.js";
import { EmbeddedQueue } from "../../src/server/embedded-queue.js";
import { deployment, kptfile } from "../handlers/harness.js";
import { FakeRepo } from "../lifecycle/support/fake-repo.js";
import { memoryPort } from "../lifecycle/support/memory-port.js";

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const lease = { holder: "me", leaseMs: 60_000 };

function setup() {
  const fake = new FakeRepo({ "README.md": "# packages\n" });
  const { port, calls } = memoryPort(fake);
  const queue = new EmbeddedQueue();
  const enqueued: Job[] = [];
  queue.enqueue = async (job) => void enqueued.push(job);
  const deps = { portFor: async () => port, queue, log: quiet, lease };
  return { fake, calls, queue, enqueued, deps, repo: { owner: fake.owner, repo: fake.repo } };
}

const run = (fake: FakeRepo, sha: string, status: string, externalId?: string) =>
  fake.checkRuns.push({
    id: fake.nextId(),
    name: "porchlight/render",
    head_sha: sha,
    status,
    ...(status === "completed" ? { conclusion: "success" } : {}),
    ...(externalId ? { external_id: externalId } : {}),
    started_at: new Date().toISOString(),
  });

describe("reconciliation", () => {
  it("enqueues the draft heads without a concluded run, and leaves held runs to their process", async () => {
    const { fake, deps, enqueued, repo, calls } = setup();
    const changes = { "a/Kptfile": kptfile("a"), "a/deploy.yaml": deployment("a") };
    const judged = fake.push({ branch: "drafts/a/judged", changes });
    run(fake, judged.after, "completed");
    fake.push({ branch: "drafts/a/missed", changes });
    const held = fake.push({ branch: "drafts/a/held", changes });
    run(
      fake,
      held.after,
      "in_progress",
      formatExternalId({ renderedFrom: held.after, holder: "other", until: Date.now() + 60_000 }),
    );
    const stale = fake.push({ branch: "drafts/a/stale", changes });
    run(
      fake,
      stale.after,
      "in_progress",
      formatExternalId({ renderedFrom: stale.after, holder: "dead", until: Date.now() - 1 }),
    );
    fake.push({ branch: "feature/x", changes });

    const report = await reconcileRepository({ installationId: 7, repo, deps });
    const drafts = (jobs: Job[]) => jobs.filter((j) => j.kind === "draft");
    expect(drafts(report.enqueued)).toEqual([
      { kind: "draft", installationId: 7, repo, branch: "drafts/a/missed" },
      { kind: "draft", installationId: 7, repo, branch: "drafts/a/stale" },
    ]);
    expect(drafts(enqueued)).toEqual(drafts(report.enqueued));

    // A second pass asks GitHub nothing about heads it already knows are judged.
    calls.length = 0;
    const again = await reconcileRepository({ installationId: 7, repo, deps });
    expect(again.enqueued.map((j) => (j as { branch: string }).branch)).toEqual([
      "drafts/a/missed",
      "drafts/a/stale",
    ]);
  });

  it("enqueues a publish for a merged proposal whose merge commit has no tag and no publish comment", async () => {
    const { fake, deps, repo } = setup();
    const changes = { "a/Kptfile": kptfile("a"), "a/deploy.yaml": deployment("a") };
    fake.push({ branch: "drafts/a/v1", changes });
    const missed = fake.openPull("drafts/a/v1");
    fake.merge(missed.number);
    fake.push({ branch: "drafts/b/v1", changes: { "b/Kptfile": kptfile("b") } });
    const published = fake.openPull("drafts/b/v1");
    const tagged = fake.merge(published.number);
    fake.tags.set("b/v1", tagged);
    fake.push({ branch: "drafts/c/v1", changes: { "c/Kptfile": kptfile("c") } });
    const refused = fake.openPull("drafts/c/v1");
    fake.merge(refused.number);
    fake.comments.push({
      id: 1,
      issue: refused.number,
      body: `${PUBLISH_COMMENT_MARKER}\n### ⛔ Not published`,
      user: "porchlight[bot]",
    });

    const report = await reconcileRepository({ installationId: 7, repo, deps });
    expect(report.enqueued.filter((j) => j.kind === "publish")).toEqual([
      { kind: "publish", installationId: 7, repo, number: missed.number, sameRepository: true },
    ]);
  });

  it("turns an installation into one reconcile job per repository", async () => {
    const { deps, enqueued, repo } = setup();
    await reconcile({ kind: "reconcile", installationId: 7 }, deps);
    expect(enqueued).toEqual([{ kind: "reconcile", installationId: 7, repo }]);
  });
});
