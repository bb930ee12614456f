import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { createDefaultRuntime } from "../../src/runtimes/default.js";
import { fileText } from "./helpers.js";

const encoder = new TextEncoder();

function pkg(files: Record<string, string>): Map<string, Uint8Array> {
  return new Map(Object.entries(files).map(([k, v]) => [k, encoder.encode(v)]));
}

const kptfile = (status: string[] = []) =>
  [
    "apiVersion: kpt.dev/v1",
    "kind: Kptfile",
    "metadata:",
    "  name: ns",
    "pipeline:",
    "  mutators:",
    "    - image: set-namespace:latest",
    "      configMap:",
    "        namespace: prod",
    ...status,
    "",
  ].join("\n");

const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: dev\n";
const service = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: dev\n";

async function render(files: Map<string, Uint8Array>) {
  return renderPackage({ files, runtime: createDefaultRuntime({ allowExec: false }), packageName: "ns" });
}

describe("root Kptfile status.conditions", () => {
  it("keeps the other conditions in their order and replaces only Rendered (kpt's render status)", async () => {
    const files = pkg({
      Kptfile: kptfile([
        "status:",
        "  conditions:",
        "    - type: Rendered",
        '      status: "False"',
        "      reason: RenderFailed",
        "      message: old failure",
        "    - type: Ready",
        '      status: "True"',
        "      reason: AllReady",
        "    - type: example.com/Approved",
        '      status: "False"',
      ]),
      "deploy.yaml": deployment,
    });
    const result = await render(files);
    expect(result.ok).toBe(true);
    expect(result.status.conditions).toEqual([
      { type: "Ready", status: "True", reason: "AllReady" },
      { type: "example.com/Approved", status: "False" },
      { type: "Rendered", status: "True", reason: "RenderSuccess" },
    ]);
    expect(fileText(result.files, "Kptfile")).toContain(
      [
        "status:",
        "  conditions:",
        "    - type: Ready",
        '      status: "True"',
        "      reason: AllReady",
        "    - type: example.com/Approved",
        '      status: "False"',
        "    - type: Rendered",
        '      status: "True"',
        "      reason: RenderSuccess",
        "  renderStatus:",
      ].join("\n"),
    );
  });

  it("keeps them on failure too (Unrendered policy)", async () => {
    const files = pkg({
      Kptfile: kptfile(["status:", "  conditions:", "    - type: Ready", '      status: "True"']).replace(
        "set-namespace",
        "no-such-function",
      ),
      "deploy.yaml": deployment,
    });
    const result = await render(files);
    expect(result.ok).toBe(false);
    expect(result.status.conditions.map((c) => `${c.type}=${c.status}`)).toEqual([
      "Ready=True",
      "Rendered=False",
    ]);
    expect(fileText(result.files, "Kptfile")).toContain(
      '    - type: Ready\n      status: "True"\n    - type: Rendered\n',
    );
  });
});

describe("rendering a rendered package changes nothing", () => {
  it("keeps the root Kptfile bytes when only the steps' result messages would differ", async () => {
    const first = await render(pkg({ Kptfile: kptfile(), "deploy.yaml": deployment, "svc.yaml": service }));
    expect(first.ok).toBe(true);
    const firstKptfile = fileText(first.files, "Kptfile")!;
    expect(firstKptfile).toContain("2 value(s) changed");
    const second = await render(first.files!);
    expect(second.ok).toBe(true);
    // The run itself reports differently ("no value changed") ...
    expect(JSON.stringify(second.status.renderStatus)).not.toContain("2 value(s) changed");
    // ... but the stored package is byte for byte the same.
    expect(fileText(second.files, "Kptfile")).toBe(firstKptfile);
    for (const [path, bytes] of first.files!) expect(second.files!.get(path)).toEqual(bytes);
  });

  it("still rewrites the Kptfile when anything else in it changes (the Rendered condition, the steps)", async () => {
    const first = await render(pkg({ Kptfile: kptfile(), "deploy.yaml": deployment }));
    const edited = new Map(first.files!);
    const text = fileText(first.files, "Kptfile")!.replace("namespace: prod", "namespace: qa");
    edited.set("Kptfile", encoder.encode(text));
    const second = await render(edited);
    expect(fileText(second.files, "deploy.yaml")).toContain("namespace: qa");
    expect(fileText(second.files, "Kptfile")).not.toBe(text);
  });
});

describe("a YAML file that is not valid UTF-8", () => {
  it("fails the render naming the file (kpt's MalformedYAMLError) and never re-encodes it", async () => {
    const bad = new Uint8Array([
      ...encoder.encode("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf"),
      0xe9,
    ]);
    const files = pkg({
      Kptfile: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ns\n",
      "notes.txt": "latin-1 in a non-KRM file is fine",
    });
    files.set("cm.yaml", bad);
    files.set("notes.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    const result = await render(files);
    expect(result.ok).toBe(false);
    expect(result.cliError).toBe("cm.yaml: MalformedYAMLError: yaml: incomplete UTF-8 octet sequence");
    expect(result.files?.get("cm.yaml")).toEqual(bad);
    expect(result.files?.get("notes.txt")).toEqual(files.get("notes.txt"));
    expect(fileText(result.files, "Kptfile")).toContain("reason: RenderFailed");
  });
});

describe("kpt's own annotations in the input", () => {
  it("removes an annotations map that only held kpt's path/index, instead of writing `annotations: {}`", async () => {
    const files = pkg({
      Kptfile: kptfile(),
      "deploy.yaml": [
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: web",
        "  namespace: dev",
        "  annotations:",
        "    config.kubernetes.io/path: 'deploy.yaml'",
        "    config.kubernetes.io/index: '0'",
        "",
      ].join("\n"),
    });
    const result = await render(files);
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "deploy.yaml")).toBe(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\n",
    );
  });
});
