import "../helpers/promise-with-resolvers.js";
import nock from "nock";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runRpkgGet } from "../../src/cli/rpkg-get.js";

const API = "https://api.github.com";
const sha = (n: number) => n.toString(16).padStart(40, "0");

function capture(env: Record<string, string | undefined> = { GITHUB_TOKEN: "t0ken" }) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { env, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) }, out, err };
}

function pull(number: number, head: string, fields: Record<string, unknown> = {}) {
  return {
    number,
    state: "open",
    draft: false,
    merged_at: null,
    head: { ref: head, sha: sha(50 + number) },
    base: { ref: "main", sha: sha(1) },
    ...fields,
  };
}

/** Mocks the reads of one repository; `config` is the text of .github/porchlight.yml or undefined. */
function mockRepository(api: nock.Scope, config?: string) {
  api
    .get("/repos/acme/pkgs")
    .matchHeader("authorization", "token t0ken")
    .reply(200, { name: "pkgs", full_name: "acme/pkgs", default_branch: "main" });
  const contents = api.get("/repos/acme/pkgs/contents/.github%2Fporchlight.yml").query({ ref: "main" });
  if (config === undefined) contents.reply(404, { message: "Not Found" });
  else
    contents.reply(200, {
      type: "file",
      encoding: "base64",
      content: Buffer.from(config).toString("base64"),
    });
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending).toEqual([]);
});

