/**
 * The exec runtime's `runNodes` against its `run` (the Document path): for every kind of function,
 * the same exit code, stderr, results, functionConfig, the same items in the same order with the
 * same bytes (once the engine has restored comments and field order, as it does for both), and the
 * same decisions about which output items are input items themselves.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Document } from "yaml";
import type { FunctionRuntime } from "../../../src/engine/function-runtime.js";
import { copyComments } from "../../../src/krm/comments.js";
import { syncFieldOrder } from "../../../src/krm/field-order.js";
import { createExecRuntime } from "../../../src/runtimes/exec/exec-runtime.js";
import { decodeResourceList, encodeResourceList, nodeAnnotation } from "../../../src/runtimes/exec/wire.js";
import { decodeNodeResourceList, encodeNodeResourceList } from "../../../src/runtimes/exec/wire-nodes.js";
import { documentToNode } from "../../../src/yaml/from-document.js";
import { emitDocument, Kind, mapGet, readYamlStream, Style, scalar, YNode } from "../../../src/yaml/index.js";
import { nodeToDocument } from "../../../src/yaml/to-document.js";
import { sharedDir } from "../../helpers/built-cli.js";
import { yamlFiles } from "../../helpers/yaml-files.js";
import { configMap } from "../helpers.js";

const roots = ["real-packages", "conformance"].map((d) => path.join(sharedDir, d));
const available = roots.every((r) => existsSync(r));
if (!available && process.env.CI === "true") throw new Error(`../shared is missing (${roots.join(", ")})`);

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/functions");
const ITEMS = `# head of a
apiVersion: v1
kind: ConfigMap
metadata:
  name: a # the name
  annotations:
    config.k8s.io/id: '0'
data:
  k: v0
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
  annotations:
    config.k8s.io/id: '1'
data:
  # about k
  k: v1
  text: |
    line one

    line three
---
apiVersion: v1
kind: Service
metadata:
  annotations:
    config.k8s.io/id: '2'
  name: c
spec:
  ports:
  - port: 80 # http
  - port: 443
`;

const nodes = () => readYamlStream(ITEMS).map((d) => d.node);
const print = (doc: YNode) => emitDocument(doc, { compactSeq: true, indent: 2 });

/** What the engine writes for an output item: an input item as it is, any other restored first. */
function written(item: YNode | Document, inputs: YNode[]): string {
  const node = "kind" in item ? item : documentToNode(item);
  if (inputs.includes(node)) return print(node);
  const doc = nodeToDocument(node);
  const id = node.content[0] && nodeAnnotation(node.content[0], "config.k8s.io/id");
  if (id !== undefined) {
    const source = nodeToDocument(inputs[Number(id)]);
    copyComments(source, doc);
    syncFieldOrder(source, doc);
  }
  return print(documentToNode(doc));
}

/** Runs `command` both ways; checks they agree; returns the node outcome and the input nodes. */
async function both(command: string) {
  const runtime: FunctionRuntime = createExecRuntime({ allow: true, cwd: FIXTURES });
  const fn = { exec: command };
  const inputNodes = nodes();
  const inputDocs = nodes().map(nodeToDocument);
  const byDocs = await runtime.run({
    fn,
    input: { items: inputDocs, functionConfig: configMap({ a: "b" }), results: [] },
  });
  const byNodes = await runtime.runNodes?.({
    fn,
    input: { items: inputNodes, functionConfig: configMap({ a: "b" }), results: [] },
  });
  if (!byDocs || !byNodes) throw new Error("not run");
  expect(byNodes.exitCode).toBe(byDocs.exitCode);
  expect(byNodes.stderr).toBe(byDocs.stderr);
  expect(byNodes.executionError).toBe(byDocs.executionError);
  expect(byNodes.output === undefined).toBe(byDocs.output === undefined);
  const a = byDocs.output;
  const b = byNodes.output;
  if (a && b) {
    expect(b.results).toEqual(a.results);
    expect(b.functionConfig?.toString()).toBe(a.functionConfig?.toString());
    // the same items kept as input items
    expect(b.items.map((n) => inputNodes.indexOf(n))).toEqual(a.items.map((d) => inputDocs.indexOf(d)));
    const docNodes = nodes();
    expect(b.items.map((n) => written(n, inputNodes))).toEqual(a.items.map((d) => written(d, docNodes)));
  }
  return { outcome: byNodes, inputs: inputNodes };
}

const kept = (items: YNode[] | undefined, inputs: YNode[]) => (items ?? []).map((n) => inputs.indexOf(n));

