/**
 * End-to-end: the README's "Porch book's chapter 8" section, run as written (the shell block between
 * `<!-- chapter-8:begin -->` and `<!-- chapter-8:end -->`) with `porchlight` the BUILT CLI, against a local
 * GitHub (../shared/tools/fake-github) with the BUILT app running: a blueprint made with init / pull / push /
 * propose / approve, cloned into a deployment repository (the namespace follows the clone's name), a second
 * blueprint revision by copy, and the deployment upgraded to it with `rpkg upgrade`. Skips visibly without the fake.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { type Any, fakeGitHubAvailable, loadScenario } from "../helpers/fake-github.js";

const run = promisify(execFile);

/** The README's chapter 8 block. */
function chapterEight(): string {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const m = /<!-- chapter-8:begin -->\n```sh\n([\s\S]*?)```\n<!-- chapter-8:end -->/.exec(readme);
  if (!m) throw new Error("README.md has no chapter-8 block");
  return m[1]!;
}

describe.skipIf(!fakeGitHubAvailable)("the README's chapter 8 journey against the fake GitHub", () => {
  let gh: Any;
  let app: Any;
  let cli = "";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-ch8-e2e-"));
  const work = mkdtempSync(path.join(os.tmpdir(), "porchlight-ch8-work-"));

  beforeAll(async () => {
    cli = ensureBuiltCli();
    const scenario = await loadScenario();
    gh = await scenario.startFakeGitHub({ dataDir });
    await gh.createRepo("acme", "blueprints", { "README.md": "# blueprints\n" });
    await gh.createRepo("acme", "deployments", {
      "README.md": "# deployments\n",
      ".github/porchlight.yml": "deployment: true\n",
    });
    app = await gh.startApp({ cmd: ["npm", "start"], cwd: repoRoot, readyTimeoutMs: 90_000 });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await gh?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it("runs as written: blueprint, clone into the deployment repository, new revision, upgrade", async () => {
    const bin = path.join(work, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "porchlight"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
    chmodSync(path.join(bin, "porchlight"), 0o755);
    const cwd = path.join(work, "journey");
    mkdirSync(cwd);
    const env = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
      GITHUB_TOKEN: await gh.installationToken(),
      GITHUB_API_URL: gh.apiUrl,
    };
    let out: { stdout: string; stderr: string };
    try {
      out = await run("bash", ["-e", "-o", "pipefail", "-c", chapterEight()], {
        cwd,
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `the chapter 8 block failed: ${e.message}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`,
      );
    }
    // repo get: the role of each repository.
    expect(out.stdout).toMatch(/acme\/deployments\s+git\s+Package\s+true\s+True/);
    expect(out.stdout).toMatch(/acme\/blueprints\s+git\s+Package\s+True/);
    // Published revisions in both repositories, the last listing showing east's.
    for (const tag of ["basens/v1", "basens/v2"])
      expect((await gh.request("GET", `/repos/acme/blueprints/git/ref/tags/${tag}`)).status).toBe(200);
    for (const tag of ["east/v1", "east/v2"])
      expect((await gh.request("GET", `/repos/acme/deployments/git/ref/tags/${tag}`)).status).toBe(200);
    expect(out.stdout).toMatch(
      /deployments\.east\.v2\s+east\s+v2\s+2\s+true\s+Published\s+acme\/deployments/,
    );
    // The clone's package context named the namespace after the deployment; the upgrade brought the quota.
    const ns = parse((await gh.gitShow("acme", "deployments", "east/v2", "east/namespace.yaml")) ?? "");
    expect(ns.metadata.name).toBe("east");
    const quota = parse((await gh.gitShow("acme", "deployments", "east/v2", "east/quota.yaml")) ?? "");
    expect(quota.metadata.namespace).toBe("east");
    const kptfile = parse((await gh.gitShow("acme", "deployments", "east/v2", "east/Kptfile")) ?? "");
    expect(kptfile.upstream.git.directory).toBe("/basens");
    expect(kptfile.upstreamLock.git.ref).toBe("basens/v2");
    const context = parse(
      (await gh.gitShow("acme", "deployments", "east/v2", "east/package-context.yaml")) ?? "",
    );
    expect(context.data).toEqual({ name: "east", "package-path": "east" });
  }, 300_000);
});
