/**
 * End-to-end: upstream → downstream on a local GitHub (../shared/tools/fake-github), the BUILT app run
 * with `npm start`. A blueprint `base` is published (tag `base/v1`); a downstream package is cloned
 * from it with `porchlight pkg get` (git over HTTP) and edited; porchlight's publish of `base/v2` (a
 * merged draft) opens an upgrade pull request with the merged, rendered content and green checks; a
 * person's tag push of `base/v3` changing the field the downstream edited takes upstream's value and
 * is flagged at the field; a person's push to the upgrade draft is never overwritten; a PackageVariant
 * clones a package, a change of its packageContext proposes an edit, and a variant with a local edit
 * takes a new upstream revision. Skips visibly without the fake.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readTree } from "../../src/pkg/disk.js";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { type Any, fakeGitHubAvailable, loadScenario } from "../helpers/fake-github.js";

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: base
info:
  description: web blueprint
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0
      configMap:
        app: web
`;
const deploy = (image: string, replicas: number) => `apiVersion: apps/v1
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

const WAIT = { timeoutMs: 90_000, intervalMs: 500 };

describe.skipIf(!fakeGitHubAvailable)("upgrade pull requests and PackageVariants (fake GitHub)", () => {
  let scenario: Any;
  let gh: Any;
  let app: Any;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-upstream-e2e-"));
  const work = mkdtempSync(path.join(os.tmpdir(), "porchlight-upstream-work-"));
  let cli = "";

  const head = async (repo: string, branch: string): Promise<string | undefined> =>
    (await gh.request("GET", `/repos/acme/${repo}/branches/${branch}`)).data?.commit?.sha;
  const openPulls = async (repo: string): Promise<Any[]> =>
    (await gh.request("GET", `/repos/acme/${repo}/pulls?state=open`)).data ?? [];
  const tag = async (repo: string, name: string, branch = "main") =>
    gh.request("POST", `/repos/acme/${repo}/git/refs`, {
      ref: `refs/tags/${name}`,
      sha: await head(repo, branch),
    });
  const runsOf = async (repo: string, sha: string, name: string) =>
    (await gh.checkRuns("acme", repo, sha)).filter((r: Any) => r.name === name);
  /** Waits until the draft's head is rendered and carries both checks; returns the head. */
  const renderedHead = async (repo: string, branch: string): Promise<string> =>
    scenario.waitFor(
      async () => {
        const sha = await head(repo, branch);
        if (!sha) return null;
        const render = await runsOf(repo, sha, "porchlight/render");
        const upgrade = await runsOf(repo, sha, "porchlight/upgrade");
        return render.some((r: Any) => r.status === "completed") && upgrade.length > 0 ? sha : null;
      },
      { ...WAIT, message: `a rendered ${branch} with its porchlight/render and porchlight/upgrade checks` },
    );

  beforeAll(async () => {
    cli = ensureBuiltCli();
    scenario = await loadScenario();
    gh = await scenario.startFakeGitHub({ dataDir });
    await gh.setFlags({ httpCloneUrls: true, gitAnonymousRead: true });
    await gh.createRepo("acme", "blueprints", {
      "base/Kptfile": KPTFILE,
      "base/deploy.yaml": deploy("nginx:1.25", 1),
      "base/README.md": "v1\n",
    });
    await tag("blueprints", "base/v1");
    // The downstream: `porchlight pkg get` over git HTTP from the fake, then a local edit.
    const dest = path.join(work, "app");
    await promisify(execFile)(
      process.execPath,
      [cli, "pkg", "get", `${gh.url}/acme/blueprints.git/base@v1`, dest],
      {
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
      },
    );
    const files: Record<string, string> = {};
    for (const [file, content] of await readTree(dest)) files[`east/app/${file}`] = content.toString("utf8");
    files["east/app/deploy.yaml"] = files["east/app/deploy.yaml"].replace("replicas: 1", "replicas: 3");
    await gh.createRepo("acme", "deploy", { "README.md": "# deployments\n", ...files });
    app = await gh.startApp({
      cmd: ["npm", "start"],
      cwd: repoRoot,
      readyTimeoutMs: 90_000,
      hooks: { tagPushEvents: true },
    });
    await gh.idle({ quietMs: 1500, timeoutMs: 120_000 });
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("porchlight's publish of base/v2 (a merged draft) opens a rendered upgrade pull request that keeps the local edit", async () => {
    // The app's own tag is not echoed back as a push here: the publish itself must start the upgrades.
    await gh.registerHooks({ url: app.url, secret: app.secret, tagPushEvents: false });
    const draft = "drafts/base/nginx-127";
    await gh.pushFiles(
      "acme",
      "blueprints",
      draft,
      { "base/deploy.yaml": deploy("nginx:1.27", 1), "base/README.md": "v2\n" },
      "v2",
      { from: "main" },
    );
    const proposal = await gh.createPullRequest("acme", "blueprints", {
      head: draft,
      base: "main",
      title: "nginx 1.27",
    });
    await scenario.waitFor(
      async () => {
        const sha = await head("blueprints", draft);
        const runs = sha ? await runsOf("blueprints", sha, "porchlight/render") : [];
        return runs.some((r: Any) => r.conclusion === "success") ? sha : null;
      },
      { ...WAIT, message: "the rendered upstream draft" },
    );
    await gh.merge("acme", "blueprints", proposal.number, "merge");
    const branch = "drafts/east/app/upstream-upgrade";
    const pull = await scenario.waitFor(
      async () => (await openPulls("deploy")).find((p: Any) => p.head.ref === branch) ?? null,
      { ...WAIT, message: "the upgrade pull request" },
    );
    const tags = (await gh.request("GET", "/repos/acme/blueprints/tags")).data.map((t: Any) => t.name);
    expect(tags).toContain("base/v2");
    await gh.registerHooks({ url: app.url, secret: app.secret, tagPushEvents: true });
    expect(pull.title).toBe("Upgrade east/app to base/v2 (acme/blueprints)");
    expect(pull.body).toContain("`acme/blueprints` published `base/v2`; `east/app` is on `base/v1`");
    expect(pull.body).toContain("- modified `deploy.yaml`");
    const sha = await renderedHead("deploy", branch);
    const deployed = parse(await gh.gitShow("acme", "deploy", sha, "east/app/deploy.yaml"));
    expect(deployed.spec.replicas).toBe(3);
    expect(deployed.spec.template.spec.containers[0].image).toBe("nginx:1.27");
    expect(deployed.metadata.labels).toEqual({ app: "web" });
    expect(await gh.gitShow("acme", "deploy", sha, "east/app/README.md")).toBe("v2\n");
    const kptfile = parse(await gh.gitShow("acme", "deploy", sha, "east/app/Kptfile"));
    expect(kptfile.upstreamLock.git.ref).toBe("base/v2");
    expect((await runsOf("deploy", sha, "porchlight/render")).map((r: Any) => r.conclusion)).toContain(
      "success",
    );
    expect((await runsOf("deploy", sha, "porchlight/upgrade")).map((r: Any) => r.conclusion)).toContain(
      "success",
    );
  }, 180_000);

  it("a person's tag push of base/v3 changing the field the downstream edited: upstream's value, flagged at the field", async () => {
    const { after } = await gh.pushFiles(
      "acme",
      "blueprints",
      "main",
      { "base/deploy.yaml": deploy("nginx:1.27", 2) },
      "v3",
    );
    // A person's `git push origin base/v3` (the fake's control API delivers its push event).
    await gh.git("acme", "blueprints", ["tag", "base/v3", after]);
    await gh.control("POST", "pushed", {
      owner: "acme",
      repo: "blueprints",
      ref: "refs/tags/base/v3",
      before: "0".repeat(40),
      after,
    });
    const branch = "drafts/east/app/upstream-upgrade";
    const pull = await scenario.waitFor(
      async () =>
        (await openPulls("deploy")).find((p: Any) => p.head.ref === branch && p.title.includes("base/v3")) ??
        null,
      { ...WAIT, message: "the upgrade pull request updated to base/v3" },
    );
    expect((await openPulls("deploy")).filter((p: Any) => p.head.ref === branch)).toHaveLength(1);
    expect(pull.body).toContain("your `3` becomes upstream's `2` (was `1`)");
    const sha = await renderedHead("deploy", branch);
    const deployed = parse(await gh.gitShow("acme", "deploy", sha, "east/app/deploy.yaml"));
    expect(deployed.spec.replicas).toBe(2);
    const [upgrade] = await runsOf("deploy", sha, "porchlight/upgrade");
    expect(upgrade.conclusion).toBe("neutral");
    const text = await gh.gitShow("acme", "deploy", sha, "east/app/deploy.yaml");
    const line = text.split("\n").findIndex((l: string) => l.includes("replicas:")) + 1;
    expect(upgrade.annotations).toEqual([
      expect.objectContaining({
        path: "east/app/deploy.yaml",
        start_line: line,
        annotation_level: "warning",
      }),
    ]);
  }, 180_000);

  it("never overwrites a person's push to the upgrade draft: it comments instead", async () => {
    const branch = "drafts/east/app/upstream-upgrade";
    const { after } = await gh.pushFiles(
      "acme",
      "deploy",
      branch,
      { "east/app/notes.txt": "mine\n" },
      "My note",
    );
    // Its render: a porchlight/render verdict on the head (a render commit when the output changed).
    const rendered = await scenario.waitFor(
      async () => {
        const sha = await head("deploy", branch);
        const runs = sha ? await runsOf("deploy", sha, "porchlight/render") : [];
        return runs.some((r: Any) => r.status === "completed") ? sha : null;
      },
      { ...WAIT, message: "the render of the person's push" },
    );
    expect([after, rendered]).toContain(rendered);
    await gh.pushFiles("acme", "blueprints", "main", { "base/README.md": "v4\n" }, "v4");
    await tag("blueprints", "base/v4");
    const pull = (await openPulls("deploy")).find((p: Any) => p.head.ref === branch);
    const comment = await scenario.waitFor(
      async () => {
        const comments =
          (await gh.request("GET", `/repos/acme/deploy/issues/${pull.number}/comments`)).data ?? [];
        return (
          comments.find(
            (c: Any) => c.body.includes("porchlight:upgrade-held") && c.body.includes("base/v4"),
          ) ?? null
        );
      },
      { ...WAIT, message: "the comment on the held upgrade, naming base/v4" },
    );
    const comments =
      (await gh.request("GET", `/repos/acme/deploy/issues/${pull.number}/comments`)).data ?? [];
    expect(comments.filter((c: Any) => c.body.includes("porchlight:upgrade-held"))).toEqual([comment]);
    await gh.idle({ quietMs: 1500 });
    expect(await head("deploy", branch)).toBe(rendered);
  }, 180_000);

  it("a PackageVariant clones its downstream; a change of its packageContext proposes an edit", async () => {
    const variant = (region: string) => `apiVersion: config.porch.kpt.dev/v1alpha1
kind: PackageVariant
metadata:
  name: west
spec:
  upstream:
    repo: blueprints
    package: base
    revision: 2
  downstream:
    repo: deploy
    package: west/app
  packageContext:
    data:
      region: ${region}
`;
    await gh.pushFiles(
      "acme",
      "deploy",
      "main",
      { "package-variants/west.yaml": variant("us-west1") },
      "Add variant",
    );
    const branch = "drafts/west/app/variant-west";
    const pull = await scenario.waitFor(
      async () => (await openPulls("deploy")).find((p: Any) => p.head.ref === branch) ?? null,
      { ...WAIT, message: "the variant's clone pull request" },
    );
    expect(pull.title).toBe("PackageVariant west: clone west/app from base/v2");
    const sha = await renderedHead("deploy", branch);
    const context = parse(await gh.gitShow("acme", "deploy", sha, "west/app/package-context.yaml"));
    // Porch's clone sets the package context: data.name and data.package-path of the new package.
    expect(context.data).toEqual({ name: "app", "package-path": "west/app", region: "us-west1" });
    const kptfile = parse(await gh.gitShow("acme", "deploy", sha, "west/app/Kptfile"));
    expect(kptfile.metadata.annotations["porchlight.dev/package-variant"]).toBe("west");
    expect(kptfile.upstreamLock.git.ref).toBe("base/v2");
    // Approve: merge the clone, then edit the variant.
    await gh.merge("acme", "deploy", pull.number, "merge");
    await scenario.waitFor(async () => ((await head("deploy", branch)) ? null : true), {
      ...WAIT,
      message: "the published clone's draft branch deleted",
    });
    await gh.pushFiles(
      "acme",
      "deploy",
      "main",
      { "package-variants/west.yaml": variant("us-west2") },
      "Move west",
    );
    const edit = await scenario.waitFor(
      async () => (await openPulls("deploy")).find((p: Any) => p.head.ref === branch) ?? null,
      { ...WAIT, message: "the variant's edit pull request" },
    );
    expect(edit.title).toBe("PackageVariant west: edit west/app from base/v2");
    const editSha = await renderedHead("deploy", branch);
    const edited = parse(await gh.gitShow("acme", "deploy", editSha, "west/app/package-context.yaml"));
    expect(edited.data.region).toBe("us-west2");
    const status = await scenario.waitFor(
      async () =>
        (
          await runsOf("deploy", (await head("deploy", "main")) as string, "porchlight/package-variants")
        )[0] ?? null,
      { ...WAIT, message: "the porchlight/package-variants check on main" },
    );
    expect(status.conclusion).toBe("success");
    expect(status.output.summary).toContain("| `west` | `west/app` | ✏️ edit proposed |");
    // Removing the variant (deletionPolicy delete, the default) closes its draft's pull request and deletes the branch.
    await gh.pushFiles("acme", "deploy", "main", { "package-variants/west.yaml": null }, "Remove west");
    await scenario.waitFor(async () => ((await head("deploy", branch)) ? null : true), {
      ...WAIT,
      message: "the removed variant's draft branch deleted",
    });
    const closed = (await gh.request("GET", `/repos/acme/deploy/pulls/${edit.number}`)).data;
    expect(closed.state).toBe("closed");
    expect(await gh.gitShow("acme", "deploy", "main", "west/app/Kptfile")).toContain(
      "porchlight.dev/package-variant: west",
    );
  }, 240_000);

  it("a PackageVariant that follows its upstream proposes the upgrade of its locally edited downstream on publish", async () => {
    const variant = `apiVersion: config.porch.kpt.dev/v1alpha1
kind: PackageVariant
metadata:
  name: south
spec:
  upstream:
    repo: blueprints
    package: base
  downstream:
    repo: deploy
    package: south/app
`;
    await gh.pushFiles("acme", "deploy", "main", { "package-variants/south.yaml": variant }, "Add south");
    const branch = "drafts/south/app/variant-south";
    const clone = await scenario.waitFor(
      async () => (await openPulls("deploy")).find((p: Any) => p.head.ref === branch) ?? null,
      { ...WAIT, message: "the south clone pull request" },
    );
    expect(clone.title).toBe("PackageVariant south: clone south/app from base/v4");
    await renderedHead("deploy", branch);
    await gh.merge("acme", "deploy", clone.number, "merge");
    await scenario.waitFor(async () => ((await head("deploy", branch)) ? null : true), {
      ...WAIT,
      message: "the south clone published",
    });
    const local = (await gh.gitShow("acme", "deploy", "main", "south/app/deploy.yaml")).replace(
      "image: nginx:1.27",
      "image: nginx:1.27-local",
    );
    await gh.pushFiles("acme", "deploy", "main", { "south/app/deploy.yaml": local }, "Local image");
    await gh.pushFiles("acme", "blueprints", "main", { "base/README.md": "v5\n" }, "v5");
    await tag("blueprints", "base/v5");
    const upgrade = await scenario.waitFor(
      async () => (await openPulls("deploy")).find((p: Any) => p.head.ref === branch) ?? null,
      { ...WAIT, message: "the south upgrade pull request" },
    );
    expect(upgrade.title).toBe("PackageVariant south: upgrade south/app from base/v5");
    const sha = await renderedHead("deploy", branch);
    expect(await gh.gitShow("acme", "deploy", sha, "south/app/README.md")).toBe("v5\n");
    expect(await gh.gitShow("acme", "deploy", sha, "south/app/deploy.yaml")).toContain(
      "image: nginx:1.27-local",
    );
    expect((await runsOf("deploy", sha, "porchlight/render")).map((r: Any) => r.conclusion)).toContain(
      "success",
    );
  }, 300_000);

  it("a proposed upstream change shows its blast radius: the downstreams a publish would upgrade", async () => {
    await gh.pushFiles(
      "acme",
      "blueprints",
      "drafts/base/bump",
      { "base/deploy.yaml": deploy("nginx:1.29", 5) },
      "Bump",
      {
        from: "main",
      },
    );
    const pull = await gh.createPullRequest("acme", "blueprints", {
      head: "drafts/base/bump",
      base: "main",
      title: "Bump",
    });
    const run = await scenario.waitFor(
      async () => {
        const sha = await head("blueprints", "drafts/base/bump");
        const runs = sha ? await runsOf("blueprints", sha, "porchlight/downstreams") : [];
        return runs[0] ?? null;
      },
      { ...WAIT, message: `the porchlight/downstreams check of pull request #${pull.number}` },
    );
    expect(run.conclusion).toBe("neutral");
    expect(run.output.summary).toContain("`acme/deploy/east/app`");
    expect(run.output.summary).toContain("`acme/deploy/south/app`");
    expect(run.output.title).toMatch(/would lose local edits/);
    // the graph GitHub draws in the check: the proposed package to each downstream
    expect(run.output.summary).toMatch(/```mermaid\nflowchart LR\n {2}u0\["base<br\/>proposed change"\]\n/);
    expect(run.output.summary).toMatch(/d\d\["acme\/deploy\/east\/app<br\/>on v\d+ · /);
  }, 180_000);

  it("porchlight rpkg get --downstreams lists each package's downstreams and the revision each is on", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cli, "rpkg", "get", "--repo", "acme/blueprints", "--downstreams"],
      { env: { ...process.env, GITHUB_TOKEN: await gh.installationToken(), GITHUB_API_URL: gh.apiUrl } },
    );
    const rows = stdout
      .trim()
      .split("\n")
      .map((l: string) => l.split(/\s{3,}/));
    expect(rows[0]).toEqual(["PACKAGE", "LATEST", "DOWNSTREAM", "REVISION", "BEHIND", "VARIANT"]);
    expect(rows.slice(1)).toEqual([
      ["base", "v5", "acme/deploy/east/app", "v1", "4", "-"],
      ["base", "v5", "acme/deploy/south/app", "v4", "1", "south"],
      ["base", "v5", "acme/deploy/west/app", "v2", "3", "west"],
    ]);
    const graph = await promisify(execFile)(
      process.execPath,
      [cli, "rpkg", "get", "--repo", "acme/blueprints", "--downstreams", "-o", "mermaid"],
      { env: { ...process.env, GITHUB_TOKEN: await gh.installationToken(), GITHUB_API_URL: gh.apiUrl } },
    );
    expect(graph.stdout).toContain(
      [
        "flowchart LR",
        '  u0["base<br/>latest v5"]',
        '  d0["acme/deploy/east/app<br/>v1 · 4 behind"]',
        '  d1["acme/deploy/south/app<br/>v4 · 1 behind · variant south"]',
        '  d2["acme/deploy/west/app<br/>v2 · 3 behind · variant west"]',
        "  u0 --> d0",
        "  u0 --> d1",
        "  u0 --> d2",
        "  class u0 upstream",
        "  class d0,d1,d2 behind",
      ].join("\n"),
    );
    // From the downstream side: the owning variant, as Porch's owner reference of the PackageRevision.
    const yaml = await promisify(execFile)(
      process.execPath,
      [cli, "rpkg", "get", "--repo", "acme/deploy", "-o", "yaml"],
      { env: { ...process.env, GITHUB_TOKEN: await gh.installationToken(), GITHUB_API_URL: gh.apiUrl } },
    );
    const owners = Object.fromEntries(
      parse(yaml.stdout).items.map((i: Any) => [
        `${i.spec.packageName}@${i.spec.workspaceName}`,
        i.metadata.ownerReferences?.map((o: Any) => `${o.kind}/${o.name}`) ?? [],
      ]),
    );
    expect(owners).toMatchObject({
      "east/app@main": [],
      "south/app@main": ["PackageVariant/south"],
      "west/app@main": ["PackageVariant/west"],
    });
  }, 60_000);

  it("with upgrades.autoMerge, a rendered upgrade that overrides no local edit is merged and published", async () => {
    const CACHE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: cache\n";
    const cm = (size: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cache\ndata:\n  size: "${size}"\n`;
    const { after } = await gh.pushFiles(
      "acme",
      "blueprints",
      "main",
      { "cache/Kptfile": CACHE, "cache/cm.yaml": cm("1Gi") },
      "cache",
    );
    await gh.request("POST", "/repos/acme/blueprints/git/refs", { ref: "refs/tags/cache/v1", sha: after });
    const dest = path.join(work, "auto");
    await promisify(execFile)(
      process.execPath,
      [cli, "pkg", "get", `${gh.url}/acme/blueprints.git/cache@v1`, dest],
      { env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } },
    );
    await gh.createRepo("acme", "auto", { ".github/porchlight.yml": "upgrades:\n  autoMerge: true\n" });
    // The clone is committed and pushed: the push indexes it as a downstream of cache.
    const files: Record<string, string> = {};
    for (const [file, content] of await readTree(dest)) files[`cache/${file}`] = content.toString("utf8");
    await gh.pushFiles("acme", "auto", "main", files, "cache from blueprints cache/v1");
    await gh.idle({ quietMs: 1500, timeoutMs: 60_000 });
    const v2 = await gh.pushFiles("acme", "blueprints", "main", { "cache/cm.yaml": cm("2Gi") }, "cache v2");
    await gh.request("POST", "/repos/acme/blueprints/git/refs", { ref: "refs/tags/cache/v2", sha: v2.after });
    const tag = await scenario
      .waitFor(
        async () =>
          (await gh.request("GET", "/repos/acme/auto/tags")).data?.find((t: Any) => t.name === "cache/v1") ??
          null,
        { ...WAIT, message: "the merged upgrade published as cache/v1 of acme/auto" },
      )
      .catch((e: Error) => {
        console.log(app.logs.filter((l: string) => l.includes("auto") || l.includes("cache")).join("\n"));
        throw e;
      });
    const pulls = (await gh.request("GET", "/repos/acme/auto/pulls?state=closed")).data;
    expect(pulls.map((p: Any) => [p.head.ref, Boolean(p.merged_at)])).toEqual([
      ["drafts/cache/upstream-upgrade", true],
    ]);
    const cmAtTag = parse(await gh.gitShow("acme", "auto", tag.commit.sha, "cache/cm.yaml"));
    expect(cmAtTag.data.size).toBe("2Gi");
  }, 180_000);

  it("deleting base from the blueprints' default branch closes east's upgrade pull request with one note and says so on its check", async () => {
    const branch = "drafts/east/app/upstream-upgrade";
    const pull = (await openPulls("deploy")).find((p: Any) => p.head.ref === branch);
    expect(pull).toBeDefined();
    const removed = Object.fromEntries(
      ["base/Kptfile", "base/deploy.yaml", "base/README.md"].map((f) => [f, null]),
    );
    const { after } = await gh.pushFiles("acme", "blueprints", "main", removed, "Remove base");
    const closed = await scenario.waitFor(
      async () => {
        const p = (await gh.request("GET", `/repos/acme/deploy/pulls/${pull.number}`)).data;
        return p.state === "closed" ? p : null;
      },
      { ...WAIT, message: "east's upgrade pull request closed" },
    );
    expect(closed.merged_at).toBeNull();
    // Redelivered: nothing posted twice.
    const [push] = (await gh.deliveries({ event: "push", payload: true })).filter(
      (d: Any) => d.payload.after === after,
    );
    await gh.idle({ quietMs: 1500 });
    await gh.redeliver(push.delivery);
    await gh.idle({ quietMs: 1500 });
    const comments = (await gh.request("GET", `/repos/acme/deploy/issues/${pull.number}/comments`)).data;
    const notes = comments.filter((c: Any) => c.body.includes("porchlight:upstream-deleted"));
    expect(notes).toHaveLength(1);
    expect(notes[0].body).toContain(
      `The upstream package \`base\` of \`acme/blueprints\` was deleted: its Kptfile is not on \`main\` at commit \`${after.slice(0, 7)}\`; its last published revision was \`base/v5\`.`,
    );
    const [run] = (
      await runsOf("deploy", (await head("deploy", "main")) as string, "porchlight/upgrade")
    ).filter((r: Any) => r.output.title === "No upgrade for east/app: its upstream package was deleted");
    expect(run?.conclusion).toBe("neutral");
    expect(await head("deploy", branch)).toBeDefined();
    expect((await openPulls("deploy")).filter((p: Any) => p.head.ref === branch)).toEqual([]);
  }, 120_000);

  it("made no request GitHub would refuse (request bodies valid, every webhook answered)", async () => {
    await gh.idle({ quietMs: 1500 });
    const { violations } = await gh.violations();
    expect(violations.filter((v: Any) => v.kind !== "note")).toEqual([]);
    const deliveries = await gh.deliveries();
    expect(deliveries.filter((d: Any) => d.status !== 200)).toEqual([]);
  });
});
