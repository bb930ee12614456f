// `npm run bench`: one table of porchlight's speed and memory against its floors, measured side by
// side in interleaved rounds (medians with [min–max]):
//   - in-process render vs the parse+serialise floor (`yaml` parse + stringify of the same files) on
//     generated packages of 100 / 1k / 10k resources and every builtin-renderable real package;
//   - the whole CLI process (time, peak RSS) vs `kpt fn render --allow-exec` on the same packages with
//     every step replaced by `exec: cat` (skipped with a message when kpt is not installed);
//   - API calls per draft push against ../shared/tools/fake-github running the built app unmodified.
// Full run: writes BENCHMARKS.md and bench/results.json. `--smallest` (CI): the smallest case of each
// part, a few seconds, writes nothing. `--only in-process,cli,api` and `--rounds N` narrow a run.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fakeGitHubMissing, measureApiCalls } from "./api-calls.js";
import { kptMissing, measureCli } from "./cli.js";
import { measureInProcess } from "./in-process.js";
import { generatedPackage, oneResourcePackage, realPackages } from "./packages.js";
import { spread, summary } from "./stats.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sharedDir = path.resolve(repoRoot, "../shared");

function parseArgs(argv) {
  const args = { smallest: false, only: undefined, rounds: undefined, write: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--smallest") args.smallest = true;
    else if (a === "--only") args.only = new Set(argv[++i].split(","));
    else if (a === "--rounds") args.rounds = Number(argv[++i]);
    else if (a === "--no-write") args.write = false;
    else throw new Error(`bench: unknown argument ${a}`);
  }
  if (args.write === undefined)
    args.write = !args.smallest && args.only === undefined && args.rounds === undefined;
  return args;
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is missing or older than src/ (the bench measures the built code). */
function ensureBuilt() {
  const main = path.join(repoRoot, "dist/src/cli/main.js");
  if (existsSync(main) && statSync(main).mtimeMs >= newestMtime(path.join(repoRoot, "src"))) return;
  console.error("bench: building dist/ (older than src/)");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: repoRoot, stdio: "inherit" });
}

function countResources(files) {
  let n = 0;
  for (const [p, bytes] of files) {
    if (!(p.endsWith(".yaml") || p.endsWith(".yml") || p.endsWith("Kptfile"))) continue;
    const text = Buffer.from(bytes).toString("utf8");
    n += text.split(/^---[ \t]*$/m).filter((chunk) => /^[a-zA-Z]/m.test(chunk)).length;
  }
  return n;
}

const args = parseArgs(process.argv.slice(2));
const wants = (part) => args.only === undefined || args.only.has(part);
ensureBuilt();
const { renderPackage } = await import(pathToFileURL(path.join(repoRoot, "dist/src/engine/render.js")).href);
const { createDefaultRuntime } = await import(
  pathToFileURL(path.join(repoRoot, "dist/src/runtimes/default.js")).href
);

const notes = [];
const real = realPackages(sharedDir);
if (real === undefined) notes.push(`${sharedDir}/real-packages is absent: real packages are not measured`);
const reals = (real ?? []).map((p) => ({ ...p, resources: countResources(p.files) }));
const largestReal = [...reals].sort(
  (a, b) => b.files.size - a.files.size || countBytes(b) - countBytes(a),
)[0];
function countBytes(p) {
  let n = 0;
  for (const b of p.files.values()) n += b.length;
  return n;
}
const gen = (n) => ({ ...generatedPackage(n), resources: n });

/** 1-minute load averages taken at the start and after each part (the machine is shared). */
const loadSamples = [];
const sampleLoad = (when) => loadSamples.push({ when, load1: Number(os.loadavg()[0].toFixed(1)) });
sampleLoad("start");

const sizes = args.smallest ? [100] : [100, 1000, 10000];
const rows = [];
const results = { command: "", inProcess: [], cli: [], apiCalls: [], notes };

