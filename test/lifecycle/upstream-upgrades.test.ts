/**
 * Upgrade pull requests across the repositories of an installation (in memory): which downstreams a
 * published revision upgrades, the draft and pull request each gets, the `porchlight/upgrade` check,
 * a person's push, a rejected pull request, a merge that cannot be done, the index and upstreams
 * outside the installation.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { reconcileRepository } from "../../src/jobs/reconcile.js";
import { MemoryDownstreamIndex } from "../../src/lifecycle/downstream-index.js";
import { parseDraftBranch } from "../../src/lifecycle/revision-naming.js";
import { UPGRADE_HELD_MARKER } from "../../src/report/upgrade.js";
import type { FakeRepo } from "./support/fake-repo.js";
import { RecordingQueue, upstreamHarness } from "./support/upstream-harness.js";

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: base
info:
  description: web blueprint
`;
const deploy = (image: string, replicas: number | string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
        - name: web
          image: ${image}
`;
const EAST = "drafts/east/app/upstream-upgrade";
const WEST = "drafts/west/app/upstream-upgrade";

/** Publishes `files` in `repo` as revision `tag` (a commit on main and its tag). */
function publish(repo: FakeRepo, tag: string, files: Record<string, string | null>): string {
  const { after } = repo.push({ branch: "main", changes: files, message: tag });
  repo.tags.set(tag, after);
  return after;
}

/** Blueprints `org/blueprints` (`base/v1`) and `org/deploy` with two clones: east (edited) and west. */
async function scenario() {
  const h = upstreamHarness();
  const blueprints = h.inst.add("org/blueprints", {
    "base/Kptfile": KPTFILE,
    "base/deploy.yaml": deploy("nginx:1.25", 1),
  });
  blueprints.tags.set("base/v1", blueprints.heads.get("main")!);
  const east = await h.clone({
    url: "https://github.com/org/blueprints.git",
    dir: "base",
    ref: "v1",
    name: "app",
    prefix: "east/app",
  });
  east["east/app/deploy.yaml"] = east["east/app/deploy.yaml"].replace("replicas: 1", "replicas: 3");
  const west = await h.clone({
    url: "https://github.com/org/blueprints",
    dir: "base",
    ref: "base/v1",
    name: "app",
    prefix: "west/app",
  });
  const deployRepo = h.inst.add("org/deploy", { "README.md": "# deploy\n", ...east, ...west });
  expect(await h.drain(h.job("org/deploy", { type: "index" }))).toEqual([
    "upstream:index:org/deploy: 2 downstream package(s), 0 behind",
  ]);
  return { ...h, blueprints, deployRepo };
}

const openPulls = (repo: FakeRepo) => [...repo.pulls.values()].filter((p) => p.state === "open");
const upgradeRuns = (repo: FakeRepo, sha: string) =>
  repo.checkRuns.filter((r) => r.head_sha === sha && r.name === "porchlight/upgrade");

