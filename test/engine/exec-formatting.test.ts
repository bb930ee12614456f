// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
/**
 * What the trip of resources through an exec function's stdin and stdout leaves, as kpt writes it
 * (kpt restores comments and field order with kyaml's CopyComments and SyncOrder and writes every
 * document through kyaml): `exec: cat` changes nothing a second time, and a function that sorts fields
 * and drops comments changes only the values it set.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPackage } from "../../src/engine/render.js";
import { createExecRuntime } from "../../src/runtimes/exec/exec-runtime.js";
import { fileText, loadFixture, withFile } from "./helpers.js";

const functionsDir = path.resolve(import.meta.dirname, "../fixtures/functions");

async function render(files: Map<string, Uint8Array>) {
  return renderPackage({
    files,
    runtime: createExecRuntime({ allow: true }),
    packageName: "exec-comments",
    cwd: functionsDir,
  });
}

const PERIMETER = [
  "apiVersion: access.example.com/v1beta1",
  "kind: ServicePerimeter",
  "metadata:",
  "  name: perimeter",
  "spec:",
  "  status:",
  "    resources:",
  "    - projects/1 # kpt-set: projects/${project-number}",
  "    restrictedServices: # kpt-set: ${restricted-services}",
  "    - storage.googleapis.com",
  "    - bigquery.googleapis.com",
  "---",
  "apiVersion: v1",
  "kind: ConfigMap",
  "metadata:",
  "  name: flow",
].join("\n");

/**
 * dns.yaml as kpt writes it, with `values` for the spec; porchlight keeps the header comment above the
 * first `---` (kpt drops it: for yaml.v3 it is a document of its own), on the first key as any comment
 * that heads a resource a function returned.
 */
function dns(values: string[]): string {
  return [
    "# A record set with setter comments on key lines and a wide list.",
    "#",
    "# (own fixture: the pattern of the Config Connector blueprints)",
    "apiVersion: dns.example.com/v1beta1",
    "kind: DNSRecordSet",
    "metadata: # kpt-merge: networking/www",
    "  name: www # kpt-set: ${record-name}",
    "  namespace: networking # kpt-set: ${namespace}",
    "  annotations:",
    "    example.com/owner: team-a",
    "spec:",
    ...values,
    "",
  ].join("\n");
}

describe("exec functions: what kpt writes after the trip through stdin and stdout", () => {
  it("exec: cat writes every file as kpt does (comments and field order kept), and again the same", async () => {
    const input = await loadFixture("exec-comments");
    const first = await render(input);
    expect(first.ok, first.error).toBe(true);
    const second = await render(first.files!);
    // As kpt fn render writes them (checked with kpt): no blank lines, no `---` before the first
    // document, quotes and list indentation kept. (kpt also drops the comment above that `---`.)
    const expected = {
      "dns.yaml": dns([
        '  name: "www.example.com." # kpt-set: ${name}${domain}',
        "  rrdatas: # kpt-set: ${records}",
        '    - "10.0.0.1"',
        '    - "10.0.0.2"',
        "  ttl: 300 # kpt-set: ${ttl}",
      ]),
      "perimeter.yaml": `${PERIMETER}\ndata: {a: "1", b: "2"}\n`,
    };
    for (const [file, text] of Object.entries(expected)) {
      expect(fileText(first.files, file)).toBe(text);
      expect(fileText(second.files, file)).toBe(text);
    }
  });

  it("copies comments back by field path and restores the input's field order", async () => {
    const input = await loadFixture("exec-comments");
    const kptfile = fileText(input, "Kptfile")!.replace("exec: cat", "exec: node sort-fields.mjs");
    const result = await render(withFile(input, "Kptfile", kptfile));
    expect(result.ok, result.error).toBe(true);
    // As kpt writes it (checked with kpt): the values the function set (ttl, and the quotes it
    // dropped) changed; every comment came back once, the line comment of the changed value too; the
    // input's field order and wide list indentation stayed; the ConfigMap the function rewrote in
    // block style is written as the function wrote it.
    expect(fileText(result.files, "dns.yaml")).toBe(
      dns([
        "  name: www.example.com. # kpt-set: ${name}${domain}",
        "  rrdatas: # kpt-set: ${records}",
        "    - 10.0.0.1",
        "    - 10.0.0.2",
        "  ttl: 600 # kpt-set: ${ttl}",
      ]),
    );
    expect(fileText(result.files, "perimeter.yaml")).toBe(`${PERIMETER}\ndata:\n  a: "1"\n  b: "2"\n`);
  });

  it("keeps the text of numbers a function left alone, also in a document it changed (checked with kpt)", async () => {
    // Integers beyond 2^53 and floats are JS doubles once parsed: printing the value would change them.
    const numbers = [
      "  big: 9007199254740993",
      "  min: -9223372036854775808",
      "  huge: 12345678901234567890",
      "  exp: 12e3",
      "  e: 1e3",
      "  zero: 0.0",
      "  inf: 1e400",
      "  hex: 0x1F",
      "  oct: 0o17",
      "  half: .5",
      "  plus: +12",
      "  lead: 012",
    ];
    const cm = ["apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: a", "data:", ...numbers, ""].join(
      "\n",
    );
    const input = await loadFixture("exec-comments");
    const kptfile = fileText(input, "Kptfile")!.replace("exec: cat", `exec: "sed 's/name: a$/name: b/'"`);
    const result = await render(withFile(withFile(input, "Kptfile", kptfile), "numbers.yaml", cm));
    expect(result.ok, JSON.stringify(result.status)).toBe(true);
    expect(fileText(result.files, "numbers.yaml")).toBe(cm.replace("name: a", "name: b"));
  });

  it("drops the last blank line among a returned resource's head comments, keeps the others (checked with kpt)", async () => {
    const body = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n";
    // Head comment as read → as kpt fn render writes it after `exec: cat`.
    const cases: Array<[string, string]> = [
      ["# a\n# a2\n\n# b\n", "# a\n# a2\n# b\n"],
      ["# a\n\n# b\n\n# c\n", "# a\n\n# b\n# c\n"],
      ["# a\n#\n# a3\n\n# b\n", "# a\n#\n# a3\n# b\n"],
      ["# a\n\n# b\n# b2\n", "# a\n# b\n# b2\n"],
    ];
    let files = await loadFixture("exec-comments");
    cases.forEach(([head], i) => {
      files = withFile(files, `c${i}.yaml`, head + body);
    });
    // Blank lines inside a comment further down, and in the document's foot comment, stay.
    const inner = `${body}  # mid a\n\n  # mid b\n  namespace: x\n# foot a\n\n# foot b\n`;
    files = withFile(files, "inner.yaml", inner);
    const result = await render(files);
    expect(result.ok, JSON.stringify(result.status)).toBe(true);
    cases.forEach(([, written], i) => {
      expect(fileText(result.files, `c${i}.yaml`)).toBe(written + body);
    });
    expect(fileText(result.files, "inner.yaml")).toBe(inner);
  });
});

