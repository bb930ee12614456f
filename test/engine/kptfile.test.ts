import { describe, expect, it } from "vitest";
import { normalizeImage } from "../../src/engine/image.js";
import { renderPackage } from "../../src/engine/render.js";
import { KptfileError, readKptfile } from "../../src/kptfile/read.js";
import { writeKptfileWithStatus } from "../../src/kptfile/write.js";
import { fileText, loadFixture, testRuntime, withFile } from "./helpers.js";

function readError(text: string): KptfileError {
  try {
    readKptfile("Kptfile", text);
  } catch (err) {
    if (err instanceof KptfileError) return err;
    throw err;
  }
  throw new Error("expected a KptfileError");
}

describe("Kptfile reading", () => {
  it("reads unquoted all-digit and number-like strings as written (yaml.v3 into string fields)", () => {
    const sha = "1234567890123456789012345678901234567890";
    const { kptfile } = readKptfile(
      "Kptfile",
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\nupstreamLock:\n  type: git\n  git:\n    repo: https://github.com/a/b\n    directory: /base\n    ref: 0777\n    commit: ${sha}\ninfo:\n  description: 1e3\n  keywords: [0x10, True, 007]\n`,
    );
    expect(kptfile.upstreamLock?.git).toEqual({
      repo: "https://github.com/a/b",
      directory: "/base",
      ref: "0777",
      commit: sha,
    });
    expect(kptfile.info).toEqual({ description: "1e3", keywords: ["0x10", "True", "007"] });
  });

  it("rejects unknown fields, naming the field, its line and kpt's type", () => {
    const err = readError(
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutatorz: []\n",
    );
    expect(err.detail).toBe(
      "yaml: unmarshal errors:\n  line 6: field mutatorz not found in type v1.Pipeline",
    );
  });

  it("words a wrong type like yaml.v3, at the value's line", () => {
    const err = readError(
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n    - image: a\n      configMap:\n        tier:\n          - a\n",
    );
    expect(err.detail).toBe("yaml: unmarshal errors:\n  line 10: cannot unmarshal !!seq into string");
  });

  it("reports YAML syntax errors with Go's wording and line", () => {
    const err = readError("apiVersion: kpt.dev/v1\nkind: Kptfile\nkslsls\n;s;s;s\n");
    expect(err.detail).toBe("yaml: line 3: could not find expected ':'");
    expect(err.cliMessage("/pkg")).toBe(
      "Error: Kptfile at \"/pkg\" can't be read.\n\nDetails:\nyaml: line 3: could not find expected ':'",
    );
  });

  it("gives kpt's migration message for v1alpha1", () => {
    const err = readError("apiVersion: kpt.dev/v1alpha1\nkind: Kptfile\nmetadata:\n  name: x\n");
    expect(err.cliMessage("/pkg")).toContain('has an old version ("v1alpha1") of the Kptfile schema');
  });
});

