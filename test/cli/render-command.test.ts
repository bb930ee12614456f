// biome-ignore-all lint/suspicious/noTemplateCurlyInString: kpt setter comments (`# kpt-set: ${name}`) are data here
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeResourceFiles } from "../../src/cli/fn-io.js";
import { main } from "../../src/cli/main.js";
import { std } from "../../src/cli/std-write.js";
import { fixturesDir } from "../engine/helpers.js";

let work: string;
let stderr: string;
let stdout: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "porchlight-cli-"));
  stderr = "";
  stdout = "";
  // The CLI writes to the descriptors through `std`: into the streams spied on below.
  vi.spyOn(std, "write").mockImplementation(
    (fd, text) => void (fd === 1 ? process.stdout : process.stderr).write(text),
  );
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
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

describe("porchlight render", () => {
  it("renders in place, prints kpt's progress lines and writes the Kptfile status", async () => {
    const dir = await copyFixture("cli-basic");
    const code = await main(["render", dir]);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^Package "cli-basic":\n\[RUNNING\] "ghcr\.io\/kptdev\/krm-functions-catalog\/set-namespace:latest" on package "cli-basic"\n\[PASS\] "ghcr\.io\/kptdev\/krm-functions-catalog\/set-namespace:latest" in [0-9.hms]+\n/,
    );
    expect(stderr).toContain("Successfully executed 2 function(s) in 1 package(s).\n");
    const resources = await readFile(path.join(dir, "resources.yaml"), "utf8");
    expect(resources).toContain("namespace: staging");
    const kptfile = await readFile(path.join(dir, "Kptfile"), "utf8");
    expect(kptfile).toContain(
      "      - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest\n        exitCode: 0\n",
    );
    expect(kptfile).toContain("    - image: set-namespace:latest\n");
  });

  it("writes kpt's FunctionResultList with --results-dir", async () => {
    const dir = await copyFixture("cli-basic");
    const results = path.join(work, "results");
    expect(await main(["render", dir, "--results-dir", results])).toBe(0);
    const text = await readFile(path.join(results, "results.yaml"), "utf8");
    expect(text).toMatch(
      /^apiVersion: kpt\.dev\/v1\nkind: FunctionResultList\nmetadata:\n {2}name: fnresults\nexitCode: 0\nitems:\n {2}- image: /,
    );
    expect(stderr).toContain(`For complete results, see ${path.join(results, "results.yaml")}`);
  });

  it("fails an exec function without --allow-exec, exit 1, status written", async () => {
    const dir = await copyFixture("cli-basic");
    const kptfile = path.join(dir, "Kptfile");
    const { writeFile } = await import("node:fs/promises");
    await writeFile(
      kptfile,
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n    - exec: \"sed -e 's/a/b/'\"\n",
    );
    expect(await main(["render", dir])).toBe(1);
    expect(stderr).toContain("Error: must run with `--allow-exec` option to allow running function binaries");
    const text = await readFile(kptfile, "utf8");
    expect(text).toContain("    - exec: sed -e 's/a/b/'\n");
    expect(text).toContain("reason: RenderFailed");
  });

  it("refuses an existing -o directory", async () => {
    const dir = await copyFixture("cli-basic");
    const out = await copyFixture("app");
    expect(await main(["render", dir, "-o", out])).toBe(1);
    expect(stderr).toContain(
      `directory ${JSON.stringify(out)} already exists, please delete the directory and retry`,
    );
  });

  it("refuses an -o directory below a file before rendering, naming the file", async () => {
    const dir = await copyFixture("cli-basic");
    const file = path.join(work, "notes.txt");
    await writeFile(file, "x\n");
    expect(await main(["render", dir, "-o", path.join(file, "sub", "out")])).toBe(1);
    expect(stderr).toBe(
      `Error: cannot create the output directory ${JSON.stringify(path.join(file, "sub", "out"))}: ${JSON.stringify(file)} is a file, not a directory\n`,
    );
    expect(await readFile(file, "utf8")).toBe("x\n");
  });

  it("names the output file when writing it fails all the same", async () => {
    const file = path.join(work, "notes.txt");
    await writeFile(file, "x\n");
    const files = new Map([["a.yaml", new TextEncoder().encode("a: 1\n")]]);
    await expect(writeResourceFiles(file, files, ["a.yaml"])).rejects.toThrow(
      `cannot write the output file ${JSON.stringify(path.join(file, "a.yaml"))}: ${JSON.stringify(file)} is a file, not a directory`,
    );
  });

  it("writes a ResourceList to stdout with -o stdout and leaves the package alone", async () => {
    const dir = await copyFixture("cli-basic");
    const before = await readFile(path.join(dir, "Kptfile"), "utf8");
    expect(await main(["render", dir, "-o", "stdout"])).toBe(0);
    expect(stdout).toMatch(
      /^apiVersion: config\.kubernetes\.io\/v1\nkind: ResourceList\nitems:\n- apiVersion: apps\/v1/,
    );
    expect(stdout).toContain("config.kubernetes.io/path: 'resources.yaml'");
    expect(await readFile(path.join(dir, "Kptfile"), "utf8")).toBe(before);
  });

  it("writes -o stdout and -o unwrap as kpt does: no blank lines, unpadded flow maps, own documents' indentation", async () => {
    const dir = await copyFixture("exec-comments");
    await writeFile(
      path.join(dir, "Kptfile"),
      "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\n",
    );
    expect(await main(["render", dir, "-o", "stdout"])).toBe(0);
    expect(stdout).toContain('  data: {a: "1", b: "2"}\n');
    expect(stdout).toContain("      internal.config.kubernetes.io/seqindent: 'wide'\n  spec:\n");
    expect(stdout).toContain('    rrdatas: # kpt-set: ${records}\n    - "10.0.0.1"\n');
    stdout = "";
    expect(await main(["render", dir, "-o", "unwrap"])).toBe(0);
    expect(stdout).toContain("    example.com/owner: team-a\nspec:\n");
    expect(stdout).toContain('  rrdatas: # kpt-set: ${records}\n    - "10.0.0.1"\n');
    expect(stdout).toContain('data: {a: "1", b: "2"}\n');
    expect(stdout).not.toContain("config.kubernetes.io/");
  });

  it("takes the image prefix from --image-prefix, else KPT_IMAGE_PREFIX, and checks --image-pull-policy", async () => {
    const dir = await copyFixture("cli-basic");
    vi.stubEnv("KPT_IMAGE_PREFIX", "env.example.com/fns");
    expect(await main(["render", dir])).toBe(0);
    expect(await readFile(path.join(dir, "Kptfile"), "utf8")).toContain(
      "      - image: env.example.com/fns/set-namespace:latest\n",
    );
    expect(
      await main(["render", dir, "--image-prefix", "flag.example.com/fns/", "--image-pull-policy=never"]),
    ).toBe(0);
    expect(stderr).toContain('[RUNNING] "flag.example.com/fns/set-namespace:latest" on package "cli-basic"');
    vi.unstubAllEnvs();
    expect(await main(["render", dir, "--image-pull-policy", "sometimes"])).toBe(1);
    expect(stderr).toContain(
      'invalid argument "sometimes" for "--image-pull-policy" flag: must be one of: Always, IfNotPresent, Never',
    );
    expect(await main(["render", dir, "--image-prefix", "https://r.example.com"])).toBe(1);
    expect(stderr).toContain(
      'Error: invalid image prefix "https://r.example.com": must not include a scheme',
    );
  });

  it("resolves a symlinked package path with a warning", async () => {
    const dir = await copyFixture("cli-basic");
    const link = path.join(work, "link");
    await symlink(dir, link);
    expect(await main(["render", link])).toBe(0);
    expect(stderr).toContain(`[WARN] resolved symlink ${JSON.stringify(link)} to `);
  });

  it("explains a missing subcommand module and unknown flags", async () => {
    expect(await main(["render", "--bogus"])).toBe(1);
    expect(stderr).toContain("unknown flag: --bogus");
  });
});

describe("porchlight <path>", () => {
  it("renders an existing package path given without the `render` command", async () => {
    const dir = await copyFixture("cli-basic");
    const code = await main([dir]);
    expect(code).toBe(0);
    expect(await readFile(path.join(dir, "Kptfile"), "utf8")).toContain("reason: RenderSuccess");
  });

  it("still rejects an unknown command that is not a path", async () => {
    expect(await main(["no-such-command"])).toBe(1);
    expect(stderr).toContain('unknown command "no-such-command"');
  });
});

describe("porchlight inside a package directory", () => {
  it("renders the current directory when given only render flags, or nothing", async () => {
    const dir = await copyFixture("cli-basic");
    const before = process.cwd();
    process.chdir(dir);
    try {
      expect(await main(["--truncate-output=false"])).toBe(0);
      expect(await readFile(path.join(dir, "Kptfile"), "utf8")).toContain("reason: RenderSuccess");
      expect(await main([])).toBe(0);
    } finally {
      process.chdir(before);
    }
  });
});