/** A package of one resource file under `exec: cat` (or no pipeline). */
function catPackage(file: string, text: string, pipeline = true): Map<string, Uint8Array> {
  const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n${pipeline ? "pipeline:\n  mutators:\n  - exec: cat\n" : ""}`;
  const enc = new TextEncoder();
  return new Map([
    ["Kptfile", enc.encode(kptfile)],
    [file, enc.encode(text)],
  ]);
}

describe("kpt's bytes through exec: cat, per fidelity class (each expected text written by kpt 1.0.0-beta.56)", () => {
  const cases: Array<[string, string, string]> = [
    [
      "comments after the last node",
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: {x: "1"}\n# ---\n# kind: Role\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata: {x: "1"}\n# ---\n# kind: Role\n',
    ],
    [
      "a trailing comment block before a dedent",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n      limits:\n        cpu: 1\n      # livenessProbe:\n      #   x: 1\n  restartPolicy: Always\n",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n      limits:\n        cpu: 1\n        # livenessProbe:\n        #   x: 1\n  restartPolicy: Always\n",
    ],
    [
      "CRLF input",
      "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: # kpt-merge: /x\r\n  name: x\r\ndata:\r\n  a: b # c\r\n",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: # kpt-merge: /x\n  name: x\ndata:\n  a: b # c\n",
    ],
    [
      "a null value, a blank line and comments",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n\n# a comment\n# another\n    image: x\n",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    resources:\n    # a comment\n    # another\n    image: x\n",
    ],
    [
      "a flow sequence with a comment, a blank line inside a comment block",
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    command: ["/bin/sh", "-c",\n    # c\n    "sleep 5"]\n    # one\n\n    # two\n    image: x\n',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    command: ["/bin/sh", "-c",\n      # c\n      "sleep 5"]\n    # one\n\n    # two\n    image: x\n',
    ],
    [
      "a double-quoted scalar continued at its key's indentation",
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  msg: "hello\n  world"\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  msg: "hello world"\n',
    ],
  ];
  it.each(cases)("%s", async (_name, source, expected) => {
    const result = await render(catPackage("r.yaml", source));
    expect(result.ok, result.error).toBe(true);
    expect(fileText(result.files, "r.yaml")).toBe(expected);
  });

  it("adds no metadata to a kustomization.yaml without one, and clears an empty one, as kyaml does", async () => {
    const text = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- a.yaml\n";
    for (const pipeline of [true, false]) {
      const plain = await render(catPackage("kustomization.yaml", text, pipeline));
      expect(plain.ok, plain.error).toBe(true);
      expect(fileText(plain.files, "kustomization.yaml")).toBe(text);
      const withEmpty = text.replace("resources:", "metadata:\n  annotations: {}\nresources:");
      const cleared = await render(catPackage("kustomization.yaml", withEmpty, pipeline));
      expect(fileText(cleared.files, "kustomization.yaml")).toBe(text);
    }
  });
});
