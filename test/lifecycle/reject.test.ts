import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG } from "../../src/config/schema.js";
import { rejectRevision } from "../../src/lifecycle/proposals/reject.js";
import { REJECT_COMMENT_MARKER } from "../../src/report/comments.js";
import { UPSTREAM_DELETED_MARKER } from "../../src/report/upstream-deleted.js";
import { FakeRepo } from "./support/fake-repo.js";
import { memoryPort } from "./support/memory-port.js";

const repo = { owner: "org", repo: "deploy" };
const input = (number: number) => ({
  repo,
  defaultBranch: "main",
  sameRepository: true,
  pull: {
    number,
    nodeId: "PR_1",
    state: "closed" as const,
    merged: false,
    mergeCommitSha: undefined,
    headRef: "drafts/east/app/upstream-upgrade",
    headSha: "0".repeat(40),
    baseRef: "main",
    draft: false,
  },
});

describe("reject", () => {
  it("comments once on a proposal closed unmerged", async () => {
    const fake = new FakeRepo({ "east/app/Kptfile": "kind: Kptfile\n" });
    const port = memoryPort(fake).port;
    const deps = { config: DEFAULT_REPO_CONFIG, port };
    expect((await rejectRevision(input(7), deps)).kind).toBe("rejected");
    await rejectRevision(input(7), deps);
    expect(fake.comments.filter((c) => c.body.includes(REJECT_COMMENT_MARKER))).toHaveLength(1);
  });

  it("says nothing on an upgrade the app closed because its upstream package was deleted", async () => {
    const fake = new FakeRepo({ "east/app/Kptfile": "kind: Kptfile\n" });
    fake.comments.push({
      id: 1,
      issue: 7,
      body: `${UPSTREAM_DELETED_MARKER}\nThe upstream…`,
      user: "porchlight[bot]",
    });
    const outcome = await rejectRevision(input(7), {
      config: DEFAULT_REPO_CONFIG,
      port: memoryPort(fake).port,
    });
    expect(outcome).toEqual({
      kind: "ignored",
      reason: "closed by porchlight: its upstream package was deleted",
    });
    expect(fake.comments.filter((c) => c.body.includes(REJECT_COMMENT_MARKER))).toEqual([]);
  });
});
