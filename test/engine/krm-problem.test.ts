/**
 * kpt's `IsKRM` check on the engine's document nodes against the same check on `yaml` Documents:
 * the same problem (or none) for every way the three fields can be missing, empty, null or odd.
 */

import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { krmNodeProblem, krmProblem } from "../../src/engine/entries.js";
import { readYamlStream } from "../../src/yaml/index.js";

const SOURCES = [
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "kind: ConfigMap\nmetadata:\n  name: a\n",
  "apiVersion: v1\nmetadata:\n  name: a\n",
  "apiVersion: v1\nkind: ConfigMap\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata: x\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n",
  "apiVersion: ''\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "apiVersion: ~\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "apiVersion: v1\nkind: null\nmetadata:\n  name: a\n",
  'apiVersion: v1\nkind: ""\nmetadata:\n  name: a\n',
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name:\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 0\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: false\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: !!str\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {a: b}\n",
  "apiVersion: [v1]\nkind: {k: v}\nmetadata:\n  name: a\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: b}\n",
  "{apiVersion: v1, kind: ConfigMap, metadata: {name: ''}}\n",
  "1: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "- apiVersion: v1\n",
  "just text\n",
];

describe("krmNodeProblem", () => {
  it.each(SOURCES)("finds what krmProblem finds: %j", (source) => {
    const [read] = readYamlStream(source);
    expect(krmNodeProblem(read.node)).toBe(krmProblem(parseDocument(source)));
  });
  it("names the first missing field, apiVersion before kind before metadata.name", () => {
    expect(krmNodeProblem(readYamlStream("metadata: {}\n")[0].node)).toBe("resource must have `apiVersion`");
    expect(krmNodeProblem(readYamlStream("apiVersion: v1\n")[0].node)).toBe("resource must have `kind`");
    expect(krmNodeProblem(readYamlStream("apiVersion: v1\nkind: K\n")[0].node)).toBe(
      "resource must have `metadata.name`",
    );
  });
});
