import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { kptfileFromNodes, readKptfile, readKptfileData } from "../../src/kptfile/read.js";
import { repoRoot, sharedDir } from "../helpers/built-cli.js";

/** Every file named Kptfile below `dir` (absolute paths). */
function kptfilesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === "Kptfile") out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

/** What reading gives: the typed Kptfile, or the error's text. */
function outcome(read: () => unknown): unknown {
  try {
    return { kptfile: read() };
  } catch (err) {
    return { error: String(err) };
  }
}

const sources: Record<string, string> = {
  plain: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n",
  numbers:
    "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: 0777\nupstream:\n  type: git\n  git:\n    repo: r\n    directory: /\n    ref: 0x1F\n",
  nulls:
    "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n  namespace: ~\ninfo:\n  description: null\n  keywords: [x, 'null']\n",
  quoted:
    'apiVersion: "kpt.dev/v1"\nkind: \'Kptfile\'\nmetadata:\n  name: "true"\ninfo:\n  description: |\n    two\n    lines\n',
  bools: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: True\n  annotations:\n    a: yes\n",
  tagged: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: !!str 12\n",
  alias: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: &n a\n  labels:\n    x: *n\n",
  numberKey: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n  labels:\n    0x10: b\n",
  nullKey: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n  labels:\n    ~: b\n",
  repeated: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n  name: b\n",
  unknownField: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\nbogus: 1\n",
  wrongType: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: [a]\n",
  oldSchema: "apiVersion: kpt.dev/v1alpha2\nkind: Kptfile\nmetadata:\n  name: a\n",
  otherKind: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  twoDocuments: "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: a\n---\nx: 1\n",
  badYaml: "apiVersion: kpt.dev/v1\nkind: [\n",
  empty: "",
};

describe("a Kptfile read with our YAML layer alone", () => {
  it.each(Object.entries(sources))("gives what the Document reading gives: %s", (_name, text) => {
    expect(outcome(() => readKptfileData("Kptfile", text))).toEqual(
      outcome(() => readKptfile("Kptfile", text).kptfile),
    );
  });

  it("reads clean Kptfiles itself and leaves the rest to the Document reading", () => {
    for (const name of ["plain", "numbers", "nulls", "quoted", "bools", "repeated", "nullKey"])
      expect(kptfileFromNodes(sources[name]), name).toBeDefined();
    for (const name of ["tagged", "alias", "numberKey", "unknownField", "wrongType", "oldSchema"])
      expect(kptfileFromNodes(sources[name]), name).toBeUndefined();
    for (const name of ["otherKind", "twoDocuments", "badYaml", "empty"])
      expect(kptfileFromNodes(sources[name]), name).toBeUndefined();
  });

  it("gives what the Document reading gives on every Kptfile of the project and of ../shared", () => {
    const files = [
      ...kptfilesBelow(path.join(repoRoot, "examples")),
      ...kptfilesBelow(path.join(repoRoot, "test/fixtures")),
      ...kptfilesBelow(sharedDir),
    ];
    expect(files.length).toBeGreaterThan(50);
    let itself = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      if (kptfileFromNodes(text)) itself++;
      expect(
        outcome(() => readKptfileData("Kptfile", text)),
        file,
      ).toEqual(outcome(() => readKptfile("Kptfile", text).kptfile));
    }
    // Most real Kptfiles are read without a Document.
    expect(itself).toBeGreaterThan(files.length / 2);
  });
});