if (wants("in-process")) {
  const packages = [...sizes.map(gen), ...(args.smallest ? reals.slice(0, 1) : reals)];
  const rounds = args.rounds ?? (args.smallest ? 3 : 5);
  console.error(`bench: in-process render vs floor, ${packages.length} packages x ${rounds} rounds`);
  const runtime = createDefaultRuntime({ allowExec: false });
  results.inProcess = await measureInProcess({ packages, rounds, renderPackage, runtime });
  for (const r of results.inProcess) {
    const generated = r.name.startsWith("gen-");
    rows.push({
      measure: "in-process render / floor (ms)",
      case: generated ? `${r.resources} resources` : r.name,
      porchlight: spread(r.render, 2),
      baseline: spread(r.floor, 2),
      ratio: spread(r.ratio, 2),
      target: generated && r.resources >= 1000 ? verdict(r.ratio.median <= 2, "≤ 2") : "",
    });
  }
}

if (wants("in-process")) sampleLoad("after in-process");

if (wants("cli")) {
  const missing = kptMissing();
  if (missing) notes.push(missing);
  const packages = args.smallest
    ? [{ ...oneResourcePackage(), resources: 1 }]
    : [{ ...oneResourcePackage(), resources: 1 }, gen(1000), gen(10000), ...reals];
  const rounds = args.rounds ?? 3;
  console.error(`bench: CLI vs kpt, ${packages.length} packages x ${rounds} rounds`);
  results.cli = measureCli({ packages, rounds, porchlightBin: path.join(repoRoot, "bin/porchlight.js") });
  for (const r of results.cli) {
    const label = r.name.startsWith("gen-") ? `${r.resources} resources` : r.name;
    let target = "";
    if (r.speedup) {
      if (r.name === "one-resource")
        target = verdict(r.speedup.median >= 1 / 1.5, "≥ 0.67 (within 1.5× of kpt)");
      else if (r.name === "gen-10000") target = verdict(r.speedup.median >= 6, "≥ 6 (stretch 10)");
      else if (!r.name.startsWith("gen-"))
        target = verdict(r.speedup.median > 1, r === largest(results.cli) ? "> 1 (largest)" : "> 1");
    }
    rows.push({
      measure: "CLI time, kpt / porchlight (ms)",
      case: label,
      porchlight: spread(r.porchlight.ms, 0),
      baseline: r.kpt ? spread(r.kpt.ms, 0) : "kpt absent",
      ratio: r.speedup ? `${spread(r.speedup, 2)}` : "—",
      target,
    });
    if (r.name.startsWith("gen-") || r.name === "one-resource" || r.name === largestReal?.name) {
      rows.push({
        measure: "CLI peak RSS (MiB)",
        case: label,
        porchlight: spread(r.porchlight.rssMiB, 0),
        baseline: r.kpt ? spread(r.kpt.rssMiB, 0) : "kpt absent",
        ratio: "",
        target: r.name === "gen-10000" ? verdict(r.porchlight.rssMiB.median < 300, "< 300 MiB") : "",
      });
    }
  }
}

function largest(cli) {
  return cli.find((r) => r.name === largestReal?.name);
}

if (wants("cli")) sampleLoad("after CLI");

