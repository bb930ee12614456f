import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createExecRuntime, EXEC_NOT_ALLOWED } from "../../src/runtimes/exec/exec-runtime.js";
import { splitCommand } from "../../src/runtimes/exec/split-command.js";
import {
  decodeResourceList,
  encodeResourceList,
  parseResourceList,
  serializeResourceList,
} from "../../src/runtimes/exec/wire.js";
import { configMap, docs, dump } from "./helpers.js";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/functions");
const input = () => ({
  items: docs("# top\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: foo # the name\ndata:\n  k: foo\n"),
  functionConfig: configMap({ a: "b" }),
  results: [],
});

describe("splitCommand", () => {
  it.each([
    ["sed -e 's/foo/bar/'", ["sed", "-e", "s/foo/bar/"]],
    ['sh -c "echo \\"hi\\" $x"', ["sh", "-c", 'echo "hi" $x']],
    ["a\\ b  c", ["a b", "c"]],
    ["x ''", ["x", ""]],
  ])("%s", (cmd, argv) => {
    expect(splitCommand(cmd)).toEqual(argv);
  });

  it("rejects an open quote", () => {
    expect(() => splitCommand("sed 's/x")).toThrow(/^exec command "sed 's\/x" must be valid: /);
  });
});

describe("ResourceList wire format", () => {
  it("round-trips items with their comments", () => {
    const list = input();
    const text = serializeResourceList(list);
    expect(text).toContain("kind: ResourceList\n");
    const back = parseResourceList(text);
    expect(dump(back.items)).toContain("name: foo # the name");
    expect(dump(back.items)).toContain("# top");
    expect(back.functionConfig?.getIn(["data", "a"])).toBe("b");
  });

  it("resolves aliases across items (PyYAML's &id001 / *id001) and drops the anchors", () => {
    const text = [
      "apiVersion: config.kubernetes.io/v1",
      "items:",
      "- apiVersion: v1",
      "  data: &id001",
      "    k: v",
      "  kind: ConfigMap",
      "  metadata:",
      "    labels: &id002",
      "      app: x",
      "    name: a",
      "- apiVersion: v1",
      "  data: *id001",
      "  kind: ConfigMap",
      "  metadata:",
      "    labels: *id002",
      "    name: b",
      "kind: ResourceList",
      "",
    ].join("\n");
    const items = parseResourceList(text).items;
    expect(items.map((d) => d.toString())).toEqual([
      "apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  labels:\n    app: x\n  name: a\n",
      "apiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  labels:\n    app: x\n  name: b\n",
    ]);
    // copies, not shared nodes: a function's later change to one item leaves the other alone
    items[1].setIn(["data", "k"], "w");
    expect(items[0].getIn(["data", "k"])).toBe("v");
  });

  it("refuses aliases that expand without bound", () => {
    const lines = ["kind: ResourceList", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++) {
      const aliases = Array(10)
        .fill(`*a${i - 1}`)
        .join(", ");
      lines.push(`a${i}: &a${i} [${aliases}]`);
    }
    lines.push("items: [*a8]");
    expect(() => parseResourceList(lines.join("\n"))).toThrow(/aliases expand to more than 200000 nodes/);
    expect(() => parseResourceList("kind: ResourceList\nitems: &x [*x]\n")).toThrow(/invalid YAML/);
  });

  it("hands back the input documents themselves for items a function returned unchanged", () => {
    const items = docs(
      [0, 1]
        .map(
          (i) =>
            `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i} # n\n  annotations:\n    config.k8s.io/id: "${i}"\ndata:\n  k: "0x1F"\n`,
        )
        .join("---\n"),
    );
    const wire = encodeResourceList({ items, results: [] });
    // exec: cat
    const same = decodeResourceList(wire.text, wire);
    expect(same.items[0]).toBe(items[0]);
    expect(same.items[1]).toBe(items[1]);
    // the same nodes written differently (wide sequences) are still unchanged; a changed value is not
    const wide = wire.text.replace(/\n(?=[ -])/g, "\n  ");
    const changed = decodeResourceList(wide.replace('k: "0x1F"', "k: changed"), wire);
    expect(changed.items[0]).not.toBe(items[0]);
    expect(changed.items[0].getIn(["data", "k"])).toBe("changed");
    expect(changed.items[1]).toBe(items[1]);
  });

  it("rejects output that is not a ResourceList", () => {
    expect(() => parseResourceList("kind: List\n")).toThrow(/expected ResourceList/);
  });
});

