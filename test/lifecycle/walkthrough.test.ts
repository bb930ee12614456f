import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { deriveRevisions } from "../../src/lifecycle/revision-list.js";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import { pullRequestEvent, pushEventFor } from "./support/events.js";
import { FakeRepo } from "./support/fake-repo.js";

afterEach(() => nock.cleanAll());

const BROKEN = [...SET_NAMESPACE, "  - image: example.com/fns/does-not-exist:v1"];

const markerCount = (fake: FakeRepo, issue: number, marker: string) =>
  fake.comments.filter((c) => c.issue === issue && c.body.includes(marker)).length;

describe("one package through Porch's lifecycle on GitHub", () => {
  it("draft push → PR → failing render → draft PR → fix → ready → merge → pkg/v1, then pkg/v2, and a rejected PR", async () => {
    const fake = new FakeRepo({ "README.md": "# packages\n" }).install();
    const probot = await createTestProbot();

    // 1. Draft: a push to drafts/pkg/first whose pipeline cannot run (unknown function).
    const first = fake.push({
      branch: "drafts/pkg/first",
      changes: { "pkg/Kptfile": kptfile("pkg", BROKEN), "pkg/deploy.yaml": deployment("web") },
    });
    await probot.receive(pushEventFor(fake, "drafts/pkg/first", first));
    const statusCommit = fake.heads.get("drafts/pkg/first")!;
    expect(statusCommit).not.toBe(first.after); // Unrendered: the Kptfile status was committed
    expect(parse(fake.read(statusCommit, "pkg/Kptfile")!).status.conditions[0]).toMatchObject({
      type: "Rendered",
      status: "False",
    });

    // 2. Propose: a ready pull request. The render fails, so it becomes a GitHub draft with one comment.
    const pull = fake.openPull("drafts/pkg/first");
    await probot.receive(pullRequestEvent(fake, pull, "opened"));
    expect(pull.draft).toBe(true);
    expect(fake.latestCheck(statusCommit)?.conclusion).toBe("failure");
    const complaint = fake.comments.filter((c) => c.issue === 1);
    expect(complaint).toHaveLength(1);
    expect(complaint[0]?.body).toContain("cannot be proposed yet");
    expect(complaint[0]?.body).toContain("example.com/fns/does-not-exist:v1");

    // 3. Fix: drop the broken mutator. The push is rendered and committed; the PR is judged again.
    const fix = fake.push({
      branch: "drafts/pkg/first",
      changes: { "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE) },
    });
    await probot.receive(pushEventFor(fake, "drafts/pkg/first", fix));
    const rendered = fake.heads.get("drafts/pkg/first")!;
    expect(rendered).not.toBe(fix.after);
    expect(parse(fake.read(rendered, "pkg/deploy.yaml")!).metadata.namespace).toBe("prod");
    await probot.receive(pullRequestEvent(fake, pull, "synchronize"));
    expect(fake.latestCheck(rendered)?.conclusion).toBe("success");
    expect(markerCount(fake, 1, "<!-- porchlight:propose -->")).toBe(1);
    expect(fake.comments.find((c) => c.issue === 1)?.body).toContain("Renders cleanly now");

    // 4. Ready for review: still passes, stays ready.
    pull.draft = false;
    await probot.receive(pullRequestEvent(fake, pull, "ready_for_review"));
    expect(pull.draft).toBe(false);
    expect(fake.latestCheck(rendered)?.conclusion).toBe("success");

    // 5. Approve = merge: tag pkg/v1 on the merge commit, delete the draft branch, comment.
    const merge1 = fake.merge(1);
    await probot.receive(pullRequestEvent(fake, pull, "closed"));
    expect(fake.tags.get("pkg/v1")).toBe(merge1);
    expect(fake.heads.has("drafts/pkg/first")).toBe(false);
    const published = fake.comments.find(
      (c) => c.issue === 1 && c.body.includes("<!-- porchlight:publish -->"),
    );
    expect(published?.body).toContain("tag `pkg/v1`");
    expect(fake.heads.get("main")).toBe(merge1); // the app never commits to the default branch

    // 6. A second workspace draft becomes pkg/v2.
    const second = fake.push({
      branch: "drafts/pkg/second",
      changes: { "pkg/deploy.yaml": deployment("web").replace("replicas: 1", "replicas: 3") },
    });
    await probot.receive(pushEventFor(fake, "drafts/pkg/second", second));
    const secondRendered = fake.heads.get("drafts/pkg/second")!;
    const pull2 = fake.openPull("drafts/pkg/second");
    await probot.receive(pullRequestEvent(fake, pull2, "opened"));
    expect(fake.heads.get("drafts/pkg/second")).toBe(secondRendered); // already rendered: judged, not re-committed
    expect(fake.latestCheck(secondRendered)?.conclusion).toBe("success");
    const merge2 = fake.merge(2);
    await probot.receive(pullRequestEvent(fake, pull2, "closed"));
    expect(fake.tags.get("pkg/v2")).toBe(merge2);
    expect(fake.tags.get("pkg/v1")).toBe(merge1);

    // 7. Reject: close unmerged → Draft again, branch kept, one comment even when closed twice.
    const third = fake.push({ branch: "drafts/pkg/third", changes: { "pkg/notes.txt": "not KRM\n" } });
    await probot.receive(pushEventFor(fake, "drafts/pkg/third", third));
    const pull3 = fake.openPull("drafts/pkg/third");
    await probot.receive(pullRequestEvent(fake, pull3, "opened"));
    fake.close(3);
    await probot.receive(pullRequestEvent(fake, pull3, "closed"));
    await probot.receive(pullRequestEvent(fake, pull3, "closed"));
    expect(fake.heads.has("drafts/pkg/third")).toBe(true);
    expect(markerCount(fake, 3, "<!-- porchlight:reject -->")).toBe(1);
    expect(fake.comments.find((c) => c.issue === 3 && c.body.includes("reject"))?.body).toContain(
      "**Draft** revision again",
    );
    expect([...fake.tags.keys()].sort()).toEqual(["pkg/v1", "pkg/v2"]);

    // What `porchlight rpkg get` derives from this repository now.
    const rows = deriveRevisions({
      repository: fake.repo,
      defaultBranch: "main",
      branches: [...fake.heads].map(([name, sha]) => ({ name, sha })),
      tags: [...fake.tags].map(([name, sha]) => ({ name, sha })),
      pullRequests: [...fake.pulls.values()].map((p) => ({
        number: p.number,
        headRef: p.head,
        headSha: fake.heads.get(p.head) ?? "",
        baseRef: p.base,
        state: p.state,
        draft: p.draft,
        merged: p.merged,
      })),
      mainPackages: [{ path: "pkg", sha: merge2 }],
      draftPrefix: "drafts/",
      directories: ["/"],
    });
    expect(rows.map((r) => `${r.workspace} ${r.revision} ${r.latest} ${r.lifecycle}`)).toEqual([
      "main -1 false Published",
      "v1 1 false Published",
      "v2 2 true Published",
      "third 0 false Draft",
    ]);
    fake.assertClean();
  });
});
