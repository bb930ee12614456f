import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import type { RenderEvent } from "../../src/engine/types.js";
import { fileText, loadFixture, testRuntime, withFile } from "./helpers.js";

async function render(name: string, extra: Partial<Parameters<typeof renderPackage>[0]> = {}) {
  const files = extra.files ?? (await loadFixture(name));
  const runtime = testRuntime();
  const result = await renderPackage({ files, runtime, packageName: name, ...extra });
  return { files, result, runtime };
}

describe("renderPackage", () => {
  it("renders subpackages before the parent, and the parent sees the subpackage's resources", async () => {
    const events: RenderEvent[] = [];
    const { result, runtime } = await render("app", { onEvent: (e) => events.push(e) });
    expect(result.ok).toBe(true);
    const order = events.filter((e) => e.type === "package-start").map((e) => e.packagePath);
    expect(order).toEqual(["./db", "."]);
    // The root pipeline got its own resources, then db's StatefulSet and Kptfile, already labelled by
    // db's pipeline (kpt 1.0's order: the package's resources before its subpackages').
    const rootCall = runtime.calls[1];
    const kinds = rootCall.input.items.map((d) => d.get("kind"));
    expect(kinds).toEqual(["Deployment", "Widget", "Kptfile", "StatefulSet", "Kptfile"]);
    expect(rootCall.input.items[3].getIn(["metadata", "labels", "component"])).toBe("db");
    const db = fileText(result.files, "db/statefulset.yaml");
    expect(db).toContain("    component: db\n    tier: web\n");
  });

  it("lists the rendered resources (-o stdout) package first, then subpackages, depth- or breadth-first", async () => {
    const base = await loadFixture("app");
    const noPipeline = withFile(
      base,
      "Kptfile",
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n",
    );
    const dfs = await renderPackage({
      files: noPipeline,
      runtime: testRuntime(),
      packageName: "app",
      withResources: true,
    });
    const paths = (r: typeof dfs) =>
      (r.resources ?? []).map((d) =>
        d.getIn(["metadata", "annotations", "internal.config.kubernetes.io/path"]),
      );
    expect(paths(dfs)).toEqual([
      "resources.yaml",
      "resources.yaml",
      "Kptfile",
      "db/statefulset.yaml",
      "db/Kptfile",
    ]);
    const bfsKptfile = fileText(base, "Kptfile")!.replace(
      "  name: app\n",
      '  name: app\n  annotations:\n    kpt.dev/bfs-rendering: "true"\n',
    );
    const runtime = testRuntime();
    const bfs = await renderPackage({
      files: withFile(base, "Kptfile", bfsKptfile),
      runtime,
      packageName: "app",
      withResources: true,
    });
    expect(bfs.ok, bfs.error).toBe(true);
    expect(runtime.calls[0].input.items.map((d) => d.get("kind"))).toEqual([
      "Deployment",
      "Widget",
      "Kptfile",
      "StatefulSet",
      "Kptfile",
    ]);
    expect(paths(bfs)).toEqual([
      "resources.yaml",
      "resources.yaml",
      "Kptfile",
      "db/statefulset.yaml",
      "db/Kptfile",
    ]);
  });

  it("writes the root Kptfile status (kpt's schema) listing subpackage steps first; subpackage Kptfiles get none", async () => {
    const { result } = await render("app");
    const kptfile = fileText(result.files, "Kptfile")!;
    expect(kptfile).toContain(
      [
        "status:",
        "  conditions:",
        "    - type: Rendered",
        '      status: "True"',
        "      reason: RenderSuccess",
        "  renderStatus:",
        "    mutationSteps:",
        "      - image: test/add-label:v1",
        "        exitCode: 0",
        "        results:",
        "          - message: set 2 labels",
        "            severity: info",
        "      - image: test/add-label:v1",
      ].join("\n"),
    );
    expect(fileText(result.files, "db/Kptfile")).not.toContain("status:");
    expect(result.status.renderStatus?.mutationSteps).toHaveLength(2);
  });

  it("keeps comments, key order and quoting of what functions did not touch, and non-KRM files", async () => {
    const { files, result } = await render("app");
    const text = fileText(result.files, "resources.yaml")!;
    expect(text.startsWith("# Header comment of the file\napiVersion: apps/v1\n")).toBe(true);
    expect(text).toContain("  name: web # the web tier\n  labels:\n    tier: web\n");
    expect(text).toContain("      - name: web\n        image: nginx:1.25 # pinned\n");
    expect(text).toContain("# an untouched-by-anyone custom resource\n");
    expect(text).toContain("  size: 'large'\n");
    expect(fileText(result.files, "README.md")).toBe(fileText(files, "README.md"));
    expect(fileText(result.files, "ignored/broken.yaml")).toBe(fileText(files, "ignored/broken.yaml"));
    expect(fileText(result.files, ".hidden/secret.yaml")).toBe(fileText(files, ".hidden/secret.yaml"));
  });

  it("writes a document no function changed as kpt does (kyaml's writer normalizes it)", async () => {
    const base = await loadFixture("app");
    const odd =
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n    name:    spaced   # odd spacing\ndata: {a: 1}\n";
    const files = withFile(
      withFile(base, "Kptfile", fileText(base, "Kptfile")!.replace(/pipeline:[\s\S]*/, "")),
      "odd.yaml",
      odd,
    );
    const { result } = await render("app", { files });
    expect(result.ok).toBe(true);
    // As kpt fn render writes it (checked with kpt).
    expect(fileText(result.files, "odd.yaml")).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: spaced # odd spacing\ndata: {a: 1}\n",
    );
  });

  it("is idempotent: rendering the rendered package changes nothing", async () => {
    const first = await render("app");
    const second = await render("app", { files: first.result.files! });
    for (const [path, bytes] of first.result.files!) {
      expect(fileText(second.result.files, path), path).toBe(new TextDecoder().decode(bytes));
    }
  });

  it("applies selectors (any) and exclude", async () => {
    const { result } = await render("selectors");
    const text = fileText(result.files, "resources.yaml")!;
    const docs = text.split("---\n");
    expect(docs[0]).toContain('picked: "yes"');
    expect(docs[1]).not.toContain("picked");
    expect(docs[2]).toContain('picked: "yes"');
    expect(docs[3]).not.toContain("picked");
    expect(result.steps[0].resourceCount).toBe(2);
    expect(fileText(result.files, "Kptfile")).not.toContain("picked: yes\n  name");
  });

  it("passes configPath's resource as functionConfig; it stays a resource of the package", async () => {
    const { result, runtime } = await render("fnconfig");
    expect(result.ok).toBe(true);
    expect(runtime.calls[0].input.functionConfig?.getIn(["metadata", "name"])).toBe("labels");
    expect(fileText(result.files, "resources.yaml")).toContain("owner: platform");
    expect(fileText(result.files, "config/labels.yaml")).toContain("labels:\n    owner: platform");
  });

  it("restores comments a function dropped (kyaml's comment copy)", async () => {
    const base = await loadFixture("app");
    const files = withFile(
      base,
      "Kptfile",
      fileText(base, "Kptfile")!.replace("test/add-label:v1", "test/drop-comments:v1"),
    );
    const { result } = await render("app", { files });
    expect(fileText(result.files, "resources.yaml")).toBe(fileText(base, "resources.yaml"));
  });

  it("runs validators on copies: a validator cannot change resources", async () => {
    const base = await loadFixture("fnconfig");
    const kptfile = fileText(base, "Kptfile")!.replace("mutators:", "validators:");
    const { result } = await render("fnconfig", { files: withFile(base, "Kptfile", kptfile) });
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "resources.yaml")).toBe(fileText(base, "resources.yaml"));
    expect(result.status.renderStatus?.validationSteps).toHaveLength(1);
  });

  it("renders breadth-first (parent first) with kpt.dev/bfs-rendering", async () => {
    const base = await loadFixture("app");
    const kptfile = fileText(base, "Kptfile")!.replace(
      "  name: app\n",
      '  name: app\n  annotations:\n    kpt.dev/bfs-rendering: "true"\n',
    );
    const events: RenderEvent[] = [];
    await render("app", { files: withFile(base, "Kptfile", kptfile), onEvent: (e) => events.push(e) });
    expect(events.filter((e) => e.type === "package-start").map((e) => e.packagePath)).toEqual([".", "./db"]);
  });
});