describe("exec runNodes", () => {
  it("hands back every item of `cat` as the input node itself", async () => {
    const { outcome, inputs } = await both("cat");
    expect(outcome.exitCode).toBe(0);
    expect(kept(outcome.output?.items, inputs)).toEqual([0, 1, 2]);
  });

  it("keeps the items a function did not edit and reads the one it did", async () => {
    const { outcome, inputs } = await both("node items-text.mjs edit 1");
    expect(kept(outcome.output?.items, inputs)).toEqual([0, -1, 2]);
    expect(print(outcome.output?.items[1] as YNode)).toContain("  k: edited\n");
  });

  it("adds, drops and reorders items", async () => {
    const added = await both("node items-text.mjs add");
    expect(kept(added.outcome.output?.items, added.inputs)).toEqual([-1, 0, 1, 2]);
    expect(print(added.outcome.output?.items[0] as YNode)).toBe(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: new\n",
    );
    const dropped = await both("node items-text.mjs drop 1");
    expect(kept(dropped.outcome.output?.items, dropped.inputs)).toEqual([0, 2]);
    const reversed = await both("node items-text.mjs reverse");
    expect(kept(reversed.outcome.output?.items, reversed.inputs)).toEqual([2, 1, 0]);
  });

  it("reads the comments a function writes", async () => {
    const line = await both("node items-text.mjs comment 1");
    expect(kept(line.outcome.output?.items, line.inputs)).toEqual([0, -1, 2]);
    expect(print(line.outcome.output?.items[1] as YNode)).toContain("kind: ConfigMap # a new comment\n");
    // a comment at column 0 above an item (the item's head comment, after the previous item's text)
    await both("node items-text.mjs between 2");
    await both("node items-text.mjs between 1");
  });

  it("keeps items a function wrote differently but the same (indentation, dropped comments)", async () => {
    const wide = await both("node items-text.mjs wide");
    expect(kept(wide.outcome.output?.items, wide.inputs)).toEqual([0, 1, 2]);
    const stripped = await both("node items-text.mjs strip-comments");
    expect(kept(stripped.outcome.output?.items, stripped.inputs)).toEqual([0, 1, 2]);
  });

  it("reads the results a function writes", async () => {
    const { outcome, inputs } = await both("node items-text.mjs results");
    expect(outcome.output?.results).toEqual([{ message: "looked", severity: "warning" }]);
    expect(kept(outcome.output?.items, inputs)).toEqual([0, 1, 2]);
  });

  it("fails as run does: a non-zero exit, invalid YAML, no ResourceList", async () => {
    const failed = await both("node fail.mjs");
    expect(failed.outcome.exitCode).toBe(3);
    expect(failed.outcome.stderr).toBe("boom: bad input\n");
    const catThenFail = await both("sh -c 'cat; exit 2'");
    expect(catThenFail.outcome.exitCode).toBe(2);
    expect(kept(catThenFail.outcome.output?.items, catThenFail.inputs)).toEqual([0, 1, 2]);
    const invalid = await both("sh -c 'cat >/dev/null; echo \"items: [a\"'");
    expect(invalid.outcome.exitCode).toBe(1);
    expect(invalid.outcome.stderr).toMatch(/^function wrote no valid ResourceList to stdout: invalid YAML/);
    const notKrm = await both("node not-krm.mjs");
    expect(notKrm.outcome.exitCode).not.toBe(0);
  });

  it("refuses without --allow-exec and passes on image steps", async () => {
    const runtime = createExecRuntime({ allow: false });
    const input = { items: nodes(), results: [] };
    expect(await runtime.runNodes?.({ fn: { image: "x" }, input })).toBeUndefined();
    expect((await runtime.runNodes?.({ fn: { exec: "cat" }, input }))?.executionError).toMatch(/allow-exec/);
  });
});

/** Sets `config.k8s.io/id` on a document node's root mapping, as the engine does before a step. */
function setId(doc: YNode, i: number): void {
  const child = (map: YNode, key: string) => {
    const found = mapGet(map, key);
    if (found && found.kind === Kind.Mapping) return found;
    const made = new YNode(Kind.Mapping, "!!map");
    map.content.push(scalar(key), made);
    return made;
  };
  child(child(doc.content[0], "metadata"), "annotations").content.push(
    scalar("config.k8s.io/id"),
    scalar(String(i), "!!str", Style.SingleQuoted),
  );
}

describe.skipIf(!available)("the node wire on every shared YAML file", () => {
  it("writes the bytes the Document wire writes, and reads each item back as its input node", () => {
    const files = roots.flatMap((r) => yamlFiles(r));
    const differ: string[] = [];
    let compared = 0;
    let total = 0;
    let textual = 0;
    for (const file of files) {
      let items: YNode[];
      try {
        items = readYamlStream(readFileSync(file, "utf8")).map((d) => d.node);
      } catch {
        continue; // invalid YAML (a case testing the error)
      }
      items = items.filter(
        (n) => n.content[0]?.kind === Kind.Mapping && (n.content[0].style & Style.Flow) === 0,
      );
      if (items.length === 0) continue;
      for (const [i, n] of items.entries()) setId(n, i);
      compared++;
      const request = encodeNodeResourceList({ items, results: [] });
      const expected = encodeResourceList({ items: items.map(nodeToDocument), results: [] }).text;
      if (request.text !== expected) differ.push(`${file}: written differently`);
      // the text with its last line moved (not equal as a whole), each item's text unchanged
      const moved = `kind: ResourceList\n${request.text.replace("kind: ResourceList\n", "")}`;
      const back = decodeNodeResourceList(moved, request).items;
      // against run: every item it keeps is kept, every item written the same
      const docs = items.map(nodeToDocument);
      const wire = encodeResourceList({ items: docs, results: [] });
      const ran = decodeResourceList(
        `kind: ResourceList\n${wire.text.replace("kind: ResourceList\n", "")}`,
        wire,
      );
      if (
        back.length !== ran.items.length ||
        ran.items.some((d, i) => docs.includes(d) && back[i] !== items[docs.indexOf(d)]) ||
        back.some(
          (n, i) =>
            !(items.includes(n) && docs.includes(ran.items[i])) &&
            written(n, items) !== written(ran.items[i], items),
        )
      )
        differ.push(`${file}: read back`);
      // decided by the texts alone: with nodes that match nothing sent, the items still come back
      const blind = { ...request, sent: items.map(() => new YNode(Kind.Mapping, "!!map")) };
      const byText = decodeNodeResourceList(moved, blind).items;
      total += items.length;
      textual += byText.filter((n, i) => n === items[i]).length;
    }
    expect(compared).toBeGreaterThan(1000);
    expect(differ).toEqual([]);
    // all but the items whose text ends in a comment (which may be read as the next item's)
    expect(textual / total).toBeGreaterThan(0.9);
  }, 120_000);
});
