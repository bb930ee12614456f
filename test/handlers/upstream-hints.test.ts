import { describe, expect, it } from "vitest";
import { upstreamPullJobs, upstreamPushJobs } from "../../src/handlers/upstream-hints.js";

const from = { repo: { owner: "acme", repo: "r" }, installationId: 7 };
const push = (ref: string, changedPaths: string[] = [], deleted = false) =>
  upstreamPushJobs({ from, ref, deleted, defaultBranch: "main", changedPaths });

describe("upstream hints", () => {
  it("a revision tag is a publish, its deletion a deletion; other tags and branch deletions are nothing", () => {
    expect(push("refs/tags/team/base/v3")).toEqual([
      { kind: "upstream", ...from, task: { type: "published", package: "team/base" } },
    ]);
    expect(push("refs/tags/v3")).toEqual([]);
    expect(push("refs/tags/base/v3", [], true)).toEqual([
      { kind: "upstream", ...from, task: { type: "deleted", package: "base" } },
    ]);
    expect(push("refs/heads/main", ["a/Kptfile"], true)).toEqual([]);
  });

  it("a default-branch push removing a Kptfile asks its package's downstreams to look", () => {
    const jobs = upstreamPushJobs({
      from,
      ref: "refs/heads/main",
      deleted: false,
      defaultBranch: "main",
      changedPaths: ["Kptfile", "apps/x/Kptfile", "apps/x/a.yaml", "apps/y/Kptfile"],
      removedPaths: ["Kptfile", "apps/x/Kptfile", "apps/x/a.yaml"],
    });
    expect(jobs).toEqual([
      { kind: "upstream", ...from, task: { type: "index" } },
      { kind: "upstream", ...from, task: { type: "deleted", package: "" } },
      { kind: "upstream", ...from, task: { type: "deleted", package: "apps/x" } },
    ]);
  });

  it("a default-branch push changing YAML or a Kptfile refreshes the index; app drafts get their report again", () => {
    expect(push("refs/heads/main", ["README.md"])).toEqual([]);
    expect(push("refs/heads/main", ["apps/x/Kptfile"])).toEqual([
      { kind: "upstream", ...from, task: { type: "index" } },
    ]);
    expect(push("refs/heads/drafts/east/app/upstream-upgrade")).toEqual([
      { kind: "upstream", ...from, task: { type: "draft", branch: "drafts/east/app/upstream-upgrade" } },
    ]);
    expect(push("refs/heads/drafts/east/app/v2")).toEqual([]);
  });

  it("an opened or updated pull request asks for its blast radius", () => {
    expect(upstreamPullJobs({ from, action: "synchronize", number: 4 })).toEqual([
      { kind: "upstream", ...from, task: { type: "blast-radius", number: 4 } },
    ]);
    expect(upstreamPullJobs({ from, action: "closed", number: 4 })).toEqual([]);
  });
});
