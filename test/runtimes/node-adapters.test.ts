import { describe, expect, it } from "vitest";
import type { FunctionRuntime } from "../../src/engine/function-runtime.js";
import type { BuiltinFunction } from "../../src/runtimes/builtin/builtin-function.js";
import { createBuiltinRuntime } from "../../src/runtimes/builtin/registry.js";
import { chainRuntimes, NOT_RUNNABLE_EXIT_CODE } from "../../src/runtimes/chain.js";
import { writeDocument } from "../../src/yaml/from-document.js";
import { mapGet, printDocument, readYamlStream, scalar } from "../../src/yaml/index.js";
import type { YNode } from "../../src/yaml/node.js";

const SOURCE = `# a head comment
apiVersion: v1
kind: ConfigMap
metadata:
  name: a # the name
  labels:
    app: x
data:
  k: v # kept
---
apiVersion: v1
kind: Service
metadata:
  name: b
spec:
  ports:
  - port: 80
`;

const nodes = (): YNode[] => readYamlStream(SOURCE).map((d) => d.node);
const bytes = (items: YNode[]) => items.map((n) => printDocument(n)).join("---\n");

/** A builtin known only in its Document form: sets `metadata.labels.env: prod`. */
const documentOnly: BuiltinFunction = {
  name: "label-env",
  run(input) {
    for (const doc of input.items) doc.setIn(["metadata", "labels", "env"], "prod");
    return { items: input.items, results: [{ message: "labelled", severity: "info" }] };
  },
};

/** The same function with a node form as well (edits the nodes in place). */
const withNodes: BuiltinFunction = {
  ...documentOnly,
  runNodes(input) {
    for (const doc of input.items) {
      const meta = mapGet(doc.content[0], "metadata")!;
      let labels = mapGet(meta, "labels");
      if (!labels) {
        labels = readYamlStream("{}\n")[0].node.content[0];
        labels.style = 0;
        meta.content.push(scalar("labels"), labels);
      }
      labels.content.push(scalar("env"), scalar("prod"));
    }
    return { items: input.items, results: [{ message: "labelled", severity: "info" }] };
  },
};

const request = (image: string, items: YNode[]) => ({ fn: { image }, input: { items, results: [] } });

describe("the builtin runtime's runNodes", () => {
  it("gives a Document-only builtin's result the bytes its node form gives", async () => {
    const viaDocuments = await createBuiltinRuntime({ functions: [documentOnly] }).runNodes!(
      request("label-env", nodes()),
    );
    const direct = await createBuiltinRuntime({ functions: [withNodes] }).runNodes!(
      request("label-env", nodes()),
    );
    expect(viaDocuments?.exitCode).toBe(0);
    expect(viaDocuments?.output?.results).toEqual([{ message: "labelled", severity: "info" }]);
    expect(bytes(viaDocuments!.output!.items)).toBe(bytes(direct!.output!.items));
    expect(bytes(direct!.output!.items)).toContain("  labels:\n    app: x\n    env: prod\n");
  });

  it("gives the bytes `run` gives on Documents", async () => {
    const runtime = createBuiltinRuntime({ functions: [documentOnly] });
    const { nodeToDocument } = await import("../../src/yaml/to-document.js");
    const run = await runtime.run({
      fn: { image: "label-env" },
      input: { items: nodes().map(nodeToDocument), results: [] },
    });
    const runNodes = await runtime.runNodes!(request("label-env", nodes()));
    expect(bytes(runNodes!.output!.items)).toBe(
      run!.output!.items.map((d) => writeDocument(d, true)).join("---\n"),
    );
  });

  it("answers 'not mine' for images it has no builtin for, and for exec", async () => {
    const runtime = createBuiltinRuntime({ functions: [withNodes] });
    expect(await runtime.runNodes!(request("unknown", nodes()))).toBeUndefined();
    expect(
      await runtime.runNodes!({ fn: { exec: "x" }, input: { items: nodes(), results: [] } }),
    ).toBeUndefined();
  });

  it("turns a throwing builtin into exit code 1 with the node items kept", async () => {
    const throwing: BuiltinFunction = {
      name: "boom",
      run: () => {
        throw new Error("bad");
      },
    };
    const items = nodes();
    const out = await createBuiltinRuntime({ functions: [throwing] }).runNodes!(request("boom", items));
    expect(out?.exitCode).toBe(1);
    expect(out?.stderr).toBe('function "boom" failed: bad');
    expect(out?.output?.items).toBe(items);
  });
});

describe("chainRuntimes' runNodes", () => {
  const documentRuntime: FunctionRuntime = createBuiltinRuntime({ functions: [documentOnly] });
  const { runNodes: _dropped, ...runOnly } = documentRuntime;
  const never: FunctionRuntime = { name: "never", run: async () => undefined };

  it("runs a member without runNodes on converted items: the bytes of a node member", async () => {
    const converted = await chainRuntimes([never, runOnly]).runNodes!(request("label-env", nodes()));
    const native = await chainRuntimes([never, createBuiltinRuntime({ functions: [withNodes] })]).runNodes!(
      request("label-env", nodes()),
    );
    expect(bytes(converted!.output!.items)).toBe(bytes(native!.output!.items));
  });

  it("calls a member's runNodes with the items themselves", async () => {
    const items = nodes();
    let seen: YNode[] | undefined;
    const spy: FunctionRuntime = {
      name: "spy",
      run: async () => undefined,
      runNodes: async (r) => {
        seen = r.input.items;
        return { exitCode: 0, stderr: "", output: r.input };
      },
    };
    const out = await chainRuntimes([never, spy]).runNodes!(request("x", items));
    expect(seen).toBe(items);
    expect(out?.output?.items).toBe(items);
  });

  it("fails cleanly when no member runs the function, and reports a member that throws", async () => {
    const none = await chainRuntimes([never], { hint: () => "install docker" }).runNodes!(
      request("img", nodes()),
    );
    expect(none).toEqual({
      exitCode: NOT_RUNNABLE_EXIT_CODE,
      stderr: 'porchlight: cannot run function image "img": no runtime can run it (install docker)',
    });
    const thrower: FunctionRuntime = {
      name: "t",
      run: async () => {
        throw new Error("down");
      },
    };
    const out = await chainRuntimes([thrower]).runNodes!(request("img", nodes()));
    expect(out).toEqual({ exitCode: 1, stderr: 't runtime failed to run function image "img": down' });
  });
});