describe("exec runtime", () => {
  it("is not the runtime for images", async () => {
    const rt = createExecRuntime({ allow: true });
    expect(await rt.run({ fn: { image: "set-labels" }, input: input(), cwd: FIXTURES })).toBeUndefined();
  });

  it("refuses to run without permission, as kpt does", async () => {
    const rt = createExecRuntime({ allow: false });
    const out = await rt.run({ fn: { exec: "node replace-foo.mjs" }, input: input(), cwd: FIXTURES });
    expect(out).toEqual({ exitCode: 1, stderr: "", executionError: EXEC_NOT_ALLOWED });
  });

  it("runs the command in cwd with the ResourceList on stdin and parses stdout", async () => {
    const rt = createExecRuntime({ allow: true });
    const out = await rt.run({ fn: { exec: "node ./replace-foo.mjs" }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(0);
    expect(out?.stderr).toBe("replacing foo\n");
    expect(dump(out?.output?.items ?? [])).toBe(
      "# top\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bar # the name\ndata:\n  k: bar\n",
    );
    expect(out?.output?.results).toEqual([
      { message: "replaced foo", severity: "info", file: { path: "cm.yaml" } },
    ]);
  });

  it("records a non-zero exit with stderr", async () => {
    const rt = createExecRuntime({ allow: true });
    const out = await rt.run({ fn: { exec: "node fail.mjs" }, input: input(), cwd: FIXTURES });
    expect(out).toEqual({ exitCode: 3, stderr: "boom: bad input\n" });
  });

  it("fails a function that writes no ResourceList", async () => {
    const rt = createExecRuntime({ allow: true });
    const out = await rt.run({ fn: { exec: "node not-krm.mjs" }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(1);
    expect(out?.stderr).toMatch(/function wrote no valid ResourceList to stdout/);
  });

  it("kills a function past its timeout", async () => {
    const rt = createExecRuntime({ allow: true, timeoutMs: 300 });
    const out = await rt.run({ fn: { exec: "node hang.mjs" }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(1);
    expect(out?.stderr).toMatch(/function timed out after 300ms/);
  });

  it("kills a wrapper script's children past the timeout and does not wait for their stdout", async () => {
    const rt = createExecRuntime({ allow: true, timeoutMs: 300 });
    const seconds = String(100_000 + Math.floor(Math.random() * 100_000)); // names this test's sleep
    const out = await rt.run({ fn: { exec: `./hang-wrapper.sh ${seconds}` }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(1);
    expect(out?.stderr).toMatch(/function timed out after 300ms/);
    // the script's `sleep` (same process group) is gone too
    const ps = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
    expect(ps.split("\n").filter((line) => line.trim() === `sleep ${seconds}`)).toEqual([]);
  }, 20_000);

  it("kills what a function left running in the background when it exits", async () => {
    const rt = createExecRuntime({ allow: true });
    const seconds = String(100_000 + Math.floor(Math.random() * 100_000)); // names this test's sleep
    const out = await rt.run({ fn: { exec: `./background.sh ${seconds}` }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(0);
    const ps = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
    expect(ps.split("\n").filter((line) => line.trim() === `sleep ${seconds}`)).toEqual([]);
  }, 20_000);

  it("caps the output size", async () => {
    const rt = createExecRuntime({ allow: true, maxOutputBytes: 1024 });
    const out = await rt.run({ fn: { exec: "node flood.mjs" }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(1);
    expect(out?.stderr).toMatch(/function output exceeded 1024 bytes/);
  });

  it("reports a missing executable as an execution error", async () => {
    const rt = createExecRuntime({ allow: true });
    const out = await rt.run({ fn: { exec: "./no-such-fn --flag" }, input: input(), cwd: FIXTURES });
    expect(out?.exitCode).toBe(1);
    expect(out?.executionError).toBe('exec: "./no-such-fn": executable file not found');
  });
});
