import { describe, expect, it } from "vitest";
import { defaultMergeSchemas } from "../../src/pkg/merge3/default-schemas.js";
import { UpdateError, updatePackage } from "../../src/pkg/update.js";
import { MemoryUpstream, texts, tree } from "./helpers.js";

const kptfile = (extra = "") => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
upstream:
  type: git
  git:
    repo: https://example.com/blueprints
    directory: /base
    ref: v1
  updateStrategy: resource-merge
upstreamLock:
  type: git
  git:
    repo: https://example.com/blueprints
    directory: /base
    ref: base/v1
    commit: c1
${extra}`;

const cm = (name: string, data: string, comment = "") =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:${comment}\n  name: ${name}\ndata:\n${data}`;

function upstream(v1: Record<string, string>, v2: Record<string, string>) {
  const prefix = (files: Record<string, string>) =>
    tree(Object.fromEntries(Object.entries(files).map(([k, v]) => [`base/${k}`, v])));
  return new MemoryUpstream({
    v1: { commit: "c1", files: prefix(v1) },
    v2: { commit: "c2", files: prefix(v2) },
  });
}

const run = (files: Record<string, string>, up: MemoryUpstream, strategy?: string) =>
  updatePackage({
    files: tree(files),
    name: "app",
    ref: "v2",
    strategy,
    fetcher: up,
    schemas: defaultMergeSchemas(),
  });

