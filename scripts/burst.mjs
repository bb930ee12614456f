#!/usr/bin/env node
// npm run burst: N drafts (default 10, `--drafts N`) of N packages of one repository are pushed at once to
// one installation; prints how long after their webhooks are released every head has a concluded
// porchlight/render run. The built app runs unmodified (`probot run ./dist/src/index.js`) against
// the local GitHub of ../shared/tools/fake-github. Build first (`npm run build`). Figures are measured,
// not asserted: the machine is noisy.
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const scenarioPath = path.resolve(repoRoot, "../shared/tools/fake-github/scenario.mjs");
if (!existsSync(scenarioPath)) {
  console.error(`burst: ${scenarioPath} is absent (fake GitHub not available)`);
  process.exit(0);
}
const flag = process.argv.indexOf("--drafts");
const drafts = flag > 0 ? Number(process.argv[flag + 1]) : 10;
const scenario = await import(pathToFileURL(realpathSync(scenarioPath)).href);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "porchlight-burst-"));
const gh = await scenario.startFakeGitHub({ dataDir });

const kptfile = (name) =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n    - image: ghcr.io/kptdev/krm-functions-catalog/set-namespace:v0.4.1\n      configMap:\n        namespace: prod\n`;
const configMap = (name, value) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  value: "${value}"\n`;

let app;
try {
  const files = { "README.md": "# burst\n" };
  for (let i = 0; i < drafts; i++)
    Object.assign(files, { [`p${i}/Kptfile`]: kptfile(`p${i}`), [`p${i}/cm.yaml`]: configMap(`p${i}`, 0) });
  await gh.createRepo("acme", "burst", files);
  app = await gh.startApp({
    cmd: [
      process.execPath,
      path.join(repoRoot, "node_modules/probot/bin/probot.js"),
      "run",
      "./dist/src/index.js",
    ],
    cwd: repoRoot,
    env: { LOG_LEVEL: "warn", PORCHLIGHT_RECONCILE_INTERVAL_MS: "0" },
    readyTimeoutMs: 60_000,
  });
  await gh.idle({ quietMs: 1000 });
  // Pushes made without their webhooks, then all delivered at once.
  await gh.holdDeliveries();
  for (let i = 0; i < drafts; i++)
    await gh.pushFiles(
      "acme",
      "burst",
      `drafts/p${i}/v1`,
      { [`p${i}/cm.yaml`]: configMap(`p${i}`, 1) },
      "edit",
      { from: "main" },
    );
  const start = Date.now();
  await gh.releaseDeliveries({ order: "fifo" });
  const checked = new Map();
  while (checked.size < drafts && Date.now() - start < 300_000) {
    for (let i = 0; i < drafts; i++) {
      if (checked.has(i)) continue;
      const ref = await gh.request("GET", `/repos/acme/burst/git/ref/heads/drafts/p${i}/v1`);
      const runs = (await gh.checkRuns("acme", "burst", ref.data.object.sha)).filter(
        (r) => r.name === "porchlight/render",
      );
      if (runs.length > 0 && runs.every((r) => r.status === "completed")) checked.set(i, Date.now() - start);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const times = [...checked.values()].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      drafts,
      checked: checked.size,
      firstCheckedMs: times[0],
      allCheckedMs: times.at(-1),
    }),
  );
} finally {
  await app?.stop();
  await gh.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
