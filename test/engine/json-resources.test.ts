import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { fileText, testRuntime } from "./helpers.js";

const encoder = new TextEncoder();
const KPTFILE = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n";
const LABEL_STEP = "pipeline:\n  mutators:\n    - image: test/add-label\n      configMap:\n        team: a\n";

function pkg(kptfile: string, files: Record<string, string>): Map<string, Uint8Array> {
  return new Map([
    ["Kptfile", encoder.encode(kptfile)],
    ...Object.entries(files).map(([name, text]) => [name, encoder.encode(text)] as [string, Uint8Array]),
  ]);
}

// Input and output of kpt fn render (v1.0.0-beta.56, no pipeline) on the same file.
const EXOTIC_IN =
  '{\n\t"apiVersion": "v1",\n\t"kind": "ConfigMap", "metadata": {"name": "k"}, "data": {"n": -0.0, "f": 1e21, ' +
  '"g": 1e-7, "h":0.000001, "i": 100000000000000000000000, "c": "\\b\\f\\u0001\\u2028\\u007f<&>é", "t": true, ' +
  '"u": null, "neg": -9223372036854775809, "big": 18446744073709551615, "k": 1E3, "l": [1, [], {}, {"z": 1, "Z": 2, "é": 3}]}}';
const EXOTIC_KPT =
  '{\n  "apiVersion": "v1",\n  "data": {\n    "big": 18446744073709551615,\n    "c": "\\b\\f\\u0001\\u2028\u007f\\u003c\\u0026\\u003e\u00e9",\n' +
  '    "f": 1e+21,\n    "g": 1e-7,\n    "h": 0.000001,\n    "i": 1e+23,\n    "k": 1000,\n    "l": [\n      1,\n      [],\n      {},\n' +
  '      {\n        "Z": 2,\n        "z": 1,\n        "\u00e9": 3\n      }\n    ],\n    "n": -0,\n    "neg": -9223372036854776000,\n' +
  '    "t": true,\n    "u": null\n  },\n  "kind": "ConfigMap",\n  "metadata": {\n    "name": "k"\n  }\n}\n';

describe("*.json resource files (kyaml's kio.MatchAll)", () => {
  it("are package resources: functions see them and their changes are written back as indented JSON", async () => {
    const runtime = testRuntime();
    const result = await renderPackage({
      files: pkg(KPTFILE + LABEL_STEP, {
        "x.json": '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}\n',
      }),
      runtime,
      packageName: "pkg",
    });
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "x.json")).toBe(
      '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {\n    "labels": {\n      "team": "a"\n    },\n    "name": "j"\n  }\n}\n',
    );
    expect(runtime.calls[0].input.items.map((d) => d.getIn(["metadata", "name"]))).toContain("j");
  });

  it("are written byte for byte as kpt writes them (sorted keys, Go's number and string encoding)", async () => {
    const result = await renderPackage({
      files: pkg(KPTFILE, { "y.json": EXOTIC_IN }),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(true);
    expect(fileText(result.files, "y.json")).toBe(EXOTIC_KPT);
  });

  it("must hold KRM resources, as kpt requires of every resource file a pipeline reads", async () => {
    const result = await renderPackage({
      files: pkg(KPTFILE + LABEL_STEP, { "foo.json": '{"a": 1}\n' }),
      runtime: testRuntime(),
      packageName: "pkg",
    });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain("foo.json: resource must have `apiVersion`");
  });
});
