/**
 * The `porchlight rpkg` verbs' argument checks and listings against the local GitHub
 * (../shared/tools/fake-github), in process and without the app (fast): a clone URL with a `..`
 * segment is refused, not normalised; `rpkg get` across repositories names them `owner/repo`;
 * `--revision` takes only an integer, as porchctl's int64 flag; an unknown NAME is answered with the
 * close names it may mean. Skips visibly without the fake.
 */

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRpkgGet } from "../../src/cli/rpkg-get.js";
import { runRpkgVerb } from "../../src/cli/rpkg-verbs.js";
import { type Any, fakeGitHubAvailable, loadScenario } from "../helpers/fake-github.js";

const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\n";

describe.skipIf(!fakeGitHubAvailable)("rpkg argument checks and listings (fake GitHub, no app)", () => {
  let gh: Any;
  let env: Record<string, string> = {};
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-rpkg-cli-"));

  async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const io = { env, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    const code = argv[0] === "get" ? await runRpkgGet(argv, io) : await runRpkgVerb(argv, io);
    return { code, out: out.join(""), err: err.join("") };
  }

  beforeAll(async () => {
    const scenario = await loadScenario();
    gh = await scenario.startFakeGitHub({ dataDir });
    await gh.createRepo("acme", "blueprints", { "base/Kptfile": KPTFILE, "base/cm.yaml": "a: 1\n" });
    await gh.request("POST", "/repos/acme/blueprints/git/refs", {
      ref: "refs/tags/base/v1",
      sha: (await gh.request("GET", "/repos/acme/blueprints/branches/main")).data.commit.sha,
    });
    await gh.createRepo("acme", "deploy", { "README.md": "# deploy\n" });
    env = { GITHUB_TOKEN: await gh.installationToken(), GITHUB_API_URL: gh.apiUrl };
  }, 60_000);

  afterAll(async () => {
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("refuses a clone URL whose directory has a .. segment, creating nothing", async () => {
    const url = `${gh.url}/acme/blueprints.git/base/../../x@v1`;
    const got = await cli(["clone", url, "app", "--repo", "acme/deploy", "--workspace", "ws"]);
    expect(got.code).toBe(1);
    expect(got.err).toBe(
      `Error: porchlight rpkg clone: the directory of ${url} has a "." or ".." segment ("base/../../x"): name the package's directory as it is in the upstream repository, e.g. <repo>.git/base@v1\n`,
    );
    const dir = await cli(
      ["clone", `${gh.url}/acme/blueprints.git`, "app", "--directory", "/../x"].concat([
        "--repo",
        "acme/deploy",
        "--workspace",
        "ws",
      ]),
    );
    expect(dir.err).toContain('--directory has a "." or ".." segment ("/../x")');
    const branches = (await gh.request("GET", "/repos/acme/deploy/branches")).data.map((b: Any) => b.name);
    expect(branches).toEqual(["main"]);
  });

  it("rpkg get without --repo names each repository owner/repo; with --repo as Porch names it", async () => {
    const all = await cli(["get"]);
    expect(all.code).toBe(0);
    const rows = all.out
      .trim()
      .split("\n")
      .map((l) => l.split(/\s{3,}/));
    expect(rows[0]?.at(-1)).toBe("REPOSITORY");
    expect(rows.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([
      ["blueprints.base.main", "acme/blueprints"],
      ["blueprints.base.v1", "acme/blueprints"],
    ]);
    const one = await cli(["get", "--repo", "acme/blueprints"]);
    expect(
      one.out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s{3,}/).at(-1)),
    ).toEqual(["blueprints", "blueprints"]);
  });

  it("--revision takes an integer, as porchctl's int64 flag; 01 is revision 1", async () => {
    const bad = await cli(["get", "--revision", "abc"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(
      /^Error: invalid argument "abc" for "--revision" flag: strconv.ParseInt: parsing "abc": invalid syntax\n\nUsage: porchlight rpkg get/,
    );
    expect(bad.out).toBe("");
    const one = await cli(["get", "--revision", "01"]);
    expect(one.out).toContain("blueprints.base.v1");
    expect(one.out).not.toContain("blueprints.base.main");
  });

  it("an unknown NAME is answered with the close names it may mean", async () => {
    const get = await cli(["get", "blueprints.base.v2", "blueprints.base.v1"]);
    expect(get.code).toBe(1);
    expect(get.out).toContain("blueprints.base.v1");
    expect(get.err).toBe(
      'Error: package revision "blueprints.base.v2" not found; did you mean blueprints.base.v1?\n',
    );
    const far = await cli(["get", "nothing.like.it"]);
    expect(far.err).toBe('Error: package revision "nothing.like.it" not found\n');
    const verb = await cli(["propose", "bluepints.base.main", "--repo", "acme/blueprints"]);
    expect(verb.code).toBe(1);
    expect(verb.err).toContain("did you mean blueprints.base.main");
  });
});
