// API calls per draft push: the built app runs unmodified (`probot run ./dist/src/index.js`) against
// the local GitHub of ../shared/tools/fake-github, which logs every request it serves (REST, GraphQL,
// git over HTTP). A scenario creates a repository, pushes a draft that changes one file of one package,
// waits until the app is idle, and counts the app's requests from the push on (the installation token
// aside), including those caused by the app's own render commit coming back as a push.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { summary } from "./stats.js";

/** Why the API-call scenarios are skipped, or undefined when the fake is beside the checkout. */
export function fakeGitHubMissing(sharedDir) {
  const scenario = path.join(sharedDir, "tools/fake-github/scenario.mjs");
  return existsSync(scenario) ? undefined : `${scenario} is absent: API calls per push are not measured`;
}

const KPTFILE = (name) => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: ${name}
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: bench
`;
const configMap = (name, value) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: bench\ndata:\n  value: "${value}"\n`;

/** Files of package `dir` with `files` resource files (plus its Kptfile). */
function packageFiles(dir, files) {
  const out = { [`${dir}/Kptfile`]: KPTFILE(path.basename(dir)) };
  for (let i = 0; i < files; i++)
    out[`${dir}/cm-${String(i).padStart(4, "0")}.yaml`] = configMap(`cm-${i}`, 0);
  return out;
}

function packageDir(i) {
  return `pkgs/p${String(i).padStart(4, "0")}`;
}

/** Reads the fake's request log (one JSON object a line). */
function requestLog(dataDir) {
  const file = path.join(dataDir, "requests.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The commit a branch points at, read from the bare repository with git. */
function headOf(gitDir, ref) {
  return new Promise((resolve) => {
    execFile("git", ["--git-dir", gitDir, "rev-parse", "--verify", "--quiet", ref], (err, stdout) =>
      resolve(err ? undefined : stdout.trim()),
    );
  });
}

/** CPU time (user + system, ms) the process `pid` has used, worker threads included; NaN without /proc. */
function cpuMs(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** Linux's USER_HZ (the unit of /proc/<pid>/stat times). */
const CLOCK_TICKS = 100;

function isAppRequest(entry) {
  return !entry.path.startsWith("/_control/") && !/\/app\/installations\/\d+\/access_tokens/.test(entry.path);
}

function kindOf(entry) {
  if (entry.op?.startsWith?.("git ") || /\.git\/|\/info\/refs|git-upload-pack/.test(entry.path)) return "git";
  if (/\/graphql$/.test(entry.path.split("?")[0])) return "graphql";
  return entry.method === "GET" ? "rest-read" : "rest-write";
}

/**
 * Runs the scenarios `[{name, packages, files}]`, each `rounds` times (a new repository per run).
 * Returns `[{name, packages, files, calls, ms, cpuMs, kinds}]`: calls, ms (delivery to the app's last
 * request) and cpuMs (CPU time the app process used meanwhile, render workers included) are summaries;
 * kinds is the breakdown (`rest-read`, `rest-write`, `graphql`, `git`) of the last run.
 */
export async function measureApiCalls({ sharedDir, repoRoot, scenarios, rounds }) {
  const scenarioLib = await import(
    pathToFileURL(path.join(sharedDir, "tools/fake-github/scenario.mjs")).href
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-bench-gh-"));
  const gh = await scenarioLib.startFakeGitHub({ dataDir });
  let app;
  try {
    app = await gh.startApp({
      cmd: [
        process.execPath,
        path.join(repoRoot, "node_modules/probot/bin/probot.js"),
        "run",
        "./dist/src/index.js",
      ],
      cwd: repoRoot,
      // No periodic reconciliation pass inside a measured push (the pass at start runs before any repository).
      env: { LOG_LEVEL: process.env.BENCH_APP_LOG_LEVEL ?? "warn", PORCHLIGHT_RECONCILE_INTERVAL_MS: "0" },
      readyTimeoutMs: 60_000,
    });
    const samples = scenarios.map(() => ({ calls: [], ms: [], cpuMs: [], kinds: {} }));
    let repoCount = 0;
    for (let round = 0; round < rounds; round++) {
      for (const [i, s] of scenarios.entries()) {
        const repo = `bench-${repoCount++}`;
        const files = { "README.md": "# bench\n" };
        for (let p = 0; p < s.packages; p++) Object.assign(files, packageFiles(packageDir(p), s.files));
        await gh.createRepo("acme", repo, files);
        await gh.idle({ quietMs: 300 });
        const target = packageDir(0);
        const { payload, after } = await gh.pushFiles(
          "acme",
          repo,
          `drafts/${target}/v1`,
          { [`${target}/cm-0000.yaml`]: configMap("cm-0", round + 1) },
          "bench: change one file",
          { from: "main", deliver: false },
        );
        const before = requestLog(dataDir).length;
        const cpuBefore = cpuMs(app.child.pid);
        const start = Date.now();
        await gh.control("POST", "deliver", { event: "push", payload });
        // Wait for the render commit (read with git, not over HTTP, so it is not counted), then for quiet.
        const branch = `refs/heads/drafts/${target}/v1`;
        await scenarioLib.waitFor(async () => (await headOf(gh.repoDir("acme", repo), branch)) !== after, {
          timeoutMs: 300_000,
          intervalMs: 200,
          message: `the render commit on ${branch}`,
        });
        await gh.idle({ quietMs: 1500, timeoutMs: 300_000 });
        const entries = requestLog(dataDir).slice(before).filter(isAppRequest);
        const last = entries.reduce((m, e) => Math.max(m, Date.parse(e.time)), start);
        samples[i].calls.push(entries.length);
        samples[i].ms.push(last - start);
        samples[i].cpuMs.push(Math.round(cpuMs(app.child.pid) - cpuBefore));
        const kinds = {};
        for (const e of entries) kinds[kindOf(e)] = (kinds[kindOf(e)] ?? 0) + 1;
        samples[i].kinds = kinds;
        const head = await gh.gitShow("acme", repo, `drafts/${target}/v1`, `${target}/Kptfile`);
        if (!head?.includes("Rendered")) {
          throw new Error(
            `bench: the app did not render ${repo} (${target}); app logs:\n${app.logs.slice(-20).join("\n")}`,
          );
        }
      }
    }
    return scenarios.map((s, i) => ({
      name: s.name,
      packages: s.packages,
      files: s.files,
      calls: summary(samples[i].calls),
      ms: summary(samples[i].ms),
      cpuMs: summary(samples[i].cpuMs),
      kinds: samples[i].kinds,
    }));
  } finally {
    await app?.stop();
    await gh.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
