/**
 * `porchlight fn eval` as kpt fn eval: one function over a package and its subpackages (Kptfiles
 * included), `-- k=v` as a ConfigMap functionConfig, `--fn-config` (a package file is input too), the
 * match/exclude selectors, `-o stdout|unwrap`, `-` (a ResourceList on stdin), results and kpt's errors.
 * Also `fn render` (an alias of render) and `fn list` (the builtin registry).
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { std } from "../../src/cli/std-write.js";
import { BUILTIN_LOADERS } from "../../src/runtimes/builtin/registry.js";
import { fixturesDir } from "../engine/helpers.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";

let work: string;
let stderr: string;
let stdout: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "porchlight-eval-"));
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

async function fixture(): Promise<string> {
  const dir = path.join(work, "eval-basic");
  await cp(path.join(fixturesDir, "eval-basic"), dir, { recursive: true });
  return dir;
}

const read = (dir: string, rel: string) => readFile(path.join(dir, rel), "utf8");

describe("porchlight fn eval", () => {
  it("runs a builtin on every resource of the package and its subpackages, Kptfiles included", async () => {
    const dir = await fixture();
    expect(await main(["fn", "eval", dir, "--image", "set-labels:v0.2", "--", "team=red"])).toBe(0);
    // Durations depend on the machine's load (kpt's runner normalizes them the same way).
    expect(stderr.replace(/ in \d+(\.\d+)?m?s\n/g, " in 0s\n")).toBe(
      '[RUNNING] "ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2"\n' +
        '[PASS] "ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2" in 0s\n' +
        "  [Results]:\n    [info]: set 8 labels in total\n",
    );
    expect(await read(dir, "app.yaml")).toContain("# the app\n");
    expect(await read(dir, "app.yaml")).toContain("  name: web\n  labels:\n    team: red\n");
    expect(await read(dir, "app.yaml")).toContain("  replicas: 2 # scaled by hand\n");
    expect(await read(dir, "sub/db.yaml")).toContain("    team: red\n");
    expect(await read(dir, "Kptfile")).toContain("  labels:\n    team: red\n");
    expect(await read(dir, "Kptfile")).not.toContain("status:");
  });

  it("evaluates a --fn-config file of the package as one of the input resources, as kpt does", async () => {
    const dir = await fixture();
    const code = await main([
      "fn",
      "eval",
      dir,
      "-i",
      "set-labels",
      "--fn-config",
      path.join(dir, "labels-config.yaml"),
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain("[info]: set 8 labels in total\n");
    expect(await read(dir, "labels-config.yaml")).toBe(
      "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: labels\n  labels:\n    team: blue\nlabels:\n  team: blue\n",
    );
  });

  it("refuses an -o directory below a file before the function runs, naming the file", async () => {
    const dir = await fixture();
    const file = path.join(dir, "app.yaml");
    const before = await read(dir, "app.yaml");
    expect(await main(["fn", "eval", dir, "-i", "set-labels", "-o", `${file}/sub`, "--", "a=b"])).toBe(1);
    expect(stderr).toBe(
      `error: cannot create the output directory ${JSON.stringify(`${file}/sub`)}: ${JSON.stringify(file)} is a file, not a directory\n`,
    );
    expect(await read(dir, "app.yaml")).toBe(before);
  });

  it("reads a --fn-config file with empty documents around its one config, as kpt does", async () => {
    const dir = await fixture();
    const config = path.join(work, "labels.yaml");
    await writeFile(config, `---\n---\n${await read(dir, "labels-config.yaml")}---\n`);
    expect(await main(["fn", "eval", dir, "-i", "set-labels", "--fn-config", config])).toBe(0);
    expect(await read(dir, "app.yaml")).toContain("  name: web\n  labels:\n    team: blue\n");
  });

  it("runs with --fn-config on the resources the selectors match only", async () => {
    const dir = await fixture();
    const config = await read(dir, "labels-config.yaml");
    const code = await main([
      "fn",
      "eval",
      dir,
      "-i",
      "set-labels",
      "--fn-config",
      path.join(dir, "labels-config.yaml"),
      "--match-kind",
      "Deployment",
      "--results-dir",
      path.join(work, "results"),
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain(
      '[RUNNING] "ghcr.io/kptdev/krm-functions-catalog/set-labels" on 1 resource(s)\n',
    );
    expect(await read(dir, "labels-config.yaml")).toBe(config);
    expect(await read(dir, "app.yaml")).toContain("  name: web\n  labels:\n    team: blue\n");
    expect(await read(dir, "app.yaml")).not.toContain("  name: settings\n  labels:");
    expect(await read(path.join(work, "results"), "results.yaml")).toBe(
      [
        "apiVersion: kpt.dev/v1",
        "kind: FunctionResultList",
        "metadata:",
        "  name: fnresults",
        "exitCode: 0",
        "items:",
        "  - image: ghcr.io/kptdev/krm-functions-catalog/set-labels",
        "    exitCode: 0",
        "    results:",
        "      - message: set 2 labels in total",
        "        severity: info",
        "",
      ].join("\n"),
    );
    expect(stderr).toContain(`\nFor complete results, see ${path.join(work, "results", "results.yaml")}\n`);
  });

  it("writes -o stdout as a ResourceList with root-relative paths and leaves the package alone", async () => {
    const dir = await fixture();
    const before = await read(dir, "app.yaml");
    expect(await main(["fn", "eval", dir, "--image", "no-op", "-o", "stdout"])).toBe(0);
    expect(stdout).toMatch(/^apiVersion: config\.kubernetes\.io\/v1\nkind: ResourceList\nitems:\n/);
    expect(stdout).toContain("      internal.config.kubernetes.io/path: 'sub/db.yaml'\n");
    expect(await read(dir, "app.yaml")).toBe(before);
  });

  it("runs an exec function without --allow-exec, as kpt fn eval does", async () => {
    const dir = await fixture();
    const fn = path.resolve(fixturesDir, "../functions/replace-foo.mjs");
    expect(await main(["fn", "eval", dir, "--exec", `node ${fn}`])).toBe(0);
    expect(stderr).toContain(`[PASS] ${JSON.stringify(`node ${fn}`)} in `);
  });

  it.each([
    [
      ["--image", "set-labels", "--include-meta-resources"],
      "error: --include-meta-resources is no longer necessary because meta resources are now included by default\n",
    ],
    [[], "error: must specify --image or --exec\n"],
    [["--image", "set-labels", "--", "a=b", "c"], "error: args must have keys and values separated by =\n"],
    [
      ["--exec", "cat", "--network"],
      "error: --mount, --as-current-user, --network and --env can only be used with container functions\n",
    ],
    [
      ["--image", "set-labels", "--image-pull-policy", "x"],
      'error: invalid argument "x" for "--image-pull-policy" flag: must be one of: Always, IfNotPresent, Never\n',
    ],
    [["a", "b", "--image", "x"], "error: 0 or 1 arguments supported, function arguments go after '--'\n"],
    [
      ["--image", "set-labels", "--save"],
      "error: --type must be specified if saving functions to Kptfile (--save=true)\n",
    ],
    [
      ["--image", "set-labels", "-s", "-t", "generator"],
      "error: --type must be either `mutator` or `validator`\n",
    ],
  ])("refuses %j as kpt does", async (args, message) => {
    const dir = await fixture();
    const argv = args.length > 0 && args[0] === "a" ? ["fn", "eval", ...args] : ["fn", "eval", dir, ...args];
    expect(await main(argv)).toBe(1);
    expect(stderr).toBe(message);
  });

  it("accepts kpt's other flags (--tag, --network, --allow-alpha-wasm, --image-pull-policy=P)", async () => {
    const dir = await fixture();
    const code = await main([
      "fn",
      "eval",
      dir,
      "--image",
      "no-op",
      "--tag",
      "v0.1",
      "--network",
      "--allow-alpha-wasm",
      "--image-pull-policy=never",
    ]);
    expect(code).toBe(0);
  });
});

describe("porchlight fn eval - (stdin)", () => {
  let cli = "";
  beforeAll(() => {
    cli = ensureBuiltCli();
  }, 180_000);

  it("reads a ResourceList on stdin and writes one to stdout, chaining after render -o stdout", async () => {
    const dir = await fixture();
    const list = execFileSync(process.execPath, [cli, "render", dir, "-o", "stdout"], { encoding: "utf8" });
    const out = execFileSync(
      process.execPath,
      [cli, "fn", "eval", "-", "--image", "set-annotations", "--", "a=b"],
      {
        input: list,
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    expect(out).toMatch(
      /^apiVersion: config\.kubernetes\.io\/v1\nkind: ResourceList\nitems:\n# the app\n- apiVersion: apps\/v1\n/,
    );
    expect(out).toContain("      internal.config.kubernetes.io/seqindent: 'compact'\n      a: b\n");
    const unwrapped = execFileSync(
      process.execPath,
      [cli, "fn", "eval", "-", "-i", "no-op", "-o", "unwrap"],
      {
        input: out,
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    expect(unwrapped).toMatch(
      /^# the app\napiVersion: apps\/v1\nkind: Deployment\nmetadata:\n {2}name: web\n {2}annotations:\n {4}a: b\n/,
    );
  }, 60_000);

  it("skips empty documents on stdin (a leading `---`, `---` twice, only a comment, `null`), as kpt does", () => {
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
    const evalStdin = (input: string) =>
      execFileSync(process.execPath, [cli, "fn", "eval", "-", "--exec", "cat"], {
        input,
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
      });
    const clean = evalStdin(`${cm("a")}---\n${cm("b")}`);
    expect(clean).toContain(
      "    name: b\n    annotations:\n      internal.config.kubernetes.io/index: '1'\n",
    );
    for (const input of [
      `---\n${cm("a")}---\n${cm("b")}`,
      `${cm("a")}---\n---\n${cm("b")}`,
      `---\n---\n${cm("a")}---\n\n---\n# only a comment\n---\nnull\n---\n~\n---\n${cm("b")}---\n`,
    ]) {
      expect(evalStdin(input)).toBe(clean);
    }
  }, 60_000);

  it("an exec function's items come back as kpt writes them: no annotations map added, numbers as written", () => {
    const item = (name: string, rest: string) =>
      `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ${name}\n${rest}`;
    const list = (b: string, annotations: string) =>
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
      item("a", "") +
      item(b, `${annotations}  data:\n    big: 9007199254740993\n    e: 1e3\n    z: 0.0\n`);
    const out = execFileSync(
      process.execPath,
      [cli, "fn", "eval", "-", "--exec", "sed s/name:\\ b/name:\\ c/"],
      {
        input: list("b", "    annotations: {}\n"),
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    // As kpt fn eval - writes it (checked with kpt).
    expect(out).toBe(list("c", ""));
  }, 60_000);
});

describe("porchlight fn render / fn list", () => {
  it("fn render is render", async () => {
    const dir = await fixture();
    expect(await main(["fn", "render", dir])).toBe(0);
    expect(stderr).toContain("Successfully executed 0 function(s) in 2 package(s).\n");
  });

  it("fn list lists every builtin of the registry with its catalog image and the version it follows", async () => {
    expect(await main(["fn", "list"])).toBe(0);
    for (const name of Object.keys(BUILTIN_LOADERS)) {
      // A catalog release (vX.Y.Z), or `latest` for the functions the catalog never released.
      expect(stdout).toMatch(
        new RegExp(
          `^${name} +ghcr\\.io/kptdev/krm-functions-catalog/${name} +(v\\d+\\.\\d+\\.\\d+|latest)$`,
          "m",
        ),
      );
    }
    expect(stdout).toMatch(/^set-namespace +\S+ +v0\.4\.1$/m);
  });
});
