/**
 * PackageVariant reconciliation (in memory, across the repositories of an installation): clone,
 * upgrade and edit drafts, adoption and deletion policies, injectors, revisions `2` / `v2`, the
 * `porchlight/package-variants` check on the commit that changed the variants, and the removal of
 * the last variant of a repository.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { FakeRepo } from "../support/fake-repo.js";
import { upstreamHarness } from "../support/upstream-harness.js";

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: base
`;
const SETTINGS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  annotations:
    kpt.dev/config-injection: required
data:
  level: default
`;

const variant = (name: string, spec: string) => `apiVersion: config.porch.kpt.dev/v1alpha1
kind: PackageVariant
metadata:
  name: ${name}
spec:
${spec
  .trim()
  .split("\n")
  .map((l) => `  ${l}`)
  .join("\n")}
`;

function publish(repo: FakeRepo, tag: string, files: Record<string, string | null>): void {
  const { after } = repo.push({ branch: "main", changes: files, message: tag });
  repo.tags.set(tag, after);
}

async function scenario() {
  const h = upstreamHarness();
  const blueprints = h.inst.add("org/blueprints", {
    "base/Kptfile": KPTFILE,
    "base/settings.yaml": SETTINGS,
  });
  blueprints.tags.set("base/v1", blueprints.heads.get("main")!);
  publish(blueprints, "base/v2", { "base/README.md": "v2\n" });
  const deployRepo = h.inst.add("org/deploy", {
    "README.md": "# deploy\n",
    "package-variant-injectors/east.yaml":
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: east-settings\ndata:\n  level: debug\n",
  });
  /** Pushes to main and runs what the push's hint runs (the index job and what follows). */
  const push = async (changes: Record<string, string | null>) => {
    const { after } = deployRepo.push({ branch: "main", changes });
    await h.drain(h.job("org/deploy", { type: "index" }));
    return after;
  };
  const status = (sha: string) =>
    deployRepo.checkRuns.filter((r) => r.head_sha === sha && r.name === "porchlight/package-variants");
  const pulls = () => [...deployRepo.pulls.values()];
  return { ...h, blueprints, deployRepo, push, status, pulls };
}

