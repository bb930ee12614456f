import { describe, expect, it } from "vitest";
import { downstreamsInRepository, MemoryDownstreamIndex } from "../../src/lifecycle/downstream-index.js";
import { parseUpstreamUrl, refForRevision, revisionOfRef } from "../../src/lifecycle/upstream-source.js";

describe("upstream sources", () => {
  it("reads the repository of an upstream URL on the app's host, with or without .git", () => {
    const want = { owner: "org", name: "blueprints" };
    for (const url of [
      "https://github.com/org/blueprints",
      "https://github.com/org/blueprints.git",
      "https://github.com/org/blueprints/",
      "git@github.com:org/blueprints.git",
      "ssh://git@github.com/org/blueprints.git",
    ]) {
      expect(parseUpstreamUrl(url, "github.com"), url).toEqual(want);
    }
    expect(parseUpstreamUrl("http://127.0.0.1:8080/org/blueprints.git", "127.0.0.1:8080")).toEqual(want);
    expect(parseUpstreamUrl("https://gitlab.com/org/blueprints", "github.com")).toBeUndefined();
    expect(parseUpstreamUrl("https://github.com/org/blueprints/tree/main", "github.com")).toBeUndefined();
  });

  it("reads revisions from Porch tags and keeps the Kptfile's ref style", () => {
    expect(revisionOfRef("base/v3", "base")).toBe(3);
    expect(revisionOfRef("v3", "base")).toBe(3);
    expect(revisionOfRef("other/v3", "base")).toBeUndefined();
    expect(revisionOfRef("main", "base")).toBeUndefined();
    expect(refForRevision("base/v3", "base", 4)).toBe("base/v4");
    expect(refForRevision("v3", "base", 4)).toBe("v4");
  });
});

const kptfile = (repo: string, lockRef: string, extra = "") => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: x
${extra}upstream:
  type: git
  git:
    repo: ${repo}
    directory: /base
    ref: v1
  updateStrategy: resource-merge
upstreamLock:
  type: git
  git:
    repo: ${repo}
    directory: /base
    ref: ${lockRef}
    commit: abc
`;

describe("the downstream index", () => {
  it("lists a repository's top-level packages cloned from the host's repositories", async () => {
    const entries = downstreamsInRepository({
      repo: "org/deploy",
      host: "github.com",
      ownerAnnotation: "porchlight.dev/package-variant",
      kptfiles: new Map([
        ["east/app/Kptfile", kptfile("https://github.com/Org/Blueprints.git", "base/v2")],
        ["east/app/db/Kptfile", kptfile("https://github.com/org/dbs", "base/v1")],
        ["west/app/Kptfile", kptfile("https://gitlab.com/org/blueprints", "base/v1")],
        ["broken/Kptfile", "kind: ["],
      ]),
    });
    expect(entries).toEqual([
      {
        repo: "org/deploy",
        package: "east/app",
        upstream: {
          repo: "org/blueprints",
          package: "base",
          url: "https://github.com/Org/Blueprints.git",
          ref: "v1",
        },
        lock: { ref: "base/v2", commit: "abc", revision: 2 },
        strategy: "resource-merge",
        variant: undefined,
      },
    ]);
    const index = new MemoryDownstreamIndex();
    await index.setRepository(1, "org/deploy", entries);
    expect(await index.downstreamsOf(1, "org/Blueprints", "base")).toHaveLength(1);
    expect(await index.downstreamsOf(2, "org/blueprints", "base")).toHaveLength(0);
    await index.setRepository(1, "org/deploy", []);
    expect(await index.all(1)).toEqual([]);
  });
});
