#!/usr/bin/env node
/**
 * Bounded soak of the GitHub App (`npm run soak`): the BUILT app against ../shared/tools/fake-github,
 * about 400 webhook deliveries over 2 minutes on 15 draft branches — pushes mixed with redeliveries and
 * out-of-order deliveries — first with one process (embedded queue), then with two processes on Redis
 * (one receives webhooks and works, the other only works), then on Redis with several installations (one
 * repository each, the branches spread over them) while Redis is killed mid-traffic and comes back empty on
 * the same port. Each phase waits until the app is idle, then
 * checks every branch head is rendered and checked, no lost or duplicate render commit, no unconcluded
 * check run, and prints: deliveries, renders, commits, dropped results, p50/p99 webhook answer time,
 * p50/p99/max /healthz answer time (polled all along), p50/p99 push-to-check time (and p50/p95 per
 * installation), peak RSS per process.
 *
 * Usage: npm run soak [-- --phases one,redis,installations --seconds 120 --branches 15 --rate 5
 *   --user-deliveries 360 --installations 3]
 * Exits 1 when a phase breaks a promise (figures are printed either way). Needs ../shared beside the
 * checkout; the Redis phase needs redis-server (skipped with a message otherwise).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = parseArgs({
  options: {
    phases: { type: "string", default: "one,redis,installations" },
    installations: { type: "string", default: "3" },
    seconds: { type: "string", default: "120" },
    branches: { type: "string", default: "15" },
    rate: { type: "string", default: "5" },
    "drain-seconds": { type: "string", default: "300" },
    /** Deliveries the simulated users cause at most (pushes, redeliveries); the app's own commits add theirs. */
    "user-deliveries": { type: "string", default: "360" },
  },
});
const SECONDS = Number(opts.seconds);
const BRANCHES = Number(opts.branches);
const RATE = Number(opts.rate);
const DRAIN_MS = Number(opts["drain-seconds"]) * 1000;
const USER_DELIVERIES = Number(opts["user-deliveries"]);
const INSTALLATIONS = ["acme", "globex", "initech", "umbrella", "hooli", "soylent"].slice(
  0,
  Math.max(2, Math.min(6, Number(opts.installations))),
);

const sharedDir = path.resolve(repoRoot, "../shared");
const scenarioPath = existsSync(sharedDir)
  ? path.join(realpathSync(sharedDir), "tools/fake-github/scenario.mjs")
  : "";
if (!scenarioPath || !existsSync(scenarioPath)) {
  console.error(`soak: ${path.join(sharedDir, "tools/fake-github")} is absent; nothing to run against`);
  process.exit(2);
}
const scenario = await import(pathToFileURL(scenarioPath).href);

/**
 * Polls `/healthz` of the apps on `ports` every 250 ms from a child process, so the times are the apps'
 * and not pauses of this script's own event loop (busy with git and the simulated users: timed here, a
 * poll measured up to 2 s while the app's loop never stalled over 0.5 s). `stop()` resolves with every
 * poll `{ok, ms}`.
 */
function startHealthPoller(ports) {
  const code = `
    const ports = JSON.parse(process.argv[1]);
    let polling = true;
    process.stdin.on("end", () => { polling = false; });
    process.stdin.resume();
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    Promise.all(ports.map(async (port) => {
      while (polling) {
        const t = performance.now();
        const ok = await fetch("http://127.0.0.1:" + port + "/healthz", { signal: AbortSignal.timeout(30000) })
          .then((r) => r.ok).catch(() => false);
        process.stdout.write(JSON.stringify({ ok, ms: performance.now() - t }) + "\\n");
        await sleep(250);
      }
    }));
  `;
  const child = spawn(process.execPath, ["-e", code, JSON.stringify(ports)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const polls = [];
  let pending = "";
  child.stdout.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line) polls.push(JSON.parse(line));
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      return polls;
    },
  };
}

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1
      configMap:
        namespace: prod
    - image: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0
      configMap:
        tier: web
