import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatDraftBranch,
  formatRevision,
  formatRevisionTag,
  isValidPackagePath,
  latestRevision,
  nextRevision,
  normalizeDirectory,
  normalizePrefix,
  packageInDirectory,
  packageName,
  parseDraftBranch,
  parseRevision,
  parseRevisionTag,
  publishedRevisions,
  revisionObjectName,
  workspaceRevision,
} from "../../src/lifecycle/revision-naming.js";

describe("draft branches", () => {
  it("splits the last segment off as the workspace", () => {
    expect(parseDraftBranch("drafts/pkg/v1")).toEqual({ packagePath: "pkg", workspace: "v1" });
    expect(parseDraftBranch("drafts/catalog/team/app/add-labels")).toEqual({
      packagePath: "catalog/team/app",
      workspace: "add-labels",
    });
  });

  it("accepts the full ref name", () => {
    expect(parseDraftBranch("refs/heads/drafts/a/b/ws")).toEqual({ packagePath: "a/b", workspace: "ws" });
  });

  it("rejects branches that are not drafts", () => {
    expect(parseDraftBranch("main")).toBeUndefined();
    expect(parseDraftBranch("drafts/")).toBeUndefined();
    expect(parseDraftBranch("drafts/onlyworkspace")).toBeUndefined();
    expect(parseDraftBranch("drafts//v1")).toBeUndefined();
    expect(parseDraftBranch("drafts/a//v1")).toBeUndefined();
    expect(parseDraftBranch("drafts/a/v1/")).toBeUndefined();
    expect(parseDraftBranch("drafts/../v1")).toBeUndefined();
    expect(parseDraftBranch("feature/drafts/a/v1")).toBeUndefined();
    expect(parseDraftBranch("draftsx/a/v1")).toBeUndefined();
    expect(parseDraftBranch("refs/tags/drafts/a/v1")).toBeUndefined();
  });

  it("uses a configured prefix, with or without its trailing slash", () => {
    expect(parseDraftBranch("pkg-drafts/a/v1", { draftPrefix: "pkg-drafts" })).toEqual({
      packagePath: "a",
      workspace: "v1",
    });
    expect(parseDraftBranch("drafts/a/v1", { draftPrefix: "porch/drafts/" })).toBeUndefined();
    expect(parseDraftBranch("porch/drafts/a/b/v1", { draftPrefix: "porch/drafts/" })).toEqual({
      packagePath: "a/b",
      workspace: "v1",
    });
    expect(normalizePrefix("x//")).toBe("x/");
    expect(normalizePrefix(undefined)).toBe("drafts/");
  });

  it("ignores drafts of packages outside the repository directory", () => {
    const options = { directory: "catalog" };
    expect(parseDraftBranch("drafts/catalog/app/v1", options)).toEqual({
      packagePath: "catalog/app",
      workspace: "v1",
    });
    expect(parseDraftBranch("drafts/catalogue/app/v1", options)).toBeUndefined();
    expect(parseDraftBranch("drafts/other/app/v1", options)).toBeUndefined();
  });

  it("formats and round-trips", () => {
    expect(formatDraftBranch({ packagePath: "a/b/c", workspace: "w" })).toBe("drafts/a/b/c/w");
    expect(formatDraftBranch({ packagePath: "a", workspace: "w" }, { draftPrefix: "d" })).toBe("d/a/w");
    expect(() => formatDraftBranch({ packagePath: "a", workspace: "x/y" })).toThrow(/workspace/);
    expect(() => formatDraftBranch({ packagePath: "/a", workspace: "w" })).toThrow(/package path/);
    const segment = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), segment, (parts, workspace) => {
        const ref = { packagePath: parts.join("/"), workspace };
        expect(parseDraftBranch(formatDraftBranch(ref))).toEqual(ref);
      }),
    );
  });
});

