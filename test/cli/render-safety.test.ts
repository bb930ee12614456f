import {
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { PackageWriteError, readPackageDir, writePackageDir } from "../../src/cli/package-dir.js";
import { std } from "../../src/cli/std-write.js";
import { fixturesDir } from "../engine/helpers.js";

let work: string;
let stderr: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "porchlight-safety-"));
  stderr = "";
  // The CLI writes to the descriptors through `std`: into the streams spied on below.
  vi.spyOn(std, "write").mockImplementation(
    (fd, text) => void (fd === 1 ? process.stdout : process.stderr).write(text),
  );
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(work, { recursive: true, force: true });
});

async function copyFixture(name: string): Promise<string> {
  const dir = path.join(work, name);
  await cp(path.join(fixturesDir, name), dir, { recursive: true });
  return dir;
}

const encoder = new TextEncoder();

describe("porchlight render never leaves a package half-written", () => {
  it("fails on a --results-dir that is a file before touching the package (kpt's message)", async () => {
    const dir = await copyFixture("cli-basic");
    const before = await readPackageDir(dir);
    const rfile = path.join(work, "rfile");
    await writeFile(rfile, "x");
    expect(await main(["render", dir, "--results-dir", rfile])).toBe(1);
    expect(stderr).toContain(`Error: cannot read or create results dir ${JSON.stringify(rfile)}: `);
    expect(stderr).not.toContain("[RUNNING]");
    expect(await readPackageDir(dir)).toEqual(before);
  });

  it("checks every target first: a symlink to a directory is not written through, nothing is written", async () => {
    const dir = await copyFixture("cli-basic");
    const outside = path.join(work, "outside");
    await mkdir(outside);
    await symlink(outside, path.join(dir, "link.yaml"));
    const previous = await readPackageDir(dir);
    expect([...previous.keys()].sort()).toEqual(["Kptfile", "resources.yaml"]);
    const next = new Map(previous);
    next.set("Kptfile", encoder.encode("changed: true\n"));
    next.set("resources.yaml", encoder.encode("changed: true\n"));
    next.set("link.yaml", encoder.encode("escaped: true\n"));
    next.set("link.yaml/new.yaml", encoder.encode("escaped: true\n"));
    await expect(writePackageDir({ dir, previous, next })).rejects.toThrow(
      new PackageWriteError("cannot write link.yaml: it is a symlink to no regular file"),
    );
    expect(await readdir(outside)).toEqual([]);
    expect(await readPackageDir(dir)).toEqual(previous);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("writes changed files in place and leaves no temporary files", async () => {
    const dir = await copyFixture("cli-basic");
    const previous = await readPackageDir(dir);
    const next = new Map(previous);
    next.set("resources.yaml", encoder.encode("a: 1\n"));
    next.set("sub/new.yaml", encoder.encode("b: 2\n"));
    await writePackageDir({ dir, previous, next });
    expect(await readPackageDir(dir)).toEqual(next);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("explains a package path that is a file like kpt, without a raw ENOTDIR", async () => {
    const file = path.join(work, "file.yaml");
    await writeFile(file, "a: b\n");
    expect(await main(["render", file])).toBe(1);
    expect(stderr).toContain(`Error: Kptfile at ${JSON.stringify(file)} can't be read.`);
    expect(stderr).not.toContain("ENOTDIR");
  });

  it("prints kpt's summary line when rendering fails", async () => {
    const dir = await copyFixture("cli-basic");
    await writeFile(
      path.join(dir, "Kptfile"),
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n    - image: set-namespace:latest\n      configMap:\n        namespace: a\n    - image: no-such-fn:v1\n",
    );
    expect(await main(["render", dir])).toBe(1);
    expect(stderr).toContain("Partially executed 1 function(s) in 1 package(s).\n");
    expect(stderr).not.toContain("Successfully executed");
  });
});

describe("porchlight render on symlinks in the package, as kpt", () => {
  it("reads a symlinked Kptfile and resource file and writes through them, the links kept", async () => {
    const dir = await copyFixture("cli-basic");
    const shared = path.join(work, "shared");
    await mkdir(shared);
    for (const name of ["Kptfile", "resources.yaml"]) {
      await rename(path.join(dir, name), path.join(shared, name));
      await symlink(path.join("..", "shared", name), path.join(dir, name));
    }
    expect(await main(["render", dir])).toBe(0);
    expect(stderr).toContain("Successfully executed 2 function(s) in 1 package(s).\n");
    expect(await readFile(path.join(shared, "resources.yaml"), "utf8")).toContain("namespace: staging");
    expect(await readFile(path.join(shared, "Kptfile"), "utf8")).toContain("reason: RenderSuccess");
    for (const name of ["Kptfile", "resources.yaml"]) {
      expect((await lstat(path.join(dir, name))).isSymbolicLink()).toBe(true);
    }
    expect((await readdir(shared)).sort()).toEqual(["Kptfile", "resources.yaml"]);
  });

  it("ignores a symlinked directory and names a symlink that points nowhere", async () => {
    const dir = await copyFixture("cli-basic");
    const outside = path.join(work, "outside");
    await mkdir(outside);
    await writeFile(
      path.join(outside, "cm.yaml"),
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: out\n",
    );
    await symlink(outside, path.join(dir, "linked"));
    expect([...(await readPackageDir(dir)).keys()].sort()).toEqual(["Kptfile", "resources.yaml"]);
    await symlink("gone.yaml", path.join(dir, "dangling.yaml"));
    expect(await main(["render", dir])).toBe(1);
    expect(stderr).toBe(
      'Error: cannot read "dangling.yaml": it is a symlink to "gone.yaml", which does not exist\n',
    );
  });
});

describe("porchlight render --results-dir", () => {
  it("refuses a results.yaml that is a directory before touching the package", async () => {
    const dir = await copyFixture("cli-basic");
    const before = await readPackageDir(dir);
    const results = path.join(work, "results");
    await mkdir(path.join(results, "results.yaml"), { recursive: true });
    expect(await main(["render", dir, "--results-dir", results])).toBe(1);
    expect(stderr).toContain("Error: cannot write results file");
    expect(await readPackageDir(dir)).toEqual(before);
  });
});