describe("upgrade pull requests", () => {
  it("a published revision opens one rendered-to-be upgrade draft and pull request per downstream, in another repository, whatever the URL form", async () => {
    const s = await scenario();
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    const lines = await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(lines).toEqual([
      "upstream:published:org/blueprints:base: 2 downstream(s) of base",
      "upstream:downstream:org/deploy:east/app: east/app: proposed",
      "upstream:downstream:org/deploy:west/app: west/app: proposed",
    ]);
    const pulls = openPulls(s.deployRepo);
    expect(pulls.map((p) => p.head).sort()).toEqual([EAST, WEST]);
    for (const p of pulls) {
      // The workspace never looks like a revision: merging publishes the downstream's own next revision.
      const workspace = parseDraftBranch(p.head)!.workspace;
      expect(workspace).toBe("upstream-upgrade");
      expect(workspace).not.toMatch(/^v\d+$/);
    }
    const east = pulls.find((p) => p.head === EAST)!;
    const text = s.inst.pullText("org/deploy", east.number);
    expect(text.title).toBe("Upgrade east/app to base/v2 (org/blueprints)");
    expect(text.body).toContain("`org/blueprints` published `base/v2`; `east/app` is on `base/v1`.");
    expect(text.body).toContain("- modified `deploy.yaml`");
    expect(text.body).toContain("None: every local edit is kept.");
    const head = s.deployRepo.heads.get(EAST)!;
    const merged = parse(s.deployRepo.read(head, "east/app/deploy.yaml")!);
    expect(merged.spec.replicas).toBe(3);
    expect(merged.spec.template.spec.containers[0].image).toBe("nginx:1.27");
    expect(parse(s.deployRepo.read(head, "east/app/Kptfile")!).upstreamLock.git.ref).toBe("base/v2");
    // The west clone wrote its ref as `base/v1`: the upgrade keeps that style.
    const westHead = s.deployRepo.heads.get(WEST)!;
    expect(parse(s.deployRepo.read(westHead, "west/app/Kptfile")!).upstream.git.ref).toBe("base/v2");
    expect(upgradeRuns(s.deployRepo, head).map((r) => r.conclusion)).toEqual(["success"]);
    // Nothing else in the repository changed, and nothing was merged.
    expect(s.deployRepo.diff("main", EAST)).toEqual(["east/app/Kptfile", "east/app/deploy.yaml"]);
    expect([...s.deployRepo.pulls.values()].some((p) => p.merged)).toBe(false);

    // Level-triggered: the same job again changes nothing.
    const again = await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(again.slice(1)).toEqual([
      "upstream:downstream:org/deploy:east/app: east/app: current",
      "upstream:downstream:org/deploy:west/app: west/app: current",
    ]);
    expect(s.deployRepo.heads.get(EAST)).toBe(head);
    expect(openPulls(s.deployRepo)).toHaveLength(2);
  });

  it("a newer revision updates the one open pull request; a field both sides changed takes upstream's value, flagged at the field", async () => {
    const s = await scenario();
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    const number = openPulls(s.deployRepo).find((p) => p.head === EAST)!.number;
    publish(s.blueprints, "base/v3", { "base/deploy.yaml": deploy("nginx:1.27", 2) });
    const lines = await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(lines).toContain("upstream:downstream:org/deploy:east/app: east/app: updated");
    expect(
      openPulls(s.deployRepo)
        .filter((p) => p.head === EAST)
        .map((p) => p.number),
    ).toEqual([number]);
    const text = s.inst.pullText("org/deploy", number);
    expect(text.title).toBe("Upgrade east/app to base/v3 (org/blueprints)");
    expect(text.body).toContain(
      "- `deploy.yaml` Deployment/web `spec.replicas`: your `3` becomes upstream's `2` (was `1`)",
    );
    const head = s.deployRepo.heads.get(EAST)!;
    const file = s.deployRepo.read(head, "east/app/deploy.yaml")!;
    expect(parse(file).spec.replicas).toBe(2);
    const [run] = upgradeRuns(s.deployRepo, head);
    expect(run.conclusion).toBe("neutral");
    const line = file.split("\n").findIndex((l) => l.includes("replicas:")) + 1;
    expect(run.output?.annotations).toEqual([
      expect.objectContaining({
        path: "east/app/deploy.yaml",
        start_line: line,
        annotation_level: "warning",
        title: "Local edit overridden by upstream",
      }),
    ]);
  });

  it("never overwrites a person's push to the upgrade draft: one comment instead", async () => {
    const s = await scenario();
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    const { after } = s.deployRepo.push({ branch: EAST, changes: { "east/app/notes.txt": "mine\n" } });
    publish(s.blueprints, "base/v3", { "base/README.md": "v3\n" });
    for (let i = 0; i < 2; i++) {
      const lines = await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
      expect(lines).toContain("upstream:downstream:org/deploy:east/app: east/app: held");
    }
    expect(s.deployRepo.heads.get(EAST)).toBe(after);
    const pull = openPulls(s.deployRepo).find((p) => p.head === EAST)!;
    const comments = s.deployRepo.comments.filter((c) => c.issue === pull.number);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain(UPGRADE_HELD_MARKER);
    expect(comments[0].body).toContain("`base/v3`");
    // The other downstream moves on.
    expect(s.deployRepo.read(s.deployRepo.heads.get(WEST)!, "west/app/README.md")).toBe("v3\n");
  });

  it("a pull request closed without merging is not reopened for that revision; the next revision proposes again", async () => {
    const s = await scenario();
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    const first = openPulls(s.deployRepo).find((p) => p.head === EAST)!;
    s.deployRepo.close(first.number);
    for (let i = 0; i < 2; i++) {
      const lines = await s.drain(s.job("org/deploy", { type: "downstream", package: "east/app" }));
      expect(lines).toEqual(["upstream:downstream:org/deploy:east/app: east/app: rejected"]);
    }
    expect(openPulls(s.deployRepo).filter((p) => p.head === EAST)).toEqual([]);
    publish(s.blueprints, "base/v3", { "base/README.md": "v3\n" });
    const lines = await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(lines).toContain("upstream:downstream:org/deploy:east/app: east/app: proposed");
    const [second] = openPulls(s.deployRepo).filter((p) => p.head === EAST);
    expect(second.number).not.toBe(first.number);
    expect(s.inst.pullText("org/deploy", second.number).title).toBe(
      "Upgrade east/app to base/v3 (org/blueprints)",
    );
  });

  it("merges nothing unless upgrades.autoMerge asks; then only a rendered upgrade that overrides no local edit", async () => {
    const s = await scenario();
    /** porchlight/render's verdict on the head of `branch` (what the draft's render job posts). */
    const rendered = (branch: string) =>
      s.deployRepo.checkRuns.push({
        id: s.deployRepo.nextId(),
        name: "porchlight/render",
        head_sha: s.deployRepo.heads.get(branch)!,
        status: "completed",
        conclusion: "success",
      });
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    rendered(EAST);
    expect(await s.drain(s.job("org/deploy", { type: "draft", branch: EAST }))).toEqual([
      `upstream:draft:org/deploy:${EAST}: east/app: downstream job`,
      `upstream:downstream:org/deploy:east/app: east/app: current`,
    ]);
    expect([...s.deployRepo.pulls.values()].some((p) => p.merged)).toBe(false);

    s.deployRepo.config = "upgrades:\n  autoMerge: true\n";
    expect(await s.drain(s.job("org/deploy", { type: "draft", branch: WEST }))).toEqual([
      `upstream:draft:org/deploy:${WEST}: west/app: downstream job`,
      `upstream:downstream:org/deploy:west/app: west/app: current`,
    ]);
    expect(await s.drain(s.job("org/deploy", { type: "draft", branch: EAST }))).toEqual([
      `upstream:draft:org/deploy:${EAST}: east/app: downstream job`,
      `upstream:downstream:org/deploy:east/app: east/app: merged`,
    ]);
    const east = [...s.deployRepo.pulls.values()].find((p) => p.head === EAST)!;
    expect(east.merged).toBe(true);
    expect(s.others).toEqual([
      {
        kind: "publish",
        installationId: 1,
        repo: { owner: "org", repo: "deploy" },
        number: east.number,
        sameRepository: true,
      },
    ]);
    // An upgrade that overrides a local edit always waits for a person, even rendered.
    publish(s.blueprints, "base/v3", { "base/deploy.yaml": deploy("nginx:1.27", 2) });
    s.deployRepo.heads.delete(EAST);
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    rendered(EAST);
    expect(await s.drain(s.job("org/deploy", { type: "draft", branch: EAST }))).toEqual([
      `upstream:draft:org/deploy:${EAST}: east/app: downstream job`,
      `upstream:downstream:org/deploy:east/app: east/app: current`,
    ]);
    expect(openPulls(s.deployRepo).find((p) => p.head === EAST)?.merged).toBe(false);
  });

  it("a merge that cannot be done opens no draft: a failed porchlight/upgrade run on the default branch head names the resource and field", async () => {
    const s = await scenario();
    // Locally, replicas became a map; upstream changes the number.
    const main = s.deployRepo.heads.get("main")!;
    const local = s.deployRepo
      .read(main, "east/app/deploy.yaml")!
      .replace("replicas: 3", "replicas:\n    min: 2");
    const { after } = s.deployRepo.push({ branch: "main", changes: { "east/app/deploy.yaml": local } });
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.25", 5) });
    for (let i = 0; i < 2; i++)
      await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(s.deployRepo.heads.has(EAST)).toBe(false);
    const runs = upgradeRuns(s.deployRepo, after);
    expect(runs).toHaveLength(1);
    expect(runs[0].conclusion).toBe("failure");
    expect(runs[0].output?.title).toBe("Upgrade of east/app to base/v2 cannot be merged");
    expect(runs[0].output?.summary).toContain("Deployment web");
    expect(runs[0].output?.summary).toContain("spec.replicas");
    // Visible where people look: one issue (the job ran twice) saying what failed and the way out.
    const issues = s.deployRepo.issues.filter((i) => i.labels.includes("porchlight-upgrade-failed"));
    expect(issues.map((i) => [i.title, i.state])).toEqual([
      ["Upgrade of east/app to base/v2 failed", "open"],
    ]);
    expect(issues[0]!.body).toContain("spec.replicas");
    expect(issues[0]!.body).toContain(
      "porchlight rpkg upgrade deploy.east.app.main --revision 2 --workspace upgrade-v2 --strategy force-delete-replace",
    );
    expect(runs[0].output?.summary).toContain("--strategy force-delete-replace");
    // West merged fine.
    expect(s.deployRepo.heads.has(WEST)).toBe(true);
  });

  it("a proposed upstream change lists its blast radius: each downstream, the edits it would override, the merges that would fail", async () => {
    const s = await scenario();
    // west: replicas became a map locally, so changing replicas upstream cannot be merged there.
    const main = s.deployRepo.heads.get("main")!;
    s.deployRepo.push({
      branch: "main",
      changes: {
        "west/app/deploy.yaml": s.deployRepo
          .read(main, "west/app/deploy.yaml")!
          .replace("replicas: 1", "replicas:\n    min: 2"),
      },
    });
    await s.drain(s.job("org/deploy", { type: "index" }));
    const before = new Map(s.deployRepo.heads);
    s.blueprints.push({
      branch: "drafts/base/more",
      changes: { "base/deploy.yaml": deploy("nginx:1.25", 4) },
    });
    const pull = s.blueprints.openPull("drafts/base/more");
    const lines = await s.drain(s.job("org/blueprints", { type: "blast-radius", number: pull.number }));
    expect(lines).toEqual([`upstream:blast-radius:org/blueprints#${pull.number}: 2 downstream(s) of base`]);
    const [run] = s.blueprints.checkRuns.filter((r) => r.name === "porchlight/downstreams");
    expect(run.head_sha).toBe(s.blueprints.heads.get("drafts/base/more"));
    expect(run.conclusion).toBe("neutral");
    expect(run.output?.title).toBe("1 downstream upgrade would fail");
    expect(run.output?.summary).toContain("| `org/deploy/east/app` | `base/v1` | ⚠️ overrides 1 local edit |");
    expect(run.output?.summary).toContain("- `deploy.yaml` Deployment/web `spec.replicas`: `3` → `4`");
    expect(run.output?.summary).toMatch(
      /\| `org\/deploy\/west\/app` \| `base\/v1` \| ❌ would fail: deploy\.yaml: Deployment web: field spec\.replicas /,
    );
    // A dry run: nothing was written to the downstream repository.
    expect(new Map(s.deployRepo.heads)).toEqual(before);
    expect(s.deployRepo.pulls.size).toBe(0);
  });

  it("the index follows pushes that change Kptfiles and is rebuilt by reconciliation after a restart", async () => {
    const s = await scenario();
    expect((await s.services.index.all(1)).map((e) => e.package)).toEqual(["east/app", "west/app"]);
    const main = s.deployRepo.heads.get("main")!;
    const removed = Object.fromEntries(
      [...s.deployRepo.files(main).keys()].filter((f) => f.startsWith("west/")).map((f) => [f, null]),
    );
    s.deployRepo.push({ branch: "main", changes: removed });
    await s.drain(s.job("org/deploy", { type: "index" }));
    expect((await s.services.index.all(1)).map((e) => e.package)).toEqual(["east/app"]);
    // A new process starts with an empty index; reconciliation's index job fills it.
    s.services.index = new MemoryDownstreamIndex();
    publish(s.blueprints, "base/v2", { "base/README.md": "v2\n" });
    expect(await s.drain(s.job("org/blueprints", { type: "published", package: "base" }))).toEqual([
      "upstream:published:org/blueprints:base: 0 downstream(s) of base",
    ]);
    const lines = await s.drain(s.job("org/deploy", { type: "index" }));
    expect(lines).toEqual([
      "upstream:index:org/deploy: 1 downstream package(s), 1 behind",
      "upstream:downstream:org/deploy:east/app: east/app: proposed",
    ]);
  });

  it("every reconciliation pass gives each repository its index job (how the index is rebuilt)", async () => {
    const s = await scenario();
    const queue = new RecordingQueue();
    const repo = { owner: "org", repo: "deploy" };
    await reconcileRepository({
      installationId: 1,
      repo,
      deps: {
        portFor: async () => s.inst.port,
        queue,
        log: s.services.log,
        lease: { holder: "test", leaseMs: 60_000 },
      },
    });
    expect(queue.jobs).toContainEqual({ kind: "upstream", installationId: 1, repo, task: { type: "index" } });
  });

  it("getting a directory the upstream does not have, or one with dot segments, fails naming it (as kpt's fetcher)", async () => {
    const h = upstreamHarness();
    const blueprints = h.inst.add("org/blueprints", {
      "base/Kptfile": KPTFILE,
      "base/deploy.yaml": deploy("a", 1),
    });
    blueprints.tags.set("base/v1", blueprints.heads.get("main")!);
    const get = (dir: string) =>
      h.clone({ url: "https://github.com/org/blueprints.git", dir, ref: "main", name: "x", prefix: "x" });
    await expect(get("nosuchdir")).rejects.toThrow(
      'path "/nosuchdir" does not exist in org/blueprints at main',
    );
    await expect(get("../deploy/app")).rejects.toThrow(
      'upstream directory "/../deploy/app" has dot segments',
    );
    expect(Object.keys(await get("base")).sort()).toEqual(["x/Kptfile", "x/deploy.yaml"]);
  });

  it("an upstream outside the installation (a public repository) is checked on each reconciliation pass", async () => {
    const h = upstreamHarness();
    const catalog = h.inst.add(
      "public/catalog",
      { "base/Kptfile": KPTFILE, "base/deploy.yaml": deploy("nginx:1.25", 1) },
      { public: true },
    );
    catalog.tags.set("base/v1", catalog.heads.get("main")!);
    const files = await h.clone({
      url: "https://github.com/public/catalog.git",
      dir: "base",
      ref: "v1",
      name: "app",
      prefix: "app",
    });
    const deployRepo = h.inst.add("org/deploy", files);
    expect(await h.inst.port.listInstallationRepositories()).toEqual([{ owner: "org", repo: "deploy" }]);
    await h.drain(h.job("org/deploy", { type: "index" }));
    // The catalog publishes: no webhook reaches the app. The next pass finds it.
    publish(catalog, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    expect(await h.drain(h.job("org/deploy", { type: "index" }))).toEqual([
      "upstream:index:org/deploy: 1 downstream package(s), 1 behind",
      "upstream:downstream:org/deploy:app: app: proposed",
    ]);
    const pull = openPulls(deployRepo)[0];
    expect(pull.head).toBe("drafts/app/upstream-upgrade");
    expect(h.inst.pullText("org/deploy", pull.number).title).toBe("Upgrade app to base/v2 (public/catalog)");
  });

  it("deleting the upstream package from the default branch ends each downstream's upgrades with one note", async () => {
    const s = await scenario();
    // east's upgrade fails (an issue), west's opens a pull request.
    const main = s.deployRepo.heads.get("main")!;
    const local = s.deployRepo
      .read(main, "east/app/deploy.yaml")!
      .replace("replicas: 3", "replicas:\n    min: 2");
    s.deployRepo.push({ branch: "main", changes: { "east/app/deploy.yaml": local } });
    publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.25", 5) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    const failed = () => s.deployRepo.issues.filter((i) => i.labels.includes("porchlight-upgrade-failed"));
    expect(failed().map((i) => i.state)).toEqual(["open"]);
    const westPull = openPulls(s.deployRepo).find((p) => p.head === WEST)!;
    // The package leaves blueprints' main (its tags stay).
    const { after } = s.blueprints.push({
      branch: "main",
      changes: { "base/Kptfile": null, "base/deploy.yaml": null },
      message: "Remove base",
    });
    for (let i = 0; i < 2; i++) {
      expect(await s.drain(s.job("org/blueprints", { type: "deleted", package: "base" }))).toEqual([
        "upstream:deleted:org/blueprints:base: 2 downstream(s) of base",
        "upstream:downstream:org/deploy:east/app: east/app: upstream-deleted",
        "upstream:downstream:org/deploy:west/app: west/app: upstream-deleted",
      ]);
    }
    expect(openPulls(s.deployRepo)).toEqual([]);
    expect(s.deployRepo.pulls.get(westPull.number)!.state).toBe("closed");
    expect(failed().map((i) => i.state)).toEqual(["closed"]);
    const notes = s.deployRepo.comments.filter((c) => c.body.includes("porchlight:upstream-deleted"));
    // One note on each, though the job ran twice.
    expect(notes.map((c) => c.issue).sort()).toEqual([failed()[0]!.number, westPull.number].sort());
    const west = notes.find((c) => c.issue === westPull.number)!.body;
    expect(west).toContain(
      `The upstream package \`base\` of \`org/blueprints\` was deleted: its Kptfile is not on \`main\` at commit \`${after.slice(0, 7)}\`; its last published revision was \`base/v2\`.`,
    );
    expect(west).toContain("**keep its copy**");
    expect(west).toContain("**re-point `upstream`**");
    expect(west).toContain("`west/app/Kptfile`");
    // The downstream's check says so, once.
    const runs = upgradeRuns(s.deployRepo, s.deployRepo.heads.get("main")!).filter((r) =>
      r.output?.title?.includes("deleted"),
    );
    expect(runs.map((r) => [r.output?.title, r.conclusion])).toEqual([
      ["No upgrade for east/app: its upstream package was deleted", "neutral"],
      ["No upgrade for west/app: its upstream package was deleted", "neutral"],
    ]);
    // A newer tag of the old content opens nothing.
    s.blueprints.tags.set("base/v3", s.blueprints.heads.get("main")!);
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(openPulls(s.deployRepo)).toEqual([]);
    expect(s.deployRepo.heads.has(EAST)).toBe(false);
  });

  it("deleting the revision an upgrade pull request upgrades to closes it with a note (the older revision stays)", async () => {
    const s = await scenario();
    const v2 = publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    const pulls = openPulls(s.deployRepo);
    expect(pulls.map((p) => p.head).sort()).toEqual([EAST, WEST]);
    // rpkg del of base/v2: its tag goes, a deleted/ branch keeps its commit; base/v1 stays published.
    s.blueprints.tags.delete("base/v2");
    s.blueprints.heads.set("deleted/base/v2", v2);
    for (const outcome of ["obsolete", "up-to-date"]) {
      expect(await s.drain(s.job("org/blueprints", { type: "deleted", package: "base" }))).toEqual([
        "upstream:deleted:org/blueprints:base: 2 downstream(s) of base",
        `upstream:downstream:org/deploy:east/app: east/app: ${outcome}`,
        `upstream:downstream:org/deploy:west/app: west/app: ${outcome}`,
      ]);
    }
    expect(openPulls(s.deployRepo)).toEqual([]);
    const notes = s.deployRepo.comments.filter((c) => c.body.includes("porchlight:upgrade-obsolete"));
    expect(notes.map((c) => c.issue).sort()).toEqual(pulls.map((p) => p.number).sort());
    expect(notes[0]!.body).toContain("the newest published revision of `base` is `base/v1`");
    // The branches stay: nothing is lost.
    expect(s.deployRepo.heads.has(EAST)).toBe(true);
  });

  it("deleting every revision of the upstream package (rpkg del) ends the upgrade too, naming the kept commit", async () => {
    const s = await scenario();
    const v2 = publish(s.blueprints, "base/v2", { "base/deploy.yaml": deploy("nginx:1.27", 1) });
    await s.drain(s.job("org/blueprints", { type: "published", package: "base" }));
    expect(
      openPulls(s.deployRepo)
        .map((p) => p.head)
        .sort(),
    ).toEqual([EAST, WEST]);
    const v1 = s.blueprints.tags.get("base/v1")!;
    s.blueprints.tags.clear();
    s.blueprints.heads.set("deleted/base/v1", v1);
    s.blueprints.heads.set("deleted/base/v2", v2);
    // No webhook (say): the reconciliation pass finds it.
    expect(await s.drain(s.job("org/deploy", { type: "index" }))).toEqual([
      "upstream:index:org/deploy: 2 downstream package(s), 0 behind, 2 whose upstream has no revision left",
      "upstream:downstream:org/deploy:east/app: east/app: upstream-deleted",
      "upstream:downstream:org/deploy:west/app: west/app: upstream-deleted",
    ]);
    expect(openPulls(s.deployRepo)).toEqual([]);
    const note = s.deployRepo.comments.find((c) => c.body.includes("porchlight:upstream-deleted"))!.body;
    expect(note).toContain(
      "every published revision of it was deleted (`porchlight rpkg del`); its last published revision was `base/v2` (its commit is kept at branch `deleted/base/v2`).",
    );
  });

  it("an upstream directory with dot segments on the default branch ends with a porchlight/upgrade check, before any tag lookup", async () => {
    const h = upstreamHarness();
    const blueprints = h.inst.add("org/blueprints", { "base/Kptfile": KPTFILE });
    blueprints.tags.set("base/v1", blueprints.heads.get("main")!);
    const kptfile = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
upstream:
  type: git
  git:
    repo: https://github.com/org/blueprints
    directory: /../../x
    ref: v1
upstreamLock:
  type: git
  git:
    repo: https://github.com/org/blueprints
    directory: /../../x
    ref: v1
    commit: ${blueprints.heads.get("main")}
`;
    const deployRepo = h.inst.add("org/deploy", { "app/Kptfile": kptfile });
    expect(await h.drain(h.job("org/deploy", { type: "index" }))).toEqual([
      "upstream:index:org/deploy: 0 downstream package(s), 0 behind, 1 whose upstream is not read",
      expect.stringMatching(/^upstream:downstream:org\/deploy:app: app: blocked$/),
    ]);
    expect(h.inst.calls.filter((c) => c.endsWith("listTags"))).toEqual([]);
    const runs = upgradeRuns(deployRepo, deployRepo.heads.get("main")!);
    expect(runs.map((r) => r.conclusion)).toEqual(["neutral"]);
    expect(runs[0]!.output?.summary).toContain(
      'upstream directory "/../../x" is refused: it has dot segments',
    );
  });
});