describe("package paths and directories", () => {
  it("validates paths like git ref segments", () => {
    expect(isValidPackagePath("a/b-c/d_e")).toBe(true);
    expect(isValidPackagePath("")).toBe(false);
    expect(isValidPackagePath("a/.hidden")).toBe(false);
    expect(isValidPackagePath("a b")).toBe(false);
    expect(isValidPackagePath("a/b.lock")).toBe(false);
    expect(isValidPackagePath("a~1")).toBe(false);
  });

  it("normalizes the repository directory", () => {
    expect(normalizeDirectory("/")).toBe("");
    expect(normalizeDirectory(".")).toBe("");
    expect(normalizeDirectory("./catalog/")).toBe("catalog");
    expect(normalizeDirectory("/a/b/")).toBe("a/b");
  });

  it("places packages in a directory on segment boundaries", () => {
    expect(packageInDirectory("catalog/app", "catalog")).toBe(true);
    expect(packageInDirectory("catalog", "/catalog/")).toBe(true);
    expect(packageInDirectory("catalogue/app", "catalog")).toBe(false);
    expect(packageInDirectory("anything", "")).toBe(true);
  });

  it("names the package relative to the directory", () => {
    expect(packageName("catalog/team/app", "catalog")).toBe("team/app");
    expect(packageName("team/app", undefined)).toBe("team/app");
    expect(packageName("a/b", "a/b")).toBe("b");
  });
});

describe("revisions and tags", () => {
  it("parses only v<N> revisions", () => {
    expect(parseRevision("v3")).toBe(3);
    expect(parseRevision("v0")).toBe(0);
    expect(parseRevision("v01")).toBe(1);
    expect(parseRevision("v2.0.0")).toBeUndefined();
    expect(parseRevision("3")).toBeUndefined();
    expect(parseRevision("main")).toBeUndefined();
    expect(parseRevision("v")).toBeUndefined();
    expect(parseRevision("v99999999999999999999")).toBeUndefined();
    expect(formatRevision(7)).toBe("v7");
    expect(() => formatRevision(-1)).toThrow();
    expect(() => formatRevision(1.5)).toThrow();
  });

  it("treats only canonical publishable workspaces as revisions", () => {
    expect(workspaceRevision("v3")).toBe(3);
    expect(workspaceRevision("v0")).toBeUndefined();
    expect(workspaceRevision("v03")).toBeUndefined();
    expect(workspaceRevision("v3.0.0")).toBeUndefined();
    expect(workspaceRevision("add-labels")).toBeUndefined();
  });

  it("parses package tags and skips release or semver tags", () => {
    expect(parseRevisionTag("team/app/v2")).toEqual({ packagePath: "team/app", revision: 2 });
    expect(parseRevisionTag("refs/tags/pkg/v1")).toEqual({ packagePath: "pkg", revision: 1 });
    expect(parseRevisionTag("v1")).toBeUndefined();
    expect(parseRevisionTag("pkg/v2.0.0")).toBeUndefined();
    expect(parseRevisionTag("pkg/main")).toBeUndefined();
    expect(parseRevisionTag("/v1")).toBeUndefined();
    expect(parseRevisionTag("other/pkg/v1", { directory: "catalog" })).toBeUndefined();
    expect(formatRevisionTag({ packagePath: "team/app", revision: 4 })).toBe("team/app/v4");
  });

  it("collects one package's revisions, not its neighbours'", () => {
    const tags = ["pkg/v1", "pkg/v3", "pkg/v01", "pkg/v2.0.0", "pkg/sub/v9", "other/v7", "v10", "pkg/v10-rc"];
    expect(publishedRevisions(tags, "pkg")).toEqual([1, 3]);
    expect(publishedRevisions(tags, "pkg/sub")).toEqual([9]);
    expect(latestRevision(tags, "pkg")).toBe(3);
    expect(latestRevision(tags, "nothing")).toBeUndefined();
  });

  it("numbers the next revision as highest published + 1", () => {
    expect(nextRevision({ packagePath: "pkg", tags: [] })).toBe(1);
    expect(nextRevision({ packagePath: "pkg", workspace: "ws", tags: ["pkg/v1"] })).toBe(2);
    expect(
      nextRevision({ packagePath: "pkg", workspace: "ws", tags: ["pkg/v1", "pkg/v5", "pkg/v6.0.0"] }),
    ).toBe(6);
    expect(nextRevision({ packagePath: "pkg", workspace: "ws", tags: ["pkg/v0"] })).toBe(1);
    expect(nextRevision({ packagePath: "a/b", workspace: "ws", tags: ["a/v4", "a/b/v2"] })).toBe(3);
  });

  it("uses the workspace's own number when the workspace is a revision", () => {
    expect(nextRevision({ packagePath: "pkg", workspace: "v3", tags: ["pkg/v1"] })).toBe(3);
    expect(nextRevision({ packagePath: "pkg", workspace: "v0", tags: ["pkg/v1"] })).toBe(2);
  });

  it("composes Porch's object name", () => {
    expect(revisionObjectName({ repository: "deployments", packagePath: "team/app", workspace: "v1" })).toBe(
      "deployments.team.app.v1",
    );
  });
});