if (wants("api")) {
  const missing = fakeGitHubMissing(sharedDir);
  if (missing) notes.push(missing);
  else {
    const scenarios = args.smallest
      ? [{ name: "1 package, 10 files", packages: 1, files: 10 }]
      : [
          { name: "1 package, 10 files", packages: 1, files: 10 },
          { name: "1 package, 100 files", packages: 1, files: 100 },
          { name: "1 package, 1000 files", packages: 1, files: 1000 },
          { name: "1000 packages, 10 files each", packages: 1000, files: 10 },
        ];
    const rounds = args.rounds ?? (args.smallest ? 1 : 2);
    console.error(`bench: API calls per draft push, ${scenarios.length} scenarios x ${rounds} rounds`);
    results.apiCalls = await measureApiCalls({ sharedDir, repoRoot, scenarios, rounds }).catch((err) => {
      // The table still prints; the failure is a note (and a failed exit code).
      notes.push(`API calls per push not measured: ${String(err.message ?? err).split("\n")[0]}`);
      process.exitCode = 1;
      return [];
    });
    const single = results.apiCalls.find((r) => r.packages === 1 && r.files === 10);
    for (const r of results.apiCalls) {
      const many = r.packages > 1;
      rows.push({
        measure: "API calls per draft push",
        case: `${r.name} (${Object.entries(r.kinds)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")})`,
        porchlight: spread(r.calls, 0),
        baseline: many && single ? `${spread(single.calls, 0)} (1 package)` : "",
        ratio: many && single ? (r.calls.median / single.calls.median).toFixed(2) : "",
        target:
          many && single
            ? verdict(r.calls.median <= 1.5 * single.calls.median, "≤ 1.5 × 1 package")
            : verdict(r.calls.median <= 8, "≤ 8"),
      });
      rows.push({
        measure: "draft push, app time (ms)",
        case: r.name,
        porchlight: spread(r.ms, 0),
        baseline: many && single ? `${spread(single.ms, 0)} (1 package)` : "",
        ratio: many && single ? (r.ms.median / single.ms.median).toFixed(2) : "",
        target: many && single ? verdict(r.ms.median <= 1.5 * single.ms.median, "≤ 1.5 × 1 package") : "",
      });
      if (r.cpuMs)
        rows.push({
          measure: "draft push, app CPU time (ms)",
          case: r.name,
          porchlight: spread(r.cpuMs, 0),
          baseline: many && single?.cpuMs ? `${spread(single.cpuMs, 0)} (1 package)` : "",
          ratio: many && single?.cpuMs ? (r.cpuMs.median / single.cpuMs.median).toFixed(2) : "",
          target:
            many && single?.cpuMs
              ? verdict(r.cpuMs.median <= 1.5 * single.cpuMs.median, "≤ 1.5 × 1 package")
              : "",
        });
    }
  }
}

if (wants("api")) sampleLoad("after API");

function verdict(ok, what) {
  return `${what}: ${ok ? "holds" : "MISSED"}`;
}

const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
results.command = command;
results.machine = {
  cpus: os.cpus().length,
  node: process.version,
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
  loadSamples,
};
results.targets = targetSummary();

/**
 * Issue 10's targets 1–3 in one line each: holds or not, with the figures (median [min–max]) they
 * are judged on.
 */
