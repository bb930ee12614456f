/**
 * What the adversarial tests share: the BUILT app (`probot run ./dist/src/index.js`, unmodified) against
 * the local GitHub of ../shared/tools/fake-github, plus small readers of what the fake holds (branch
 * heads, commits, `porchlight/render` runs). Each test file starts one scenario ({@link startScenario}: a
 * fake, maybe a real Redis, the apps it asks for) or one harness (a scenario running one app it restarts);
 * each test uses its own repository.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { type Any, loadScenario } from "../helpers/fake-github.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

export { fakeGitHubAvailable } from "../helpers/fake-github.js";
export type { Any };

export const OWNER = "acme";

/** A Kptfile whose pipeline is `mutators` (YAML lines under `mutators:`), default set-namespace prod. */
export function kptfile(name: string, mutators = SET_NAMESPACE): string {
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n${mutators}`;
}

export const SET_NAMESPACE =
  "    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1\n      configMap:\n        namespace: prod\n";

/**
 * A package whose render takes seconds whatever the YAML layer's speed: a Starlark mutator that loops
 * 1.5 million times over string work (about 2 s of CPU here, within the default step budget), then
 * set-namespace prod over 50 ConfigMaps whose values carry `value`.
 */
export function slowPackage(name: string, value: number | string = 0): Record<string, string> {
  const spin = `    - image: ghcr.io/kptdev/krm-functions-catalog/starlark:v0.5.0\n      configPath: spin.yaml\n`;
  const config = [
    "apiVersion: fn.kpt.dev/v1alpha1",
    "kind: StarlarkRun",
    "metadata:",
    "  name: spin",
    "  annotations:",
    '    config.kubernetes.io/local-config: "true"',
    "source: |",
    "  def spin():",
    "    n = 0",
    "    for i in range(1500000):",
    '      n += len(("%d-%s" % (i, "abc")).upper().split("-"))',
    "    return n",
    '  print("spun %d" % spin())',
    "",
  ].join("\n");
  const docs: string[] = [];
  for (let i = 0; i < 50; i++) docs.push(configMap(`cm-${i}`, `${value}-${"x".repeat(80)}`));
  return {
    [`${name}/Kptfile`]: kptfile(name, spin + SET_NAMESPACE),
    [`${name}/spin.yaml`]: config,
    [`${name}/many.yaml`]: docs.join("---\n"),
  };
}

export const configMap = (name: string, value: string | number) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  value: "${value}"\n`;

/** The fake GitHub and the app of one test file. */
export interface Harness {
  scenario: Any;
  gh: Any;
  app: Any;
  /** (Re)starts the app with `env` added to the defaults; stops the running one first (SIGTERM). */
  startApp(env?: Record<string, string>): Promise<Any>;
  stop(): Promise<void>;
}

/** The command that runs the built app. */
export const APP_CMD = [
  process.execPath,
  path.join(repoRoot, "node_modules/probot/bin/probot.js"),
  "run",
  "./dist/src/index.js",
];

/** Options of {@link startScenario}. */
export interface ScenarioOptions {
  /** Environment of every app the scenario starts (each start may add to it). */
  env?: Record<string, string>;
  /** A real redis-server started before the fake (its extra `args`, a `password`); apps get `REDIS_URL` only if told. */
  redis?: { args?: string[]; password?: string };
}

/** A fake GitHub (and maybe a real Redis) with the BUILT apps started against it, each unmodified. */
export interface Scenario {
  /** The fake's module (`waitFor`, ...). */
  scenario: Any;
  gh: Any;
  redis: TestRedis | undefined;
  /** Every app started, in start order. */
  apps: Any[];
  /**
   * Starts one more app with the scenario's `env` and `env` added (`hooks: false`: the fake sends it no
   * webhooks, a worker-only process); resolves once it is ready (60 s at most).
   */
  startApp(env?: Record<string, string>, options?: { hooks?: boolean }): Promise<Any>;
  /** Stops the apps (in start order), the fake and Redis; removes the fake's data directory. */
  stop(): Promise<void>;
}

/** The preamble of an adversarial test file: the built app, the fake GitHub, Redis if asked. No app runs yet. */
export async function startScenario(options: ScenarioOptions = {}): Promise<Scenario> {
  ensureBuiltCli();
  const scenario = await loadScenario();
  const redis = options.redis ? await startRedis(options.redis) : undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-adversarial-"));
  const gh = await scenario.startFakeGitHub({ dataDir });
  const apps: Any[] = [];
  return {
    scenario,
    gh,
    redis,
    apps,
    async startApp(env = {}, start = {}) {
      const app = await gh.startApp({
        cmd: APP_CMD,
        cwd: repoRoot,
        readyTimeoutMs: 60_000,
        ...(start.hooks === false ? { hooks: false } : {}),
        env: { ...options.env, ...env },
      });
      apps.push(app);
      return app;
    },
    async stop() {
      for (const app of apps) await app?.stop();
      await gh.stop();
      await redis?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the fake and the app (`env`: the app's extra environment). */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const base = await startScenario({
    env: { LOG_LEVEL: "warn", PORCHLIGHT_RECONCILE_INTERVAL_MS: "0", ...env },
  });
  const harness: Harness = {
    scenario: base.scenario,
    gh: base.gh,
    app: undefined,
    async startApp(extra = {}) {
      await harness.app?.stop();
      harness.app = await base.startApp(extra);
      return harness.app;
    },
    stop: () => base.stop(),
  };
  await harness.startApp();
  return harness;
}

/** The sha `branch` points at now (`undefined` when it does not exist). */
export async function head(gh: Any, repo: string, branch: string): Promise<string | undefined> {
  const answer = await gh.request("GET", `/repos/${OWNER}/${repo}/git/ref/heads/${branch}`);
  return answer.status === 200 ? answer.data.object.sha : undefined;
}

/** The commit object of `sha` (`message`, `parents`). */
export async function commit(
  gh: Any,
  repo: string,
  sha: string,
): Promise<{ message: string; parents: { sha: string }[] }> {
  return (await gh.request("GET", `/repos/${OWNER}/${repo}/git/commits/${sha}`)).data;
}

/** The `porchlight/render` runs on `sha` (every attempt), each with its annotations. */
export async function renderRuns(gh: Any, repo: string, sha: string): Promise<Any[]> {
  return (await gh.checkRuns(OWNER, repo, sha)).filter((r: Any) => r.name === "porchlight/render");
}

/** Waits until `branch`'s head has a completed `porchlight/render` run; returns the head and its runs. */
export async function waitForVerdict(
  harness: Harness,
  repo: string,
  branch: string,
  timeoutMs = 60_000,
): Promise<{ sha: string; runs: Any[] }> {
  return harness.scenario.waitFor(
    async () => {
      const sha = await head(harness.gh, repo, branch);
      if (!sha) return null;
      const runs = await renderRuns(harness.gh, repo, sha);
      return runs.length > 0 && runs.every((r: Any) => r.status === "completed") ? { sha, runs } : null;
    },
    { timeoutMs, intervalMs: 250, message: `a concluded porchlight/render run on the head of ${branch}` },
  );
}

/** Every commit reachable from `branch` that is not on the default branch, newest first. */
export async function draftCommits(gh: Any, repo: string, branch: string): Promise<Any[]> {
  const answer = await gh.request("GET", `/repos/${OWNER}/${repo}/compare/main...${branch}`);
  return [...(answer.data.commits ?? [])].reverse();
}