`;
const deploy = (replicas) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # the app\nspec:\n  replicas: ${replicas}\n`;

/** undici's causes of a `fetch failed` whose connection was reset (a harness hiccup, not an answer). */
const CONNECTION_RESET = new Set(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = (list) => list[Math.floor(Math.random() * list.length)];
function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const ms = (v) =>
  Number.isNaN(v) ? "n/a" : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway redis-server on a free loopback port, or undefined when it is not installed. `restart()` kills
 * it (SIGKILL) and starts an empty one on the same port, as a Redis without persistence comes back.
 */
async function startRedis() {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), "porchlight-soak-redis-"));
  let child = await spawnRedis(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart(downMs) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      await sleep(downMs);
      child = await spawnRedis(port, dir);
    },
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function spawnRedis(port, dir) {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}

/** Peak resident set (VmHWM) of a process and its children-threads, in MB; NaN where /proc is absent. */
function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

async function metricSum(port, name) {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    let sum = 0;
    for (const line of text.split("\n")) if (line.startsWith(name)) sum += Number(line.split(" ").pop());
    return sum;
  } catch {
    return Number.NaN;
  }
}

async function runPhase(name, { redis, owners = ["acme"], restartRedis = false }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `porchlight-soak-${name}-`));
  const gh = await scenario.startFakeGitHub({ dataDir });
  const apps = [];
  const problems = [];
  let poller;
  try {
    for (const owner of owners) {
      if (owners.length > 1) await gh.createInstallation(owner);
      await gh.createRepo(owner, "soak", {
        "README.md": "# soak\n",
        "app/Kptfile": KPTFILE,
        "app/deploy.yaml": deploy(1),
      });
    }
    const cmd = [process.execPath, "node_modules/probot/bin/probot.js", "run", "./dist/src/index.js"];
    const common = { LOG_LEVEL: "warn", PORCHLIGHT_RECONCILE_INTERVAL_MS: "60000" };
    if (redis) {
      const env = { ...common, REDIS_URL: redis.url, PORCHLIGHT_JOB_LOCK_MS: "5000" };
      apps.push(
        await gh.startApp({
          cmd,
          cwd: repoRoot,
          readyTimeoutMs: 60_000,
          env: { ...env, PORCHLIGHT_ROLE: "all" },
        }),
      );
      apps.push(
        await gh.startApp({
          cmd,
          cwd: repoRoot,
          readyTimeoutMs: 60_000,
          hooks: false,
          env: { ...env, PORCHLIGHT_ROLE: "worker" },
        }),
      );
    } else {
      apps.push(
        await gh.startApp({ cmd, cwd: repoRoot, readyTimeoutMs: 60_000, env: { ...common, REDIS_URL: "" } }),
      );
    }

    const branches = Array.from({ length: BRANCHES }, (_, i) => `drafts/app/w${i}`);
    // Branch names are unique over the repositories: each lives in one installation's repository.
    const ownerOf = new Map(branches.map((b, i) => [b, owners[i % owners.length]]));
    const pushes = []; // {branch, sha, at, replicas}
    const lastReplicas = new Map();
    let counter = 1;
    let retriedPushes = 0;
    // One user per branch at a time (as a person pushing); a push that races the app's render commit is
    // rejected like a non-fast-forward push, and the user pushes again on top of the new head.
    const locks = new Map();
    const onBranch = (branch, fn) => {
      const next = (locks.get(branch) ?? Promise.resolve()).then(fn, fn);
      locks.set(
        branch,
        next.catch(() => undefined),
      );
      return next;
    };
    const pushOnce = async (branch, replicas, options) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await gh.pushFiles(
            ownerOf.get(branch),
            "soak",
            branch,
            { "app/deploy.yaml": deploy(replicas) },
            `scale to ${replicas}`,
            { ...(lastReplicas.has(branch) ? {} : { from: "main" }), ...options },
          );
        } catch (err) {
          if (attempt >= 5 || !/rejected|cannot lock ref|fetch first|non-fast-forward/.test(err.message))
            throw err;
          retriedPushes++;
        }
      }
    };
    const push = async (branch, options = {}) => {
      const replicas = ++counter;
      const { after } = await pushOnce(branch, replicas, options);
      lastReplicas.set(branch, replicas);
      pushes.push({ branch, owner: ownerOf.get(branch), sha: after, at: Date.now(), replicas });
    };

    const actions = { redeliver: 0, reorder: 0 };
    let resets = 0;
    const started = Date.now();
    // /healthz of every process, polled all along (promise 6: health answers while the app works).
    poller = startHealthPoller(apps.map((a) => a.port));
    const deadline = started + SECONDS * 1000;
    // Redis killed at a third of the traffic, back empty 6 s later (the app must re-derive its work).
    const redisRestart = restartRedis
      ? sleep((SECONDS * 1000) / 3).then(() => redis.restart(6000).then(() => Date.now() - started))
      : undefined;
    const inFlight = new Set();
    let tick = 0;
    while (Date.now() < deadline && pushes.length + actions.redeliver < USER_DELIVERIES) {
      const roll = Math.random();
      const unstarted = branches.filter((b) => !lastReplicas.has(b));
      // Branches pushed at least once (a first push may still be on its way).
      const known = [...lastReplicas.keys()];
      let action;
      if (unstarted.length > 0 && (tick % 2 === 0 || known.length === 0)) {
        const branch = unstarted[0];
        action = () => onBranch(branch, () => (lastReplicas.has(branch) ? undefined : push(branch)));
      } else if (roll < 0.6 || pushes.length < 5) {
        const branch = pick(known);
        action = () => onBranch(branch, () => push(branch));
      } else if (roll < 0.8) {
        action = async () => {
          const old = (await gh.deliveries({ event: "push" })).filter((d) => d.source !== "redelivery");
          if (!old.length) return;
          actions.redeliver++;
          await gh.redeliver(pick(old).delivery);
        };
      } else {
        // Two pushes to one branch delivered newest first.
        const branch = pick(known);
        action = () =>
          onBranch(branch, async () => {
            actions.reorder++;
            await gh.holdDeliveries();
            try {
              await push(branch);
              await push(branch);
            } finally {
              await gh.releaseDeliveries({ order: "reverse" });
            }
          });
      }
      tick++;
      if (inFlight.size < 12) {
        // A connection of this script to the fake reset under load (a keep-alive socket the fake closed as
        // the request went out) is the harness's, not the app's: the simulated user tries once more.
        const p = action()
          .catch((err) => {
            if (!CONNECTION_RESET.has(err.cause?.code)) throw err;
            resets++;
            return action();
          })
          .catch((err) =>
            problems.push(
              `traffic: ${err.message}${err.cause ? ` (${err.cause.code ?? err.cause.message})` : ""}`,
            ),
          )
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await sleep(1000 / RATE);
    }
    await Promise.all(inFlight);
    const restartedAt = await redisRestart?.catch((err) => problems.push(`redis restart: ${err.message}`));
    const trafficEnd = Date.now();

    // Drain: every branch head has a concluded porchlight/render run and nothing is in flight.
    const head = async (branch) =>
      (await gh.request("GET", `/repos/${ownerOf.get(branch)}/soak/branches/${encodeURIComponent(branch)}`))
        .data.commit.sha;
    const concluded = async (branch, sha) =>
      (await gh.checkRuns(ownerOf.get(branch), "soak", sha)).some(
        (r) => r.name === "porchlight/render" && r.status === "completed",
      );
    const drained = async () => {
      for (const branch of lastReplicas.keys())
        if (!(await concluded(branch, await head(branch)))) return false;
      return true;
    };
    try {
      await scenario.waitFor(drained, {
        timeoutMs: DRAIN_MS,
        intervalMs: 1000,
        message: "every head checked",
      });
      await gh.idle({ quietMs: 3000, timeoutMs: DRAIN_MS });
    } catch (err) {
      problems.push(`drain: ${err.message}`);
    }
    const drainMs = Date.now() - trafficEnd;
    const health = await poller.stop();
    const healthMs = health.map((h) => h.ms);
    const unhealthy = health.filter((h) => !h.ok).length;
    if (unhealthy) problems.push(`${unhealthy} /healthz poll(s) not answered 200`);

    // Commits and check runs.
    const commits = [];
    for (const owner of owners) {
      const log = await gh.git(owner, "soak", ["log", "--all", "--format=%H%x09%P%x09%an"]);
      commits.push(
        ...String(log.stdout ?? log)
          .trim()
          .split("\n")
          .map((line) => line.split("\t"))
          .map(([sha, parents, author]) => ({
            owner,
            sha,
            parent: parents.split(" ")[0],
            bot: author.includes("[bot]"),
          })),
      );
    }
    const renderCommits = commits.filter((c) => c.bot);
    const byParent = new Map();
    for (const c of renderCommits) byParent.set(c.parent, [...(byParent.get(c.parent) ?? []), c.sha]);
    const duplicates = [...byParent].filter(([, shas]) => shas.length > 1);
    if (duplicates.length) problems.push(`duplicate render commits for ${duplicates.length} parent(s)`);
    const botShas = new Set(renderCommits.map((c) => c.sha));
    const onRender = renderCommits.filter((c) => botShas.has(c.parent));
    if (onRender.length) problems.push(`${onRender.length} render commit(s) on a render commit (loop)`);

    const runsBySha = new Map();
    for (const c of commits) runsBySha.set(c.sha, await gh.checkRuns(c.owner, "soak", c.sha));
    const allRuns = [...runsBySha.values()].flat().filter((r) => r.name === "porchlight/render");
    const unconcluded = allRuns.filter((r) => r.status !== "completed");
    if (unconcluded.length) problems.push(`${unconcluded.length} porchlight/render run(s) not concluded`);

    // Every head: checked, holds the last pushed content, rendered.
    for (const [branch, replicas] of lastReplicas) {
      const sha = await head(branch);
      const runs = (runsBySha.get(sha) ?? (await gh.checkRuns(ownerOf.get(branch), "soak", sha))).filter(
        (r) => r.name === "porchlight/render",
      );
      if (!runs.some((r) => r.status === "completed"))
        problems.push(`${branch}: head ${sha.slice(0, 7)} has no verdict`);
      const text = await gh.gitShow(ownerOf.get(branch), "soak", sha, "app/deploy.yaml");
      if (!text?.includes(`replicas: ${replicas}`))
        problems.push(`${branch}: the last push (replicas ${replicas}) is lost`);
      if (!text?.includes("namespace: prod")) problems.push(`${branch}: head is not rendered`);
      if (runs.some((r) => r.conclusion !== "success"))
        problems.push(`${branch}: head verdict is not success`);
    }

    // Push-to-check: from a push to the first concluded run on it or on its render commit.
    const latencies = [];
    const perOwner = new Map(owners.map((o) => [o, []]));
    for (const p of pushes) {
      const candidates = [p.sha, ...(byParent.get(p.sha) ?? [])];
      const times = candidates
        .flatMap((sha) => runsBySha.get(sha) ?? [])
        .filter((r) => r.name === "porchlight/render" && r.completed_at)
        .map((r) => Date.parse(r.completed_at));
      if (times.length) {
        latencies.push(Math.max(0, Math.min(...times) - p.at));
        perOwner.get(p.owner).push(latencies.at(-1));
      }
    }

    const deliveries = await gh.deliveries();
    const answerMs = deliveries.filter((d) => d.status > 0).map((d) => d.ms);
    const failedDeliveries = deliveries.filter((d) => !d.ok);
    if (failedDeliveries.length) problems.push(`${failedDeliveries.length} deliveries not answered 2xx`);
    const { violations } = await gh.violations();
    const stale = violations.filter(
      (v) => v.kind === "note" && /STALE_DATA|Expected branch/.test(JSON.stringify(v)),
    );
    const renders = (
      await Promise.all(apps.map((a) => metricSum(a.port, "porchlight_renders_total")))
    ).reduce((a, b) => a + b, 0);
    const rss = apps.map((a) => peakRssMb(a.child.pid));
    const leaks = apps
      .flatMap((a) => a.logs)
      .filter((l) => l.includes(gh.key.privateKey.split("\n")[1]) || l.includes(apps[0].secret));
    if (leaks.length) problems.push(`${leaks.length} log line(s) carry a secret`);

    const figures = {
      phase: name,
      processes: apps.length,
      traffic: `${Math.round((trafficEnd - started) / 1000)} s (+${Math.round(drainMs / 1000)} s drain)`,
      actions: `${pushes.length} pushes (${retriedPushes} pushed again after racing a render commit), ${actions.redeliver} redeliveries, ${actions.reorder} reordered pairs${resets ? ` (${resets} tried again after the script's connection to the fake was reset)` : ""}`,
      deliveries: deliveries.length,
      renders,
      commits: renderCommits.length,
      "dropped results": stale.length,
      "webhook answer p50/p99": `${ms(percentile(answerMs, 50))} / ${ms(percentile(answerMs, 99))}`,
      "/healthz p50/p99/max": `${ms(percentile(healthMs, 50))} / ${ms(percentile(healthMs, 99))} / ${ms(Math.max(...healthMs))} (${healthMs.length} polls)`,
      "push-to-check p50/p99": `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} (${latencies.length} pushes with a verdict)`,
      ...(owners.length > 1
        ? {
            "per installation p50/p95": owners
              .map((o) => {
                const l = perOwner.get(o);
                return `${o} ${ms(percentile(l, 50))} / ${ms(percentile(l, 95))} (${l.length})`;
              })
              .join("; "),
          }
        : {}),
      ...(restartRedis
        ? { "redis restart": `killed at ${ms((SECONDS * 1000) / 3)}, back empty at ${ms(restartedAt)}` }
        : {}),
      lost: problems.filter((p) => /is lost|no verdict/.test(p)).length,
      "peak RSS": rss.map((r) => `${Math.round(r)} MB`).join(" + "),
      problems: problems.length ? problems : "none",
    };
    return figures;
  } finally {
    await poller?.stop();
    for (const app of apps) await app.stop().catch(() => undefined);
    await gh.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (const phase of opts.phases.split(",")) {
  if (phase === "one") results.push(await runPhase("one process", { redis: undefined }));
  else if (phase === "redis") {
    const redis = await startRedis();
    if (!redis) {
      console.log("soak: redis-server is not installed; the two-process phase is skipped");
      continue;
    }
    try {
      results.push(await runPhase("two processes on Redis", { redis }));
    } finally {
      await redis.stop();
    }
  } else if (phase === "installations") {
    const redis = await startRedis();
    if (!redis) {
      console.log("soak: redis-server is not installed; the installations phase is skipped");
      continue;
    }
    try {
      results.push(
        await runPhase(`${INSTALLATIONS.length} installations, two processes on Redis, Redis restarted`, {
          redis,
          owners: INSTALLATIONS,
          restartRedis: true,
        }),
      );
    } finally {
      await redis.stop();
    }
  } else throw new Error(`soak: unknown phase ${phase} (one, redis, installations)`);
}
for (const figures of results) {
  console.log(`\n== ${figures.phase}`);
  for (const [key, value] of Object.entries(figures))
    if (key !== "phase") console.log(`${key.padEnd(24)} ${Array.isArray(value) ? value.join("; ") : value}`);
}
process.exit(results.some((r) => Array.isArray(r.problems)) ? 1 : 0);
