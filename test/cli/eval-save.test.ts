/**
 * `porchlight fn eval --save --type mutator|validator` as kpt's SaveFnToKptfile: the evaluated function
 * is added to (or replaces the same image's / exec's steps in) the Kptfile pipeline, the Kptfile written
 * as kpt writes it with its comments and field order kept; nothing is saved when the function fails;
 * without a Kptfile kpt's message. Expected texts follow kpt's e2e cases (fn-eval/save-fn).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { savedKptfileText } from "../../src/cli/eval-save.js";
import { main } from "../../src/cli/main.js";
import { std } from "../../src/cli/std-write.js";
import { fixturesDir } from "../engine/helpers.js";

let work: string;
let stderr: string;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "porchlight-save-"));
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

async function fixture(): Promise<string> {
  const dir = path.join(work, "eval-save");
  await cp(path.join(fixturesDir, "eval-save"), dir, { recursive: true });
  return dir;
}

const MINIMAL = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\n";
const read = (dir: string, rel: string) => readFile(path.join(dir, rel), "utf8");

describe("porchlight fn eval --save", () => {
  it("adds an image function with its arguments as a configMap (kpt's save-fn/image)", async () => {
    const dir = await fixture();
    await writeFile(path.join(dir, "Kptfile"), MINIMAL);
    const code = await main([
      "fn",
      "eval",
      dir,
      "-s",
      "-t",
      "mutator",
      "-i",
      "set-namespace:latest",
      "--",
      "namespace=staging",
    ]);
    expect(code).toBe(0);
    expect(await read(dir, "Kptfile")).toBe(
      `${MINIMAL}pipeline:\n  mutators:\n    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest\n      configMap:\n        namespace: staging\n`,
    );
    expect(await read(dir, "resources.yaml")).toContain("  namespace: staging\n");
    expect(stderr.split("\n").slice(-2)[0]).toBe(
      'Added "ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest" as mutator in the Kptfile.',
    );
  });

  it("records --fn-config relative to the package, selectors, exclusions and --tag; validators too", async () => {
    const dir = await fixture();
    await writeFile(path.join(dir, "Kptfile"), MINIMAL);
    const code = await main([
      "fn",
      "eval",
      dir,
      "--save",
      "--type",
      "validator",
      "-i",
      "set-namespace",
      "--tag",
      "~0.4",
      "--fn-config",
      path.join(dir, "fn-config.yaml"),
      "--match-kind",
      "Deployment",
      "--exclude-labels",
      "tier=db",
      "--exclude-name",
      "x",
    ]);
    expect(code).toBe(0);
    expect(await read(dir, "Kptfile")).toBe(
      `${MINIMAL}pipeline:\n  validators:\n    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace\n` +
        "      configPath: fn-config.yaml\n      tag: ~0.4\n      selectors:\n        - kind: Deployment\n" +
        "      exclude:\n        - name: x\n          labels:\n            tier: db\n",
    );
    expect(stderr).toContain(
      'Added "ghcr.io/kptdev/krm-functions-catalog/set-namespace" as validator in the Kptfile.\n',
    );
  });

  it("replaces the steps of the same image, keeps comments and field order of the rest (kpt's override-fn, preserve-kptfile-comments)", async () => {
    const dir = await fixture();
    const code = await main([
      "fn",
      "eval",
      dir,
      "-s",
      "-t",
      "mutator",
      "-i",
      "set-namespace:latest",
      "--",
      "namespace=newNs",
    ]);
    expect(code).toBe(0);
    expect(await read(dir, "Kptfile")).toBe(
      [
        "apiVersion: kpt.dev/v1",
        "kind: Kptfile # comment 1",
        "metadata:",
        "  # comment 2",
        "  name: app # comment 3",
        "  annotations:",
        '    z: "1"',
        "    a: b",
        "pipeline:",
        "  mutators:",
        "    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest",
        "      configMap:",
        "        namespace: newNs",
        "    - image: set-labels:v0.2 # short names are compared as written",
        "      configMap:",
        '        b: "2"',
        "        a: x # kept",
        "",
      ].join("\n"),
    );
    expect(stderr).toContain(
      'Updated "ghcr.io/kptdev/krm-functions-catalog/set-namespace:latest" as mutator in the Kptfile.\n',
    );
  });

  it("adds an exec function with its --fn-config (kpt's save-fn/exec)", () => {
    const { text, message } = savedKptfileText(MINIMAL, {
      fnType: "mutator",
      exec: "./function.sh",
      configPath: "fn-config.yaml",
      dataItems: [],
    });
    expect(text).toBe(
      `${MINIMAL}pipeline:\n  mutators:\n    - exec: ./function.sh\n      configPath: fn-config.yaml\n`,
    );
    expect(message).toBe('Added "./function.sh" as mutator in the Kptfile.');
  });

  it("saves nothing when the function fails, and says so when there is no Kptfile", async () => {
    const dir = await fixture();
    const before = await read(dir, "Kptfile");
    expect(await main(["fn", "eval", dir, "-s", "-t", "mutator", "--exec", "/bin/false"])).toBe(1);
    expect(await read(dir, "Kptfile")).toBe(before);
    expect(stderr).not.toContain("in the Kptfile");

    await rm(path.join(dir, "Kptfile"));
    stderr = "";
    const code = await main([
      "fn",
      "eval",
      dir,
      "-s",
      "-t",
      "mutator",
      "-i",
      "set-namespace",
      "--",
      "namespace=a",
    ]);
    expect(code).toBe(0);
    expect(stderr.endsWith("function not added: Kptfile not exists\n")).toBe(true);
  });

  it("refuses a --fn-config outside the package", async () => {
    const dir = await fixture();
    const outside = path.join(work, "outside.yaml");
    await writeFile(
      outside,
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  namespace: a\n",
    );
    const code = await main([
      "fn",
      "eval",
      dir,
      "-s",
      "-t",
      "mutator",
      "-i",
      "set-namespace",
      "--fn-config",
      outside,
    ]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: --fn-config must be under ${dir} if saving functions to Kptfile (--save=true)\n`,
    );
  });
});
