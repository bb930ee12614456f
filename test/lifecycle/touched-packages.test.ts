import { describe, expect, it } from "vitest";
import type { TreeEntry } from "../../src/github/port.js";
import { packageEntries, touchedPackages } from "../../src/lifecycle/touched-packages.js";

const blob = (path: string, mode = "100644"): TreeEntry => ({
  path,
  mode,
  type: "blob",
  sha: "s".repeat(40),
});
const entries: TreeEntry[] = [
  blob("README.md"),
  blob("apps/web/Kptfile"),
  blob("apps/web/deploy.yaml"),
  blob("apps/web/db/Kptfile"),
  blob("apps/web/db/svc.yaml"),
  blob("apps/web/link", "120000"),
  blob("apps/api/Kptfile"),
  blob("apps/api/cm.yaml"),
  { path: "apps", mode: "040000", type: "tree", sha: "t".repeat(40) },
];

describe("touchedPackages", () => {
  it("maps a change inside a subpackage to its top-most package", () => {
    expect(touchedPackages({ entries, changedPaths: ["apps/web/db/svc.yaml"] })).toEqual(["apps/web"]);
  });

  it("collects several packages and ignores files outside every package", () => {
    expect(
      touchedPackages({ entries, changedPaths: ["README.md", "apps/api/cm.yaml", "apps/web/deploy.yaml"] }),
    ).toEqual(["apps/api", "apps/web"]);
  });

  it("adds the package the draft branch names, even when no commit touched it", () => {
    expect(touchedPackages({ entries, changedPaths: [], branchPackage: "apps/web/db" })).toEqual([
      "apps/web",
    ]);
    expect(touchedPackages({ entries, changedPaths: [], branchPackage: "nope" })).toEqual([]);
  });

  it("renders everything from a Kptfile at the repository root", () => {
    expect(
      touchedPackages({ entries: [...entries, blob("Kptfile")], changedPaths: ["apps/api/cm.yaml"] }),
    ).toEqual([""]);
  });
});

describe("packageEntries", () => {
  it("lists regular files of the package and its subpackages relative to the package", () => {
    expect([...packageEntries(entries, "apps/web").keys()]).toEqual([
      "Kptfile",
      "deploy.yaml",
      "db/Kptfile",
      "db/svc.yaml",
    ]);
  });
});
