import { describe, expect, it } from "vitest";
import { parseKrmignore } from "../../src/krm/krmignore.js";

describe(".krmignore (gitignore semantics)", () => {
  const m = parseKrmignore(
    "# generated\n.expected\nbuild/\n*.tmp.yaml\n!keep.tmp.yaml\n/root-only.yaml\ndocs/**/draft.yaml\n",
  );
  it.each([
    [".expected/config.yaml", false, true],
    ["build", true, true],
    ["build", false, false],
    ["build/out.yaml", false, true],
    ["a/b.tmp.yaml", false, true],
    ["keep.tmp.yaml", false, false],
    ["root-only.yaml", false, true],
    ["sub/root-only.yaml", false, false],
    ["docs/x/y/draft.yaml", false, true],
    ["app.yaml", false, false],
  ])("%s (dir: %s) ignored: %s", (path, isDir, ignored) => {
    expect(m.ignores(path, isDir)).toBe(ignored);
  });
});
