import { describe, expect, it } from "vitest";
import {
  deriveRevisions,
  directoryOf,
  type PullRequestInfo,
  type RevisionInputs,
  topLevelPackages,
} from "../../src/lifecycle/revision-list.js";

const sha = (n: number) => n.toString(16).padStart(40, "0");

function inputs(overrides: Partial<RevisionInputs>): RevisionInputs {
  return {
    repository: "pkgs",
    defaultBranch: "main",
    branches: [],
    pullRequests: [],
    tags: [],
    mainPackages: [],
    draftPrefix: "drafts/",
    directories: ["/"],
    ...overrides,
  };
}

function pr(fields: Partial<PullRequestInfo> & { number: number; headRef: string }): PullRequestInfo {
  return { headSha: sha(99), baseRef: "main", state: "open", draft: false, merged: false, ...fields };
}

const brief = (rows: ReturnType<typeof deriveRevisions>) =>
  rows.map((r) => `${r.name} ${r.packageName} ${r.workspace} ${r.revision} ${r.latest} ${r.lifecycle}`);

describe("deriveRevisions", () => {
  it("lists tags as Published with the highest one latest, and the default branch as placeholder", () => {
    const rows = deriveRevisions(
      inputs({
        tags: [
          { name: "app/v1", sha: sha(1) },
          { name: "app/v2", sha: sha(2) },
          { name: "app/v2.0.0", sha: sha(3) },
          { name: "v9", sha: sha(4) },
        ],
        mainPackages: [{ path: "app", sha: sha(5) }],
      }),
    );
    expect(brief(rows)).toEqual([
      "pkgs.app.main app main -1 false Published",
      "pkgs.app.v1 app v1 1 false Published",
      "pkgs.app.v2 app v2 2 true Published",
    ]);
    expect(rows[2]).toMatchObject({ ref: "refs/tags/app/v2", sha: sha(2) });
  });

  it("keeps NAMEs unique: a Draft with workspace v2 beside Published revision 2 is named .draft", () => {
    const rows = deriveRevisions(
      inputs({
        tags: [{ name: "app/v2", sha: sha(2) }],
        branches: [
          { name: "drafts/app/v2", sha: sha(3) },
          { name: "drafts/app/main", sha: sha(4) },
        ],
        mainPackages: [{ path: "app", sha: sha(5) }],
      }),
    );
    expect(brief(rows)).toEqual([
      "pkgs.app.main app main -1 false Published",
      "pkgs.app.v2 app v2 2 true Published",
      "pkgs.app.main.draft app main 0 false Draft",
      "pkgs.app.v2.draft app v2 0 false Draft",
    ]);
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it("derives Draft and Proposed from pull requests", () => {
    const rows = deriveRevisions(
      inputs({
        branches: [
          { name: "drafts/app/no-pr", sha: sha(1) },
          { name: "drafts/app/ready", sha: sha(2) },
          { name: "drafts/app/wip", sha: sha(3) },
          { name: "drafts/app/rejected", sha: sha(4) },
          { name: "feature/x", sha: sha(5) },
        ],
        pullRequests: [
          pr({ number: 1, headRef: "drafts/app/ready" }),
          pr({ number: 2, headRef: "drafts/app/wip", draft: true }),
          pr({ number: 3, headRef: "drafts/app/rejected", state: "closed" }),
        ],
      }),
    );
    expect(brief(rows)).toEqual([
      "pkgs.app.no-pr app no-pr 0 false Draft",
      "pkgs.app.ready app ready 0 false Proposed",
      "pkgs.app.rejected app rejected 0 false Draft",
      "pkgs.app.wip app wip 0 false Draft",
    ]);
    expect(rows.find((r) => r.workspace === "ready")?.pullRequest).toBe(1);
  });

  it("drops a kept draft branch whose last pull request was merged at its head", () => {
    const rows = deriveRevisions(
      inputs({
        branches: [
          { name: "drafts/app/v1", sha: sha(7) },
          { name: "drafts/app/v2", sha: sha(8) },
        ],
        pullRequests: [
          pr({ number: 1, headRef: "drafts/app/v1", headSha: sha(7), state: "closed", merged: true }),
          pr({ number: 2, headRef: "drafts/app/v2", headSha: sha(6), state: "closed", merged: true }),
        ],
        tags: [{ name: "app/v1", sha: sha(9) }],
      }),
    );
    // v2 got new commits after its merge: it is a Draft again.
    expect(brief(rows)).toEqual(["pkgs.app.v1 app v1 1 true Published", "pkgs.app.v2 app v2 0 false Draft"]);
  });

  it("handles package paths with slashes and repository directories", () => {
    const rows = deriveRevisions(
      inputs({
        directories: ["catalog", "/catalog/team"],
        branches: [
          { name: "drafts/catalog/team/app/ws", sha: sha(1) },
          { name: "drafts/other/app/ws", sha: sha(2) },
        ],
        tags: [
          { name: "catalog/base/v3", sha: sha(3) },
          { name: "other/base/v1", sha: sha(4) },
        ],
      }),
    );
    expect(rows.map((r) => [r.name, r.packageName, r.directory])).toEqual([
      ["pkgs.catalog.team.app.ws", "app", "catalog/team"],
      ["pkgs.catalog.base.v3", "base", "catalog"],
    ]);
  });

  it("uses a configured draft prefix", () => {
    const rows = deriveRevisions(
      inputs({
        draftPrefix: "pl/",
        branches: [
          { name: "pl/app/ws", sha: sha(1) },
          { name: "drafts/app/x", sha: sha(2) },
        ],
      }),
    );
    expect(brief(rows)).toEqual(["pkgs.app.ws app ws 0 false Draft"]);
  });
});

describe("helpers", () => {
  it("finds top-level package directories, not subpackages or the root", () => {
    expect(
      topLevelPackages([
        "Kptfile",
        "a/Kptfile",
        "a/sub/Kptfile",
        "b/c/Kptfile",
        "b/c/x.yaml",
        "d/notKptfile",
        "ab/Kptfile",
      ]),
    ).toEqual(["a", "ab", "b/c"]);
  });

  it("picks the longest matching directory", () => {
    expect(directoryOf("x/y/z", ["/", "x", "x/y"])).toBe("x/y");
    expect(directoryOf("q", ["x"])).toBeUndefined();
  });
});
