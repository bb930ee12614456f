import { describe, expect, it } from "vitest";
import { parseKrmignore } from "../../src/krm/krmignore.js";
import { buildPackageTree } from "../../src/krm/package-tree.js";

describe(".krmignore", () => {
  it("follows gitignore semantics", () => {
    const m = parseKrmignore("# comment\n.expected\n/out\n*.tmp.yaml\n!keep.tmp.yaml\nbuild/\n");
    expect(m.ignores(".expected/diff.patch", false)).toBe(true);
    expect(m.ignores("out/a.yaml", false)).toBe(true);
    expect(m.ignores("sub/out/a.yaml", false)).toBe(false);
    expect(m.ignores("x/y.tmp.yaml", false)).toBe(true);
    expect(m.ignores("keep.tmp.yaml", false)).toBe(false);
    expect(m.ignores("build", false)).toBe(false);
    expect(m.ignores("build/a.yaml", false)).toBe(true);
  });
});

describe("package tree", () => {
  it("finds subpackages, resource files (Kptfile last), and skips .git and ignored paths", () => {
    const texts: Record<string, string> = { ".krmignore": "skip/\n.expected\n" };
    const tree = buildPackageTree({
      paths: [
        "Kptfile",
        "b.yaml",
        "a.yml",
        "README.md",
        ".git/x.yaml",
        ".expected/c.yaml",
        "skip/d.yaml",
        "db/Kptfile",
        "db/s.yaml",
        "db/deep/e.yaml",
        "db/deep/more/Kptfile",
      ],
      rootName: "app",
      readText: (p) => texts[p],
    });
    expect(tree.resourceFiles).toEqual(["a.yml", "b.yaml", "Kptfile"]);
    expect(tree.subpackages.map((s) => s.path)).toEqual(["db"]);
    expect(tree.subpackages[0].resourceFiles).toEqual(["db/deep/e.yaml", "db/s.yaml", "db/Kptfile"]);
    expect(tree.subpackages[0].subpackages.map((s) => s.path)).toEqual(["db/deep/more"]);
  });

  it("reads hidden directories like kpt (only .git and .krmignore matches are skipped)", () => {
    const tree = buildPackageTree({
      paths: ["Kptfile", ".hidden/h.yaml", ".config/sub/Kptfile", ".config/sub/s.yaml", ".git/refs.yaml"],
      rootName: "app",
      readText: () => undefined,
    });
    expect(tree.resourceFiles).toEqual([".hidden/h.yaml", "Kptfile"]);
    expect(tree.subpackages.map((s) => s.path)).toEqual([".config/sub"]);
  });
});
