import { describe, expect, it } from "vitest";
import { type Document, isMap, YAMLMap } from "yaml";
import {
  getAnnotation,
  INTERNAL_INDEX,
  INTERNAL_PATH,
  LEGACY_PATH,
  PACKAGE_PATH,
  pathOf,
  RESOURCE_ID,
  readLocation,
  setAnnotations,
  stripPipelineAnnotations,
} from "../../src/krm/annotations.js";
import {
  getNodeAnnotation,
  nodePathOf,
  readNodeLocation,
  setNodeAnnotations,
  stripNodePipelineAnnotations,
} from "../../src/krm/annotations-node.js";
import { documentNode } from "../../src/krm/document-node.js";
import {
  foldDocumentComment,
  foldNodeDocumentComment,
  foldNodeReturnedResourceComment,
  foldReturnedResourceComment,
} from "../../src/krm/yaml-io.js";
import { writeDocument } from "../../src/yaml/from-document.js";
import { printDocument, readYamlStream, type YNode } from "../../src/yaml/index.js";
import { nodeToDocument } from "../../src/yaml/to-document.js";

/** Resources of every shape the annotation helpers meet: no metadata, empty or null maps, comments. */
const SOURCES = [
  "apiVersion: v1\nkind: ConfigMap\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {}\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    a: b # keep\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    config.kubernetes.io/path: x.yaml # path\n    # above the index\n    config.kubernetes.io/index: '3'\n    internal.config.kubernetes.io/path: y.yaml\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    config.k8s.io/id: 1\n    # below the id\ndata:\n  k: v\n",
  "# head\n\n# first key\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "---\n# after the marker\n\n# first key\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "# only the document's\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    internal.config.kubernetes.io/index: 0x10\n    config.kubernetes.io/index: 16\n",
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    internal.config.kubernetes.io/path: ~\n    config.kubernetes.io/path: true\n",
  // Head comments on the first key only: bare `#`, `# ` and blank lines among them.
  "# one\n#\n#two\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "---\n# after the marker only\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
  "apiVersion: v1 # on the line\nkind: ConfigMap\n",
];

function pair(source: string): { node: YNode; doc: Document } {
  const [read] = readYamlStream(source);
  return { node: read.node, doc: nodeToDocument(readYamlStream(source)[0].node) };
}

/** The node's bytes against the Document's, as the engine writes each. */
function expectSameBytes(node: YNode, doc: Document): void {
  expect(printDocument(node)).toBe(writeDocument(doc, true));
}

describe("pipeline annotations on document nodes (differential against the Document versions)", () => {
  it.each(SOURCES)("reads what the Document reads: %j", (source) => {
    const { node, doc } = pair(source);
    expect(nodePathOf(node)).toBe(pathOf(doc));
    for (const key of [INTERNAL_PATH, LEGACY_PATH, INTERNAL_INDEX, RESOURCE_ID])
      expect(getNodeAnnotation(node, key)).toBe(getAnnotation(doc, key));
    expect(readNodeLocation(node)).toEqual(readLocation(doc));
    expect(readNodeLocation(node, { path: "x.yaml", index: 3 })).toEqual(
      readLocation(doc, { path: "x.yaml", index: 3 }),
    );
  });

  it.each(SOURCES)("sets as the Document sets (created maps at the end, single quotes): %j", (source) => {
    const { node, doc } = pair(source);
    const values: Array<[string, string]> = [
      [RESOURCE_ID, "0"],
      [PACKAGE_PATH, "."],
      [LEGACY_PATH, "a b.yaml"],
    ];
    expect(setNodeAnnotations(node, values)).toBe(setAnnotations(doc, values));
    expectSameBytes(node, doc);
  });

  it.each(SOURCES)("strips as the Document strips, empty maps and comments included: %j", (source) => {
    for (const dropEmpty of [true, false]) {
      const { node, doc } = pair(source);
      stripNodePipelineAnnotations(node, dropEmpty);
      stripPipelineAnnotations(doc, dropEmpty);
      expectSameBytes(node, doc);
    }
  });

  it.each(SOURCES)("set then strip round trips as the Document does: %j", (source) => {
    const { node, doc } = pair(source);
    const values: Array<[string, string]> = [
      [INTERNAL_INDEX, "0"],
      [INTERNAL_PATH, "p.yaml"],
    ];
    setNodeAnnotations(node, values);
    setAnnotations(doc, values);
    stripNodePipelineAnnotations(node, true);
    stripPipelineAnnotations(doc, true);
    expectSameBytes(node, doc);
  });

  it.each(SOURCES)("folds head comments as the Document folds them: %j", (source) => {
    for (const [onNode, onDoc] of [
      [foldNodeDocumentComment, foldDocumentComment],
      [foldNodeReturnedResourceComment, foldReturnedResourceComment],
    ] as const) {
      const { node, doc } = pair(source);
      onNode(node);
      onDoc(doc);
      expectSameBytes(node, doc);
      // Folding again (the next step) still agrees: the node reads as the folded Document.
      onNode(node);
      onDoc(doc);
      expectSameBytes(node, doc);
    }
  });

  it("folds a first key's `# ` comment line as the trip reads it (a bare `#`), every time", () => {
    const [read] = readYamlStream("# spaced \n# \n# last\napiVersion: v1\nkind: ConfigMap\n");
    const key = read.node.content[0].content[0];
    expect(key.headComment).toBe("# spaced \n# \n# last");
    foldNodeReturnedResourceComment(read.node);
    expect(key.headComment).toBe("# spaced \n#\n# last");
    foldNodeReturnedResourceComment(read.node);
    expect(key.headComment).toBe("# spaced \n#\n# last");
  });

  it("keeps what a Document edit left where a later Document reading finds it (documentNode)", () => {
    const { doc } = pair(SOURCES[9]);
    const again = nodeToDocument(documentNode(doc));
    foldDocumentComment(doc);
    foldDocumentComment(again);
    expect(writeDocument(again, true)).toBe(writeDocument(doc, true));
  });

  it("creates metadata in a resource without it, the way the Document does", () => {
    const { node, doc } = pair(SOURCES[0]);
    setNodeAnnotations(node, [[RESOURCE_ID, "7"]]);
    setAnnotations(doc, [[RESOURCE_ID, "7"]]);
    expect(printDocument(node)).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    config.k8s.io/id: '7'\n",
    );
    const meta = doc.get("metadata", true);
    expect(isMap(meta) && meta instanceof YAMLMap).toBe(true);
  });
});
