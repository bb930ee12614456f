import { describe, expect, it } from "vitest";
import { downstreamsInRepository, MemoryDownstreamIndex } from "../../src/lifecycle/downstream-index.js";
import {
  parseUpstreamUrl,
  readUpstreamUrl,
  refForRevision,
  revisionOfRef,
} from "../../src/lifecycle/upstream-source.js";

describe("upstream sources", () => {
  it("reads the repository of an upstream URL on the app's host, with or without .git", () => {
    const want = { owner: "org", name: "blueprints" };
    for (const url of [
      "https://github.com/org/blueprints",
      "https://github.com/org/blueprints.git",
      "https://github.com/org/blueprints/",
      "HTTPS://GitHub.com/org/blueprints.git",
    ]) {
      expect(parseUpstreamUrl(url, "github.com"), url).toEqual(want);
    }
    expect(parseUpstreamUrl("http://127.0.0.1:8080/org/blueprints.git", "http://127.0.0.1:8080")).toEqual(
      want,
    );
    expect(parseUpstreamUrl("https://gitlab.com/org/blueprints", "github.com")).toBeUndefined();
    expect(parseUpstreamUrl("https://github.com/org/blueprints/tree/main", "github.com")).toBeUndefined();
  });

  it("refuses every other form with the reason: schemes, hosts, ports, userinfo, dot segments, encodings", () => {
    const refused = (url: string, base = "github.com") => {
      const reading = readUpstreamUrl(url, base);
      return "refused" in reading ? reading.refused : `accepted ${JSON.stringify(reading.repo)}`;
    };
    expect(refused("git@github.com:org/blueprints.git")).toMatch(/is refused: it is not a URL/);
    expect(refused("ssh://git@github.com/org/blueprints.git")).toMatch(/scheme ssh:\/\/ is not https:\/\//);
    expect(refused("http://github.com/org/blueprints")).toMatch(/scheme http:\/\/ is not https/);
    expect(refused("file:///etc/passwd")).toMatch(/scheme file:\/\//);
    expect(refused("https://user:pw@github.com/org/blueprints")).toMatch(/userinfo/);
    expect(refused("https://github.com:8443/org/blueprints")).toMatch(/port of github.com:8443/);
    expect(refused("https://gitlab.com/org/blueprints")).toMatch(/gitlab.com is not github.com/);
    expect(refused("http://127.0.0.1:8080/../_control/faults", "http://127.0.0.1:8080")).toMatch(
      /dot segments/,
    );
    expect(refused("https://github.com/org/../blueprints")).toMatch(/dot segments/);
    expect(refused("https://github.com/org/%2e%2e")).toMatch(/percent-encoded/);
    expect(refused("https://github.com/org/blueprints/tree/main")).toMatch(/not exactly \/<owner>\/<repo>/);
    expect(refused("https://github.com/org/blueprints?x=1")).toMatch(/query or fragment/);
    expect(refused("https://github.com/or.g/blueprints")).toMatch(/not a GitHub account name/);
    expect(refused("https://github.com/org/blue$prints")).toMatch(/not a GitHub repository name/);
    expect(refused("https://github.com/org/blueprints")).toContain("accepted");
    expect(refused("ssh://git@github.com/org/blueprints.git")).toContain(
      "porchlight reads upstreams only as https://github.com/<owner>/<repo>[.git]",
    );
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