describe("updatePackage", () => {
  it("fast-forwards a rendered package: the render status is not a local change (kpt 1.0), and the stale status goes", async () => {
    const status = `status:
  conditions:
    - type: Rendered
      status: "True"
      reason: RenderSuccess
  renderStatus:
    mutationSteps:
      - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:latest
        exitCode: 0
`;
    const up = upstream({ "a.yaml": cm("a", "  k: v\n") }, { "a.yaml": cm("a", "  k: w\n") });
    const result = await run({ Kptfile: kptfile(status), "a.yaml": cm("a", "  k: v\n") }, up, "fast-forward");
    const out = texts(result.files);
    expect(out["a.yaml"]).toContain("k: w");
    expect(out.Kptfile).not.toContain("status:");
    expect(out.Kptfile).toContain("    ref: v2\n  updateStrategy: fast-forward\n");
    expect(out.Kptfile).toContain("    ref: v2\n    commit: c2\n");
  });

  it("reports every resource-level outcome: an upstream rename of a resource you edited keeps yours and adds upstream's", async () => {
    const ns = (name: string, label = "") =>
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n${label}`;
    const up = upstream(
      { "ns.yaml": ns("old"), "gone.yaml": cm("gone", "  k: v\n") },
      { "ns.yaml": ns("new"), "extra.yaml": cm("extra", "  k: v\n") },
    );
    const result = await run(
      {
        Kptfile: kptfile(),
        "ns.yaml": ns("old", "  labels:\n    team: mine\n"),
        "gone.yaml": cm("gone", "  k: v\n"),
        "mine.yaml": cm("mine", "  k: v\n"),
      },
      up,
    );
    const kinds = result.outcomes
      .map((o) => `${o.kind} ${o.file} ${o.resource.kind}/${o.resource.name}`)
      .sort();
    expect(kinds).toEqual([
      "added-locally mine.yaml ConfigMap/mine",
      "added-upstream extra.yaml ConfigMap/extra",
      "added-upstream ns.yaml Namespace/new",
      "deleted-upstream gone.yaml ConfigMap/gone",
      "kept-changed ns.yaml Namespace/old",
    ]);
    const out = texts(result.files);
    expect(out["ns.yaml"]).toContain("name: old");
    expect(out["ns.yaml"]).toContain("name: new");
    expect(out["gone.yaml"]).toBeUndefined();
  });

  it("reports each local edit that upstream's value overrides, with file and resource", async () => {
    const up = upstream({ "a.yaml": cm("a", "  k: v\n") }, { "a.yaml": cm("a", "  k: upstream\n") });
    const result = await run({ Kptfile: kptfile(), "a.yaml": cm("a", "  k: mine\n") }, up);
    expect(texts(result.files)["a.yaml"]).toContain("k: upstream");
    expect(result.overrides).toEqual([
      {
        file: "a.yaml",
        resource: { apiVersion: "v1", kind: "ConfigMap", namespace: "", name: "a" },
        path: ["data", "k"],
        kind: "changed",
        local: "mine",
        upstream: "upstream",
        original: "v",
      },
    ]);
  });

  it("matches a resource renamed locally to its upstream by the kpt-merge comment", async () => {
    const up = upstream({ "a.yaml": cm("a", "  k: v\n  x: 1\n") }, { "a.yaml": cm("a", "  k: v\n  x: 2\n") });
    const local = cm("renamed", "  k: v\n  x: 1\n", " # kpt-merge: /a");
    const out = texts((await run({ Kptfile: kptfile(), "a.yaml": local }, up)).files);
    expect(out["a.yaml"]).toContain("metadata: # kpt-merge: /a\n  name: renamed\n");
    expect(out["a.yaml"]).toContain("  x: 2\n");
  });

  it("removes a resource deleted upstream only when the local copy is unchanged", async () => {
    const v1 = { "a.yaml": cm("a", "  k: v\n"), "b.yaml": cm("b", "  k: v\n") };
    const up = upstream(v1, {});
    const out = texts(
      (
        await run(
          { Kptfile: kptfile(), "a.yaml": cm("a", "  k: v\n"), "b.yaml": cm("b", "  k: edited\n") },
          up,
        )
      ).files,
    );
    expect(out["a.yaml"]).toBeUndefined();
    expect(out["b.yaml"]).toContain("k: edited");
  });

  it("keeps a resource deleted locally deleted, and adds one added upstream", async () => {
    const up = upstream(
      { "a.yaml": cm("a", "  k: v\n") },
      { "a.yaml": cm("a", "  k: w\n"), "c.yaml": cm("c", "  n: 1\n") },
    );
    const out = texts((await run({ Kptfile: kptfile() }, up)).files);
    expect(out["a.yaml"]).toBeUndefined();
    expect(out["c.yaml"]).toContain("metadata: # kpt-merge: /c\n");
  });

  it("fails on a subpackage added both upstream and locally, leaving the Kptfile's new ref as kpt does", async () => {
    const sub = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: sub\n";
    const up = upstream({}, { "sub/Kptfile": sub });
    const err = await run({ Kptfile: kptfile(), "sub/Kptfile": sub }, up).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpdateError);
    expect((err as UpdateError).message).toBe('subpackage "sub" added in both upstream and local');
    expect(texts((err as UpdateError).files).Kptfile).toContain("    ref: v2\n");
  });

  it("updates a subpackage that has its own upstream from that upstream", async () => {
    const dbKptfile = (commit: string) => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: db
upstream:
  type: git
  git:
    repo: https://example.com/databases
    directory: /mysql
    ref: main
  updateStrategy: resource-merge
upstreamLock:
  type: git
  git:
    repo: https://example.com/databases
    directory: /mysql
    ref: main
    commit: ${commit}
`;
    const blueprints = upstream({ "a.yaml": cm("a", "  k: v\n") }, { "a.yaml": cm("a", "  k: v\n") });
    const databases = new MemoryUpstream({
      d1: { commit: "d1", files: tree({ "mysql/s.yaml": cm("s", "  size: small\n") }) },
      main: { commit: "d2", files: tree({ "mysql/s.yaml": cm("s", "  size: large\n") }) },
    });
    const fetcher = {
      fetch: (spec: { repo: string; directory: string; ref: string }) =>
        (spec.repo.endsWith("databases") ? databases : blueprints).fetch(spec),
    };
    const result = await updatePackage({
      files: tree({
        Kptfile: kptfile(),
        "a.yaml": cm("a", "  k: v\n"),
        "db/Kptfile": dbKptfile("d1"),
        "db/s.yaml": cm("s", "  size: small\n"),
      }),
      name: "app",
      ref: "v2",
      fetcher,
      schemas: defaultMergeSchemas(),
    });
    const out = texts(result.files);
    expect(result.packages).toBe(2);
    expect(out["db/s.yaml"]).toContain("size: large");
    expect(out["db/Kptfile"]).toContain("    ref: main\n    commit: d2\n");
    expect(databases.requests.map((r) => r.ref)).toEqual(["main", "d1"]);
  });

  it("fails a merge of fields of different kinds naming file, resource and field, leaving the new ref as kpt does", async () => {
    const up = upstream(
      { "a.yaml": cm("a", "  k: v\n") },
      { "a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: text\n" },
    );
    const err = await run({ Kptfile: kptfile(), "a.yaml": cm("a", "  k: v\n  l: w\n") }, up).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpdateError);
    expect((err as UpdateError).message).toBe(
      "a.yaml: ConfigMap a: field data is a map in one version and a value in another",
    );
    const out = texts((err as UpdateError).files);
    expect(out.Kptfile).toContain("    ref: v2\n");
    expect(out["a.yaml"]).toContain("metadata: # kpt-merge: /a\n");
  });

  it("refuses a package without upstream", async () => {
    const up = upstream({}, {});
    await expect(
      run({ Kptfile: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n" }, up),
    ).rejects.toThrow("package must have an upstream reference");
  });
});
