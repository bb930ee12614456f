import nock from "nock";
import { afterEach, describe, expect, it } from "vitest";
import { createTestProbot, deployment, kptfile, SET_NAMESPACE } from "../handlers/harness.js";
import { pullRequestEvent, pushEventFor } from "./support/events.js";
import { FakeRepo } from "./support/fake-repo.js";

afterEach(() => nock.cleanAll());

describe("a pull request opened while the push render of its head runs", () => {
  it("never calls the user's unrendered commit 'edited by hand'; the render commit gets the verdict", async () => {
    const fake = new FakeRepo({ "README.md": "# packages\n" }).install();
    const probot = await createTestProbot();
    const branch = "drafts/pkg/ws";
    const pushed = fake.push({
      branch,
      changes: { "pkg/Kptfile": kptfile("pkg", SET_NAMESPACE), "pkg/deploy.yaml": deployment("web") },
    });
    const pull = fake.openPull(branch);
    // GitHub delivers both at once: the push webhook and `opened` with the user's (unrendered) head.
    const push = pushEventFor(fake, branch, pushed);
    const opened = pullRequestEvent(fake, pull, "opened");
    await Promise.all([probot.receive(push), probot.receive(opened)]);

    const head = fake.heads.get(branch) ?? "";
    expect(head).not.toBe(pushed.after); // the app committed its render
    for (const check of fake.checksOn(pushed.after)) {
      expect(check.conclusion).not.toBe("failure");
      expect(check.output?.summary ?? "").not.toContain("by hand");
    }
    expect(fake.checksOn(head).map((c) => c.conclusion)).toEqual(["success"]);
    expect(pull.draft).toBe(false);
    fake.assertClean();
  });
});
