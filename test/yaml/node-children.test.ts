/**
 * Children of YAML nodes (src/yaml/node.ts, src/yaml/fast): a scalar shares one frozen empty list
 * (pushing onto it throws instead of giving every scalar children); every collection, made, cloned
 * or read by the fast reader, has a list of its own.
 */
import { describe, expect, it } from "vitest";
import { fastReadDocument } from "../../src/yaml/fast/index.js";
import { cloneNode, Kind, mapGet, scalar, YNode } from "../../src/yaml/node.js";

describe("node children", () => {
  it("refuses a child pushed onto a scalar", () => {
    const a = scalar("a");
    expect(() => a.content.push(scalar("x"))).toThrow(TypeError);
    expect(scalar("b").content).toEqual([]);
    expect(cloneNode(a).content).toEqual([]);
  });

  it("gives each new or cloned empty collection a list of its own", () => {
    const made = [new YNode(Kind.Mapping, "!!map"), new YNode(Kind.Sequence, "!!seq")];
    const clones = made.map(cloneNode);
    for (const n of [...made, ...clones]) n.content.push(scalar("k"), scalar("v"));
    for (const n of [...made, ...clones]) expect(n.content).toHaveLength(2);
  });

  it("gives each collection the fast reader builds a list of its own, of exactly its children", () => {
    const [doc] = fastReadDocument("a:\n  b: 1\n  c:\n    - x\n    - y\nd: {}\ne:\n  f: 2\n") ?? [];
    expect(doc).toBeDefined();
    const root = doc!.content[0];
    const a = mapGet(root, "a")!;
    const list = mapGet(a, "c")!;
    const e = mapGet(root, "e")!;
    expect([root.content.length, a.content.length, list.content.length, e.content.length]).toEqual([
      6, 4, 2, 2,
    ]);
    const d = mapGet(root, "d")!;
    for (const n of [root, a, list, d, e]) n.content.push(scalar("k"), scalar("v"));
    expect([root, a, list, d, e].map((n) => n.content.length)).toEqual([8, 6, 4, 2, 4]);
  });
});
