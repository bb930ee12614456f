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

describe("a local upstream repository is recorded the same way from anywhere", () => {
  const at = (cwd: string) => ({ ...io(), cwd });

  it("refuses relative repository paths (kpt reads none), records absolute ones alike, and updates from any directory", async () => {
    const { dir } = upstreamRepo();
    const w = path.join(work, "w");
    mkdirSync(w);
    const rel = path.relative(w, dir); // ../blueprints

    // Both relative forms are refused with the same message, naming the absolute form to use.
    expect(await runGet([`${rel}/base@base/v1`, "a"], at(w))).toBe(1);
    expect(out.stderr).toContain(`repository "${rel}/base" is a relative path`);
    expect(out.stderr).toContain(`e.g. ${dir}/base@base/v1`);
    expect(await runGet([`${rel}.git/base@base/v1`, "b"], at(w))).toBe(1);
    expect(out.stderr).toContain(`repository "${rel}" is a relative path`);
    expect(out.stderr).toContain(`e.g. ${dir}.git/base@base/v1`);
    expect(existsSync(path.join(w, "a")) || existsSync(path.join(w, "b"))).toBe(false);

    // The absolute forms (a checkout's directory, or kpt's REPO.git/DIR) record the same upstream.
    expect(await runGet([`${dir}/base@base/v1`, "a"], at(w))).toBe(0);
    expect(await runGet([`${dir}.git/base@base/v1`, "b"], at(w))).toBe(0);
    const upstreamOf = (pkg: string) =>
      readFileSync(path.join(w, pkg, "Kptfile"), "utf8").replace(/^metadata:\n {2}name: \w+\n/m, "");
    expect(upstreamOf("a")).toContain(`  git:\n    repo: ${dir}\n    directory: /base\n`);
    expect(upstreamOf("b")).toBe(upstreamOf("a"));

    writeFiles(dir, { "base/README.md": "v2\n" });
    commitAndTag(dir, "base/v2");
    // From inside the package and from its parent alike.
    expect(await runUpdate([".@v2"], at(path.join(w, "b")))).toBe(0);
    expect(await runUpdate(["a@v2"], at(w))).toBe(0);
    for (const pkg of ["a", "b"]) expect(readFileSync(path.join(w, pkg, "README.md"), "utf8")).toBe("v2\n");
  });

  it("pkg update refuses a Kptfile that names its upstream by a relative path, wherever it runs", async () => {
    const { dir } = upstreamRepo();
    const w = path.join(work, "w");
    mkdirSync(w);
    expect(await runGet([`${dir}.git/base@base/v1`, "b"], at(w))).toBe(0);
    const kptfile = path.join(w, "b", "Kptfile");
    // As an older porchlight wrote it: relative to the directory of the get.
    writeFiles(w, {
      "b/Kptfile": readFileSync(kptfile, "utf8").replaceAll(`repo: ${dir}`, "repo: ../blueprints"),
    });
    const before = readFileSync(kptfile, "utf8");
    out.stderr = "";
    expect(await runUpdate(["b@v1"], at(w))).toBe(1);
    expect(out.stderr).toBe(
      'Error: b/Kptfile: upstream.git.repo "../blueprints" is a relative path, which resolves only from the ' +
        "directory the command runs in: set it to the repository's URL or absolute path\n",
    );
    expect(await runUpdate([".@v1"], at(path.join(w, "b")))).toBe(1);
    expect(out.stderr).toContain('Error: Kptfile: upstream.git.repo "../blueprints" is a relative path');
    expect(readFileSync(kptfile, "utf8")).toBe(before);
    const fetcher = new GitFetcher();
    await expect(fetcher.fetch({ repo: "../blueprints", directory: "/base", ref: "v1" })).rejects.toThrow(
      'repository "../blueprints" is a relative path',
    );
    await fetcher.close();
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