describe("porchlight rpkg get", () => {
  it("prints revisions from branches, pull requests, tags and the default branch", async () => {
    const api = nock(API);
    mockRepository(api);
    api.get("/repos/acme/pkgs/git/matching-refs/heads%2Fdrafts%2F").reply(200, [
      { ref: "refs/heads/drafts/team/app/v3", object: { sha: sha(3), type: "commit" } },
      { ref: "refs/heads/drafts/team/app/labels", object: { sha: sha(4), type: "commit" } },
    ]);
    api
      .get("/repos/acme/pkgs/tags")
      .query({ per_page: 100 })
      .reply(200, [
        { name: "team/app/v2", commit: { sha: sha(22) } },
        { name: "team/app/v1", commit: { sha: sha(21) } },
        { name: "team/app/v1.0.0", commit: { sha: sha(20) } },
      ]);
    api
      .get("/repos/acme/pkgs/pulls")
      .query({ state: "all", base: "main", per_page: 100 })
      .reply(200, [
        pull(7, "drafts/team/app/v3"),
        pull(6, "drafts/team/app/labels", { draft: true }),
        pull(5, "other"),
      ]);
    api
      .get("/repos/acme/pkgs/git/ref/heads%2Fmain")
      .reply(200, { ref: "refs/heads/main", object: { sha: sha(1), type: "commit" } });
    api.get("/repos/acme/pkgs/git/matching-refs/heads%2Fdeletion-proposed%2F").reply(200, []);
    api
      .get(`/repos/acme/pkgs/git/trees/${sha(1)}`)
      .query({ recursive: "1" })
      .reply(200, {
        sha: sha(90),
        truncated: false,
        tree: [
          { path: "team/app/Kptfile", type: "blob", sha: sha(91), mode: "100644" },
          { path: "team/app/sub/Kptfile", type: "blob", sha: sha(92), mode: "100644" },
          { path: "README.md", type: "blob", sha: sha(93), mode: "100644" },
        ],
      });

    const { io, out, err } = capture();
    const code = await runRpkgGet(["get", "--repo", "acme/pkgs"], io);

    expect(err.join("")).toBe("");
    expect(code).toBe(0);
    expect(out.join("")).toBe(
      [
        "NAME                   PACKAGE    WORKSPACENAME   REVISION   LATEST   LIFECYCLE   REPOSITORY",
        "pkgs.team.app.main     team/app   main            -1         false    Published   pkgs",
        "pkgs.team.app.v1       team/app   v1              1          false    Published   pkgs",
        "pkgs.team.app.v2       team/app   v2              2          true     Published   pkgs",
        "pkgs.team.app.labels   team/app   labels          0          false    Draft       pkgs",
        "pkgs.team.app.v3       team/app   v3              0          false    Proposed    pkgs",
        "",
      ].join("\n"),
    );
  });

  it("prints PackageRevision objects with -o yaml and honours the repository config", async () => {
    const api = nock("https://ghe.example.com/api/v3");
    mockRepository(api, "draftBranchPrefix: wip\ndirectories: [catalog]\n");
    api
      .get("/repos/acme/pkgs/git/matching-refs/heads%2Fwip%2F")
      .reply(200, [{ ref: "refs/heads/wip/catalog/db/first", object: { sha: sha(3), type: "commit" } }]);
    api
      .get("/repos/acme/pkgs/tags")
      .query(true)
      .reply(200, [
        { name: "catalog/db/v1", commit: { sha: sha(21) } },
        { name: "elsewhere/v1", commit: { sha: sha(22) } },
      ]);
    api.get("/repos/acme/pkgs/pulls").query(true).reply(200, []);
    api
      .get("/repos/acme/pkgs/git/ref/heads%2Fmain")
      .reply(200, { ref: "refs/heads/main", object: { sha: sha(1), type: "commit" } });
    api.get("/repos/acme/pkgs/git/matching-refs/heads%2Fdeletion-proposed%2F").reply(200, []);
    api
      .get(`/repos/acme/pkgs/git/trees/${sha(1)}`)
      .query(true)
      .reply(200, { sha: sha(2), tree: [] });
    // The draft is a PackageVariant's clone: its owner is in the Kptfile on its own branch.
    const variantKptfile =
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: db\n  annotations:\n    porchlight.dev/package-variant: east\n";
    api
      .get("/repos/acme/pkgs/contents/catalog%2Fdb%2FKptfile")
      .query({ ref: sha(3) })
      .reply(200, {
        type: "file",
        encoding: "base64",
        content: Buffer.from(variantKptfile).toString("base64"),
      });

    const { io, out } = capture({ GITHUB_TOKEN: "t0ken", GITHUB_API_URL: "https://ghe.example.com/api/v3/" });
    expect(await runRpkgGet(["rpkg", "get", "--repo", "acme/pkgs", "-o", "yaml"], io)).toBe(0);

    const list = parse(out.join(""));
    expect(list.kind).toBe("List");
    expect(list.items).toEqual([
      {
        apiVersion: "porch.kpt.dev/v1alpha1",
        kind: "PackageRevision",
        metadata: { name: "pkgs.catalog.db.v1", labels: { "kpt.dev/latest-revision": "true" } },
        spec: {
          packageName: "db",
          repository: "pkgs",
          workspaceName: "v1",
          revision: 1,
          lifecycle: "Published",
        },
        status: {
          upstreamLock: {
            type: "git",
            git: {
              repo: "https://ghe.example.com/acme/pkgs.git",
              directory: "catalog/db",
              ref: "catalog/db/v1",
              commit: sha(21),
            },
          },
        },
      },
      expect.objectContaining({
        metadata: {
          name: "pkgs.catalog.db.first",
          ownerReferences: [
            {
              apiVersion: "config.porch.kpt.dev/v1alpha1",
              kind: "PackageVariant",
              name: "east",
              controller: true,
            },
          ],
        },
        spec: expect.objectContaining({ lifecycle: "Draft", revision: 0, workspaceName: "first" }),
      }),
    ]);
  });

  it("stops with the config file and field named when the config is invalid", async () => {
    const api = nock(API);
    mockRepository(api, "pushOnFailure: Sometimes\n");
    const { io, err } = capture();
    expect(await runRpkgGet(["get", "--repo", "acme/pkgs"], io)).toBe(1);
    expect(err.join("")).toMatch(/^porchlight rpkg get: \.github\/porchlight\.yml: field "pushOnFailure"/);
  });

  it("explains a missing token and bad arguments without calling GitHub", async () => {
    const noToken = capture({});
    expect(await runRpkgGet(["get", "--repo", "acme/pkgs"], noToken.io)).toBe(1);
    expect(noToken.err.join("")).toContain("GITHUB_TOKEN is not set");

    const badRepo = capture();
    expect(await runRpkgGet(["get", "--repo", "acme"], badRepo.io)).toBe(1);
    expect(badRepo.err.join("")).toContain('expected a repository as owner/repo, got "acme"');

    const badOutput = capture();
    expect(await runRpkgGet(["get", "--repo", "acme/pkgs", "-o", "json"], badOutput.io)).toBe(1);
    expect(badOutput.err.join("")).toContain('unknown output format "json"');
  });

  it("reports a GitHub error as exit 1", async () => {
    nock(API).get("/repos/acme/pkgs").reply(404, { message: "Not Found" });
    const { io, err } = capture();
    expect(await runRpkgGet(["get", "--repo", "acme/pkgs"], io)).toBe(1);
    expect(err.join("")).toContain("Not Found");
  });
});
