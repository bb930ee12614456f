/**
 * What the adversarial tests share: the BUILT app (`probot run ./dist/src/index.js`, unmodified) against
 * the local GitHub of ../shared/tools/fake-github, plus small readers of what the fake holds (branch
 * heads, commits, `porchlight/render` runs). Each test file starts one fake and one app; each test uses
 * its own repository.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuiltCli, repoRoot } from "../helpers/built-cli.js";
import { type Any, loadScenario } from "../helpers/fake-github.js";

export { fakeGitHubAvailable } from "../helpers/fake-github.js";
export type { Any };

export const OWNER = "acme";

/** A Kptfile whose pipeline is `mutators` (YAML lines under `mutators:`), default set-namespace prod. */
export function kptfile(name: string, mutators = SET_NAMESPACE): string {
  return `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n${mutators}`;
}

export const SET_NAMESPACE =
  "    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1\n      configMap:\n        namespace: prod\n";

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

/** Starts the fake and the app (`env`: the app's extra environment). */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  ensureBuiltCli();
  const scenario = await loadScenario();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-adversarial-"));
  const gh = await scenario.startFakeGitHub({ dataDir });
  const harness: Harness = {
    scenario,
    gh,
    app: undefined,
    async startApp(extra = {}) {
      await harness.app?.stop();
      harness.app = await gh.startApp({
        cmd: APP_CMD,
        cwd: repoRoot,
        env: { LOG_LEVEL: "warn", PORCHLIGHT_RECONCILE_INTERVAL_MS: "0", ...env, ...extra },
        readyTimeoutMs: 60_000,
      });
      return harness.app;
    },
    async stop() {
      await harness.app?.stop();
      await gh.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
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