describe("Kptfile validation before rendering", () => {
  async function renderWith(fn: string) {
    const base = await loadFixture("fnconfig");
    const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fnconfig\npipeline:\n  mutators:\n    - image: test/add-label:v1\n${fn}`;
    const files = withFile(base, "Kptfile", kptfile);
    return { files, result: await renderPackage({ files, runtime: testRuntime(), packageName: "fnconfig" }) };
  }

  it("refuses an absolute configPath and stores nothing", async () => {
    const { result } = await renderWith("      configPath: /etc/labels.yaml\n");
    expect(result.ok).toBe(false);
    expect(result.failedBeforeRender).toBe(true);
    expect(result.files).toBeUndefined();
    expect(result.cliError).toContain(
      'Field: `pipeline.mutators[0].configPath`\nValue: "/etc/labels.yaml"\nReason: path must be relative',
    );
  });

  it("refuses a configPath outside the package", async () => {
    const { result } = await renderWith("      configPath: ../other/labels.yaml\n");
    expect(result.cliError).toContain("Reason: path must not be outside the package");
  });

  it("refuses a missing configPath file, naming it", async () => {
    const { result } = await renderWith("      configPath: nope.yaml\n");
    expect(result.cliError).toContain('failed to open functionConfig from path "nope.yaml"');
  });

  it("refuses both configMap and configPath", async () => {
    const { result } = await renderWith(
      "      configPath: config/labels.yaml\n      configMap:\n        a: b\n",
    );
    expect(result.cliError).toBe(
      `only one of 'config', 'configMap', 'configPath' can be specified. Got "configPath, configMap"`,
    );
  });

  it("refuses a multi-document functionConfig file", async () => {
    const base = await loadFixture("fnconfig");
    const files = withFile(
      base,
      "config/labels.yaml",
      `${fileText(base, "config/labels.yaml")}---\n${fileText(base, "config/labels.yaml")}`,
    );
    const result = await renderPackage({ files, runtime: testRuntime(), packageName: "fnconfig" });
    expect(result.cliError).toBe(
      'functionConfig "config/labels.yaml" must not contain more than one config, got 2',
    );
  });

  it("reads a functionConfig file with empty documents around its one config, as kpt does", async () => {
    const base = await loadFixture("fnconfig");
    const config = fileText(base, "config/labels.yaml");
    const files = withFile(base, "config/labels.yaml", `---\n---\n${config}---\n\n---\n`);
    const result = await renderPackage({ files, runtime: testRuntime(), packageName: "fnconfig" });
    expect(result.cliError).toBeUndefined();
    expect(fileText(result.files, "resources.yaml")).toContain("    owner: platform\n");
  });

  it("records an invalid subpackage Kptfile in the root status", async () => {
    const base = await loadFixture("app");
    const files = withFile(
      base,
      "db/Kptfile",
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: db\n  bogus: 1\n",
    );
    const result = await renderPackage({ files, runtime: testRuntime(), packageName: "app" });
    expect(result.error).toBe(
      'pkg.render: pkg .:\n\tpkg.Subpackages: pkg ./db: error reading Kptfile at "./db": yaml: unmarshal errors:\n  line 5: field bogus not found in type yaml.ObjectMeta',
    );
    expect(fileText(result.files, "Kptfile")).toContain("reason: RenderFailed");
  });
  it("keeps the machine path out of the stored status of a subpackage's missing configPath", async () => {
    const base = await loadFixture("app");
    const files = withFile(
      base,
      "db/Kptfile",
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: db\npipeline:\n  mutators:\n    - image: test/add-label:v1\n      configPath: missing.yaml\n",
    );
    const result = await renderPackage({
      files,
      runtime: testRuntime(),
      packageName: "app",
      packageDir: "/home/someone/work/app",
    });
    const kptfile = fileText(result.files, "Kptfile") ?? "";
    expect(kptfile).toContain("open app/db/missing.yaml: no such file or directory");
    expect(kptfile).not.toContain("/home/someone");
    // What the CLI prints names the directory as given, as kpt does.
    expect(result.cliError).toContain(
      "open /home/someone/work/app/db/missing.yaml: no such file or directory",
    );
  });
});

describe("Kptfile status writing", () => {
  it("re-serializes like kpt: struct field order, quotes dropped, sorted maps, wide sequences", () => {
    const text = writeKptfileWithStatus(
      {
        apiVersion: "kpt.dev/v1",
        kind: "Kptfile",
        metadata: { annotations: { b: "2", a: "true" }, name: "app" },
        pipeline: { mutators: [{ configMap: { z: "1", a: "x" }, exec: "sed -e 's/a/b/'" }] },
        info: { description: "d" },
      },
      { conditions: [{ type: "Rendered", status: "True", reason: "RenderSuccess" }] },
    );
    expect(text).toBe(
      [
        "apiVersion: kpt.dev/v1",
        "kind: Kptfile",
        "metadata:",
        "  name: app",
        "  annotations:",
        '    a: "true"',
        '    b: "2"',
        "info:",
        "  description: d",
        "pipeline:",
        "  mutators:",
        "    - exec: sed -e 's/a/b/'",
        "      configMap:",
        "        a: x",
        '        z: "1"',
        "status:",
        "  conditions:",
        "    - type: Rendered",
        '      status: "True"',
        "      reason: RenderSuccess",
        "",
      ].join("\n"),
    );
  });

  it("normalizes short image names as kpt reports them", () => {
    expect(normalizeImage("set-namespace:latest")).toBe(
      "ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest",
    );
    expect(normalizeImage("ghcr.io/kptdev/krm-functions-catalog/no-op")).toBe(
      "ghcr.io/kptdev/krm-functions-catalog/no-op:latest",
    );
    expect(normalizeImage("gcr.io/kpt-fn/set-labels:v0.1")).toBe("gcr.io/kpt-fn/set-labels:v0.1");
  });
});