describe("PackageVariant reconciliation", () => {
  it("clones with the variant's mutations, reports on the commit that changed it, and an edit of its packageContext proposes an edit", async () => {
    const s = await scenario();
    const spec = (region: string) => `
upstream: {repo: blueprints, package: base, revision: v1}
downstream: {repo: deploy, package: east/app}
packageContext:
  data: {region: ${region}}
  removeKeys: [zone]
pipeline:
  mutators:
    - name: labels
      image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0
      configMap: {team: payments}
labels: {team: payments}
annotations: {owner: payments}
injectors:
  - {version: v1, kind: ConfigMap, name: west-settings}
  - {group: "", kind: ConfigMap, name: east-settings}
`;
    const changed = await s.push({ "package-variants/east.yaml": variant("east", spec("us-east1")) });
    const branch = "drafts/east/app/variant-east";
    const head = s.deployRepo.heads.get(branch)!;
    const kptfile = parse(s.deployRepo.read(head, "east/app/Kptfile")!);
    expect(kptfile.upstreamLock.git.ref).toBe("base/v1");
    expect(kptfile.upstream.git.repo).toBe("https://github.com/org/blueprints");
    expect(kptfile.metadata.labels).toEqual({ team: "payments" });
    expect(kptfile.metadata.annotations).toEqual({
      owner: "payments",
      "porchlight.dev/package-variant": "east",
    });
    expect(kptfile.pipeline.mutators).toEqual([
      {
        image: "ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0",
        configMap: { team: "payments" },
        name: "PackageVariant.east.labels.0",
      },
    ]);
    expect(kptfile.info.readinessGates).toEqual([{ conditionType: "config.injection.ConfigMap.settings" }]);
    expect(kptfile.status.conditions).toEqual([
      {
        type: "config.injection.ConfigMap.settings",
        status: "True",
        reason: "ConfigInjected",
        message: 'injected resource "east-settings" from cluster',
      },
    ]);
    const settings = parse(s.deployRepo.read(head, "east/app/settings.yaml")!);
    expect(settings.data).toEqual({ level: "debug" });
    expect(settings.metadata.annotations["kpt.dev/injected-resource"]).toBe("east-settings");
    expect(parse(s.deployRepo.read(head, "east/app/package-context.yaml")!).data).toEqual({
      name: "app",
      // Porch's clone into a deployment repository generates name and package-path.
      "package-path": "east/app",
      region: "us-east1",
    });
    const [pull] = s.pulls();
    expect(pull.head).toBe(branch);
    expect(s.inst.pullText("org/deploy", pull.number).title).toBe(
      "PackageVariant east: clone east/app from base/v1",
    );
    const [run] = s.status(changed);
    expect(run.conclusion).toBe("success");
    expect(run.output?.summary).toContain(
      `| \`east\` | \`east/app\` | 🆕 clone proposed | #${pull.number} |`,
    );

    // Approve: the clone is merged; the variant is then current (no new draft).
    s.deployRepo.merge(pull.number);
    s.deployRepo.heads.delete(branch);
    await s.drain(s.job("org/deploy", { type: "variants" }));
    expect(s.deployRepo.heads.has(branch)).toBe(false);

    // The variant's packageContext changes → an edit draft.
    const edited = await s.push({ "package-variants/east.yaml": variant("east", spec("us-east2")) });
    const editHead = s.deployRepo.heads.get(branch)!;
    expect(parse(s.deployRepo.read(editHead, "east/app/package-context.yaml")!).data.region).toBe("us-east2");
    expect(s.deployRepo.diff("main", branch)).toEqual(["east/app/package-context.yaml"]);
    const edit = s.pulls().find((p) => p.state === "open")!;
    expect(s.inst.pullText("org/deploy", edit.number).title).toBe(
      "PackageVariant east: edit east/app from base/v1",
    );
    expect(s.status(edited)[0].output?.summary).toContain("| `east` | `east/app` | ✏️ edit proposed |");
  });

  it("a revision `2` upgrade keeps the downstream's local edit", async () => {
    const s = await scenario();
    await s.push({
      "package-variants/east.yaml": variant(
        "east",
        "upstream: {repo: org/blueprints, package: base, revision: 1}\ndownstream: {repo: org/deploy, package: east}",
      ),
    });
    const branch = "drafts/east/variant-east";
    s.deployRepo.merge([...s.deployRepo.pulls.values()][0].number);
    s.deployRepo.heads.delete(branch);
    const main = s.deployRepo.heads.get("main")!;
    await s.push({
      "east/settings.yaml": s.deployRepo
        .read(main, "east/settings.yaml")!
        .replace("level: default", "level: local"),
    });
    await s.push({
      "package-variants/east.yaml": variant(
        "east",
        "upstream: {repo: org/blueprints, package: base, revision: 2}\ndownstream: {repo: org/deploy, package: east}",
      ),
    });
    const head = s.deployRepo.heads.get(branch)!;
    expect(parse(s.deployRepo.read(head, "east/Kptfile")!).upstreamLock.git.ref).toBe("base/v2");
    expect(s.deployRepo.read(head, "east/README.md")).toBe("v2\n");
    expect(parse(s.deployRepo.read(head, "east/settings.yaml")!).data.level).toBe("local");
    const open = s.pulls().find((p) => p.state === "open")!;
    expect(s.inst.pullText("org/deploy", open.number).title).toBe(
      "PackageVariant east: upgrade east from base/v2",
    );
  });

  it("adopts an existing package only with adoptExisting", async () => {
    const s = await scenario();
    const existing = await s.clone({
      url: "https://github.com/org/blueprints",
      dir: "base",
      ref: "v1",
      name: "east",
      prefix: "east",
    });
    await s.push(existing);
    const spec = (policy: string) =>
      `upstream: {repo: blueprints, package: base, revision: 1}\ndownstream: {repo: deploy, package: east}\nadoptionPolicy: ${policy}\nlabels: {adopted: "yes"}`;
    const refused = await s.push({ "package-variants/east.yaml": variant("east", spec("adoptNone")) });
    expect(s.deployRepo.heads.has("drafts/east/variant-east")).toBe(false);
    const [run] = s.status(refused);
    expect(run.conclusion).toBe("failure");
    expect(run.output?.summary).toContain(
      "east exists and is not owned by this variant (adoptionPolicy adoptNone)",
    );
    await s.push({ "package-variants/east.yaml": variant("east", spec("adoptExisting")) });
    const head = s.deployRepo.heads.get("drafts/east/variant-east")!;
    const kptfile = parse(s.deployRepo.read(head, "east/Kptfile")!);
    expect(kptfile.metadata.annotations["porchlight.dev/package-variant"]).toBe("east");
    expect(kptfile.metadata.labels).toEqual({ adopted: "yes" });
  });

  it("removing a variant closes its draft under deletionPolicy delete (also the last one), keeps it under orphan", async () => {
    const s = await scenario();
    const spec = (pkg: string, policy: string) =>
      `upstream: {repo: blueprints, package: base, revision: 2}\ndownstream: {repo: deploy, package: ${pkg}}\ndeletionPolicy: ${policy}`;
    await s.push({
      "package-variants/keep.yaml": variant("keep", spec("keep", "orphan")),
      "package-variants/gone.yaml": variant("gone", spec("gone", "delete")),
    });
    expect(s.pulls().map((p) => p.head)).toEqual(["drafts/gone/variant-gone", "drafts/keep/variant-keep"]);
    await s.push({ "package-variants/gone.yaml": null });
    expect(s.deployRepo.heads.has("drafts/gone/variant-gone")).toBe(false);
    expect(s.pulls().map((p) => [p.head, p.state])).toEqual([
      ["drafts/gone/variant-gone", "closed"],
      ["drafts/keep/variant-keep", "open"],
    ]);
    // The last variant of the repository: its directory is now empty.
    const last = await s.push({ "package-variants/keep.yaml": null });
    expect(s.deployRepo.heads.has("drafts/keep/variant-keep")).toBe(true);
    expect(s.pulls()[1].state).toBe("open");
    expect(s.status(last)[0].output?.summary).toContain(
      "| `keep` | `keep` | variant removed: draft kept: deletionPolicy orphan: draft kept | - |",
    );
    // Tags of the upstream are never touched.
    expect([...s.blueprints.tags.keys()]).toEqual(["base/v1", "base/v2"]);
  });

  it("a clone pull request closed without merging is not reopened until the variant changes", async () => {
    const s = await scenario();
    const spec = (region: string) =>
      `upstream: {repo: blueprints, package: base}\ndownstream: {repo: deploy, package: east}\npackageContext: {data: {region: ${region}}}`;
    await s.push({ "package-variants/east.yaml": variant("east", spec("a")) });
    const [first] = s.pulls();
    s.deployRepo.close(first.number);
    const sha = await s.push({ "README.md": "# deploy, again\n" });
    expect(s.pulls().filter((p) => p.state === "open")).toEqual([]);
    expect(s.status(sha)[0].output?.summary).toContain(
      `| \`east\` | \`east\` | 🚫 proposal rejected: pull request #${first.number} was closed without merging`,
    );
    await s.push({ "package-variants/east.yaml": variant("east", spec("b")) });
    const open = s.pulls().filter((p) => p.state === "open");
    expect(open).toHaveLength(1);
    expect(open[0].number).not.toBe(first.number);
  });

  it("reports an invalid variant on the check, naming the file and field", async () => {
    const s = await scenario();
    const sha = await s.push({
      "package-variants/bad.yaml": variant(
        "bad",
        "upstream: {repo: blueprints, package: base, revision: latest}\ndownstream: {repo: other-org/x, package: p}",
      ),
      "package-variants/typo.yaml": variant("typo", "upstream: {repo: blueprints, packge: base}"),
      "package-variants/ws.yaml": variant(
        "ws",
        "upstream: {repo: blueprints, package: base, workspaceName: main}\ndownstream: {repo: deploy, package: ws}",
      ),
      "package-variants/old-set.yaml":
        "apiVersion: config.porch.kpt.dev/v1alpha1\nkind: PackageVariantSet\nmetadata:\n  name: old\n",
    });
    const [run] = s.status(sha);
    expect(run.conclusion).toBe("failure");
    expect(run.output?.summary).toContain(
      "spec.upstream.revision must name a published revision (2 or v2); spec.downstream.repo must be this repository (org/deploy)",
    );
    expect(run.output?.summary).toContain("package-variants/typo.yaml: PackageVariant typo: spec.upstream: ");
    expect(run.output?.summary).toContain("spec.upstream.workspaceName is not supported");
    expect(run.output?.summary).toContain(
      "package-variants/old-set.yaml: config.porch.kpt.dev/v1alpha1 PackageVariantSet is not reconciled",
    );
    expect(s.pulls()).toEqual([]);
  });

  it("reports a configured variants or injectors directory that lies inside a package (it would be rendered as its content)", async () => {
    const s = await scenario();
    s.deployRepo.config = "packageVariants:\n  directory: ops/variants/\n  injectors: shared/inject/\n";
    const sha = await s.push({
      "ops/Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ops\n",
      "ops/variants/east.yaml": variant(
        "east",
        "upstream: {repo: blueprints, package: base, revision: v1}\ndownstream: {repo: deploy, package: east/app}",
      ),
      "shared/inject/x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
    });
    const [run] = s.status(sha);
    expect(run.conclusion).toBe("failure");
    expect(run.output?.summary).toContain(
      '.github/porchlight.yml packageVariants.directory "ops/variants/" lies inside package "ops": its files would be rendered as that package\'s content; name a directory outside every package',
    );
    expect(run.output?.summary).not.toContain("packageVariants.injectors");
    // The variant itself is still reconciled: nothing is dropped silently.
    expect(s.deployRepo.heads.has("drafts/east/app/variant-east")).toBe(true);
  });
});
