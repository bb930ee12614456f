import { describe, expect, it } from "vitest";
import { isRelativeRepoPath, PackageRefError, parsePackageRef } from "../../src/pkg/args.js";

describe("parsePackageRef (kpt's REPO_URI[.git]/PKG_PATH[@VERSION])", () => {
  it("splits at .git", () => {
    expect(parsePackageRef("https://github.com/org/blueprints.git/base@base/v3")).toEqual({
      repo: "https://github.com/org/blueprints",
      directory: "/base",
      ref: "base/v3",
    });
    expect(parsePackageRef("file:///tmp/up/.git/pkg@v1")).toEqual({
      repo: "file:///tmp/up/",
      directory: "/pkg",
      ref: "v1",
    });
    expect(parsePackageRef("https://example.com/r.git")).toEqual({
      repo: "https://example.com/r",
      directory: "/",
      ref: undefined,
    });
  });

  it("reads GitHub web URLs without .git", () => {
    expect(parsePackageRef("https://github.com/org/repo/tree/main/pkgs/base")).toEqual({
      repo: "https://github.com/org/repo",
      directory: "/pkgs/base",
      ref: "main",
    });
  });

  it("refuses an ambiguous reference with kpt's message", () => {
    expect(() => parsePackageRef("https://example.com/org/repo/pkg@v1")).toThrow(
      new PackageRefError("ambiguous repo/dir@version specify '.git' in argument"),
    );
  });

  it("tells relative repository paths (read from the current directory by git) from URLs and absolute paths", () => {
    for (const repo of ["../up", "up", "./up", "./a:b", "up/.git"])
      expect(isRelativeRepoPath(repo)).toBe(true);
    for (const repo of [
      "/tmp/up",
      "file:///tmp/up",
      "https://github.com/o/r",
      "git@github.com:o/r",
      "host:r",
      "",
    ])
      expect(isRelativeRepoPath(repo)).toBe(false);
    expect(() => parsePackageRef("../up.git/base@v1", undefined, "/work/w")).toThrow(
      'repository "../up" is a relative path: the Kptfile records the repository as given, and a relative path ' +
        "only resolves from the directory the command runs in; give a URL or an absolute path, e.g. /work/up.git/base@v1",
    );
  });
});
