/**
 * Second round, fault 1 — publishing is compare-and-swap. Three drafts of one package (workspaces that
 * are not revisions) are merged one right after the other: each merge publishes one revision, numbered
 * in merge order (`web/v1` at the first merge commit, `web/v2` at the second, `web/v3` at the third), and
 * no comment says "Not published". Before, the jobs of the burst each took "highest tag + 1" from the
 * same listing and the later ones were answered "tag web/v1 already exists".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Any,
  configMap,
  fakeGitHubAvailable,
  type Harness,
  OWNER,
  startHarness,
  waitForVerdict,
} from "./support.js";

/** No pipeline: a draft's render changes nothing, so each draft's head is what was pushed. */
const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: web\n";
const WORKSPACES = ["alpha", "beta", "gamma"];

describe.skipIf(!fakeGitHubAvailable)("fault 1: merges in a burst publish one revision each", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ PORCHLIGHT_CONCURRENCY: "4" });
  }, 180_000);
  afterAll(async () => harness?.stop());

  it("numbers the revisions of three merges made back to back in merge order", async () => {
    const { gh } = harness;
    const repo = "f1";
    await gh.createRepo(OWNER, repo, { "web/Kptfile": KPTFILE, "web/cm.yaml": configMap("web", 0) });
    await gh.idle({ quietMs: 500 });
    const pulls: Any[] = [];
    for (const ws of WORKSPACES) {
      const branch = `drafts/web/${ws}`;
      await gh.pushFiles(OWNER, repo, branch, { [`web/${ws}.yaml`]: configMap(ws, 1) }, ws, { from: "main" });
      await waitForVerdict(harness, repo, branch);
      pulls.push(await gh.createPullRequest(OWNER, repo, { head: branch, base: "main", title: ws }));
    }
    await gh.idle({ quietMs: 1000, timeoutMs: 60_000 });

    const merges: string[] = [];
    for (const pull of pulls)
      merges.push((await gh.merge(OWNER, repo, pull.number, "squash")).merge_commit_sha);
    const publishComment = async (pull: Any): Promise<string | undefined> => {
      const answer = await gh.request("GET", `/repos/${OWNER}/${repo}/issues/${pull.number}/comments`);
      return (answer.data as Any[]).find((c) => c.body.includes("porchlight:publish"))?.body;
    };
    await harness.scenario.waitFor(
      async () => (await Promise.all(pulls.map(publishComment))).every(Boolean) || null,
      { timeoutMs: 90_000, intervalMs: 250, message: "a publish comment on each merged pull request" },
    );
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });

    for (const pull of pulls) expect(await publishComment(pull)).not.toContain("Not published");
    expect(await tags(gh, repo)).toEqual(merges.map((sha, i) => [`web/v${i + 1}`, sha]));
  }, 240_000);
});

/** `[tag, sha]` of the repository's `web/` tags, by revision. */
async function tags(gh: Any, repo: string): Promise<[string, string][]> {
  const answer = await gh.request("GET", `/repos/${OWNER}/${repo}/git/matching-refs/tags/web/`);
  return (answer.data as Any[])
    .map((r): [string, string] => [r.ref.replace("refs/tags/", ""), r.object.sha])
    .sort((a, b) => Number(a[0].split("/v")[1]) - Number(b[0].split("/v")[1]));
}
