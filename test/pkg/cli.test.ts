import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGet, runUpdate } from "../../src/cli/pkg.js";
import { GitFetcher } from "../../src/pkg/git-fetcher.js";
import { commitAndTag, git, writeFiles } from "./git.js";

let work: string;
let out: { stdout: string; stderr: string };
const io = () => ({
  stdout: (t: string) => {
    out.stdout += t;
  },
  stderr: (t: string) => {
    out.stderr += t;
  },
  cwd: work,
});

const deployment = (image: string, replicas = 1) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
        - name: web
          image: ${image}
`;

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), "porchlight-pkg-"));
  out = { stdout: "", stderr: "" };
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function upstreamRepo(): { dir: string; v1: string } {
  const dir = path.join(work, "blueprints");
  mkdirSync(dir);
  git(dir, "init", "-q");
  writeFiles(dir, {
    "base/Kptfile":
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: base\ninfo:\n  description: base\n",
    "base/deployment.yaml": deployment("nginx:1.25"),
    "base/README.md": "v1\n",
  });
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "v1");
  git(dir, "tag", "base/v1");
  const v1 = git(dir, "rev-parse", "HEAD").trim();
  return { dir, v1 };
}

describe("porchlight pkg get / pkg update", () => {
  it("gets a package at a Porch revision tag and writes upstream / upstreamLock as kpt does", async () => {
    const { dir, v1 } = upstreamRepo();
    expect(await runGet([`file://${dir}.git/base@v1`, "app"], io())).toBe(0);
    expect(readFileSync(path.join(work, "app/Kptfile"), "utf8")).toBe(`apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
upstream:
  type: git
  git:
    repo: file://${dir}
    directory: /base
    ref: v1
  updateStrategy: resource-merge
upstreamLock:
  type: git
  git:
    repo: file://${dir}
    directory: /base
    ref: base/v1
    commit: ${v1}
info:
  description: base
`);
    expect(readFileSync(path.join(work, "app/deployment.yaml"), "utf8")).toContain(
      "metadata: # kpt-merge: /web\n  name: web\n  annotations:\n    internal.kpt.dev/upstream-identifier: 'apps|Deployment|default|web'\n",
    );
    expect(readFileSync(path.join(work, "app/README.md"), "utf8")).toBe("v1\n");
    expect(out.stderr).toContain('Adding package "base".');
  });

  it("accepts a local directory of a git checkout; an existing destination receives the package in a subdirectory", async () => {
    const { dir } = upstreamRepo();
    expect(await runGet([`${path.join(dir, "base")}@base/v1`, "local-app"], io())).toBe(0);
    expect(readFileSync(path.join(work, "local-app/Kptfile"), "utf8")).toContain(
      `    repo: ${dir}\n    directory: /base\n    ref: base/v1\n`,
    );
    expect(await runGet([`${path.join(dir, "base")}@base/v1`, "local-app"], io())).toBe(0);
    expect(existsSync(path.join(work, "local-app/base/Kptfile"))).toBe(true);
    expect(await runGet([`${path.join(dir, "base")}@base/v1`, "local-app"], io())).toBe(1);
    expect(out.stderr).toContain(
      `destination directory ${JSON.stringify(path.join(work, "local-app/base"))} already exists`,
    );
  });

  it("updates to a new revision keeping local edits, and fast-forward refuses local edits", async () => {
    const { dir } = upstreamRepo();
    expect(await runGet([`file://${dir}.git/base@v1`, "app"], io())).toBe(0);
    const app = path.join(work, "app");
    const local = readFileSync(path.join(app, "deployment.yaml"), "utf8").replace(
      "replicas: 1",
      "replicas: 3",
    );
    writeFiles(app, { "deployment.yaml": local });
    writeFiles(dir, { "base/deployment.yaml": deployment("nginx:1.27"), "base/README.md": "v2\n" });
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "v2");
    git(dir, "tag", "base/v2");

    expect(await runUpdate(["app@v2", "--strategy", "fast-forward"], io())).toBe(1);
    expect(out.stderr).toContain("local package files have been modified: [deployment.yaml]");
    // kpt writes the new ref before it refuses; the resources are untouched.
    expect(readFileSync(path.join(app, "Kptfile"), "utf8")).toContain(
      "    ref: v2\n  updateStrategy: fast-forward\n",
    );
    expect(readFileSync(path.join(app, "deployment.yaml"), "utf8")).toContain("image: nginx:1.25");

    expect(await runUpdate(["app@v2"], io())).toBe(0);
    const merged = readFileSync(path.join(app, "deployment.yaml"), "utf8");
    expect(merged).toContain("replicas: 3");
    expect(merged).toContain("image: nginx:1.27");
    expect(readFileSync(path.join(app, "README.md"), "utf8")).toBe("v2\n");
    expect(readFileSync(path.join(app, "Kptfile"), "utf8")).toContain(
      "    ref: v2\n  updateStrategy: resource-merge\nupstreamLock:",
    );
    expect(readFileSync(path.join(app, "Kptfile"), "utf8")).toContain("    ref: base/v2\n    commit: ");
  });

  it("refuses a package path outside the working directory and an unknown strategy", async () => {
    expect(await runUpdate(["../elsewhere@v2"], io())).toBe(1);
    expect(out.stderr).toContain("package path must be under current working directory");
    expect(await runGet(["file:///x.git/a@v1", "--strategy", "rebase"], io())).toBe(1);
    expect(out.stderr).toContain('unknown update strategy "rebase"');
  });
});

describe("GitFetcher", () => {
  it("prefers the package's own tag, reads only the package directory and skips symlinks", async () => {
    const dir = path.join(work, "repo");
    mkdirSync(dir);
    git(dir, "init", "-q");
    writeFiles(dir, { "a/x.yaml": "a: 1\n", "b/y.yaml": "b: 1\n" });
    symlinkSync("x.yaml", path.join(dir, "a/link.yaml"));
    const root = commitAndTag(dir, "v1");
    writeFiles(dir, { "a/x.yaml": "a: 2\n" });
    const own = commitAndTag(dir, "a/v1");
    const warnings: string[] = [];
    const fetcher = new GitFetcher({ warn: (m) => warnings.push(m) });
    try {
      const a = await fetcher.fetch({ repo: dir, directory: "/a", ref: "v1" });
      expect(a.ref).toBe("a/v1");
      expect(a.commit).toBe(own);
      expect([...a.files.keys()]).toEqual(["x.yaml"]);
      expect(a.files.get("x.yaml")?.toString()).toBe("a: 2\n");
      expect(warnings).toEqual(['[Warn] Ignoring symlink "link.yaml"']);
      const b = await fetcher.fetch({ repo: dir, directory: "/b", ref: "v1" });
      expect(b.ref).toBe("v1");
      expect(b.commit).toBe(root);
      const byCommit = await fetcher.fetch({ repo: `file://${dir}`, directory: "/a", ref: root });
      expect(byCommit.files.get("x.yaml")?.toString()).toBe("a: 1\n");
      await expect(fetcher.fetch({ repo: dir, directory: "/nope", ref: "v1" })).rejects.toThrow(
        `path "/nope" does not exist in repo ${JSON.stringify(dir)}`,
      );
    } finally {
      await fetcher.close();
    }
    expect(existsSync(dir)).toBe(true);
  });
});