function targetSummary() {
  const out = [];
  const gen = (n) => results.inProcess.find((r) => r.name === `gen-${n}`);
  const cli = (name) => results.cli.find((r) => r.name === name);
  const ratios = [1000, 10000].map(gen).filter(Boolean);
  if (ratios.length > 0) {
    const ok = ratios.every((r) => r.ratio.median <= 2);
    out.push(
      `1. in-process render ≤ 2× the parse+serialise floor at 1k and 10k resources: ${ok ? "holds" : "MISSED"} (${ratios
        .map((r) => `${r.resources}: ${spread(r.ratio, 2)}×`)
        .join("; ")})`,
    );
  }
  const big = cli("gen-10000");
  if (big) {
    const rssOk = big.porchlight.rssMiB.median < 300;
    out.push(
      `2a. 10,000 resources, CLI peak RSS < 300 MiB: ${rssOk ? "holds" : "MISSED"} (${spread(big.porchlight.rssMiB, 0)} MiB; kpt ${big.kpt ? spread(big.kpt.rssMiB, 0) : "absent"})`,
    );
    if (big.speedup)
      out.push(
        `2b. 10,000 resources, ≥ 6× faster than kpt with identity exec functions: ${big.speedup.median >= 6 ? "holds" : "MISSED"} (${spread(big.speedup, 2)}×; porchlight ${spread(big.porchlight.ms, 0)} ms, kpt ${spread(big.kpt.ms, 0)} ms)`,
      );
  }
  const reals = results.cli.filter(
    (r) => !r.name.startsWith("gen-") && r.name !== "one-resource" && r.speedup,
  );
  if (reals.length > 0) {
    const faster = reals.filter((r) => r.speedup.median > 1);
    const largest = reals.find((r) => r.name === largestReal?.name);
    const speedups = summary(reals.map((r) => r.speedup.median));
    out.push(
      `3a. faster than kpt on every builtin-renderable real package: ${faster.length === reals.length ? "holds" : "MISSED"} (faster on ${faster.length} of ${reals.length}; per-package median speedups ${spread(speedups, 2)}×${largest ? `; largest, ${largest.name}: ${spread(largest.speedup, 2)}×` : ""})`,
    );
  }
  const one = cli("one-resource");
  if (one?.speedup)
    out.push(
      `3b. one-resource package within 1.5× of kpt's whole run: ${one.speedup.median >= 1 / 1.5 ? "holds" : "MISSED"} (kpt / porchlight ${spread(one.speedup, 2)}; porchlight ${spread(one.porchlight.ms, 0)} ms, kpt ${spread(one.kpt.ms, 0)} ms)`,
    );
  return out;
}

const header = ["measure", "case", "porchlight", "baseline", "ratio", "target"];
const table = [
  `| ${header.join(" | ")} |`,
  `|${header.map(() => "---").join("|")}|`,
  ...rows.map((r) => `| ${header.map((h) => String(r[h] ?? "").replace(/\|/g, "\\|")).join(" | ")} |`),
].join("\n");
console.log(table);
for (const t of results.targets) console.log(t);
for (const n of notes) console.log(`note: ${n}`);

if (args.write) {
  writeFileSync(path.join(repoRoot, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(
    path.join(repoRoot, "BENCHMARKS.md"),
    `# Benchmarks

Made with \`${command}\` on ${results.machine.cpus} cores (shared; 1-minute load average ${loadSamples.map((l) => `${l.load1} ${l.when}`).join(", ")}), Node ${results.machine.node}. A machine-readable copy is in \`bench/results.json\`.

Each cell is the median [min–max] over interleaved rounds; ratios are computed per round from measurements taken side by side, then summarised.

- **in-process render / floor**: \`renderPackage\` against parsing every resource file with the \`yaml\` package and serialising every document again (the floor). Generated packages: Deployments in files of 50 under set-namespace + set-labels + apply-setters.
- **CLI time**: the whole \`porchlight render <dir>\` process against \`kpt fn render --allow-exec <dir>\` on the same package with every pipeline step replaced by \`exec: cat\` (kpt's own floor), each on a fresh copy; ratio = kpt time / porchlight time (> 1: porchlight is faster).
- **CLI peak RSS**: maximum resident set of the process (GNU time's %M), not heap growth.
- **API calls per draft push**: every request the built app (\`probot run ./dist/src/index.js\`, unmodified) makes to ../shared/tools/fake-github after a draft push changing one file of one package, until the app is idle (git over HTTP included, the installation token aside). **App time** runs from the delivery to the app's last request; **app CPU time** is the CPU the app process (render workers included) used meanwhile: its own cost, without GitHub's serving time or the one-second pacing of its writes. The fake's \`createCommitOnBranch\` rewrites every tree of the repository (one \`git mktree\` per directory: seconds at 1,000 packages), where GitHub rewrites only the trees on the changed path, so the end-to-end time of a push into a large repository measures the fake more than the app.

## Targets 1–3 (issue 10)

${results.targets.map((t) => `- ${t}`).join("\n")}

## Table

${table}
${notes.map((n) => `\nNote: ${n}`).join("")}
`,
  );
  console.error("bench: wrote BENCHMARKS.md and bench/results.json");
}
