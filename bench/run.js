// `npm run bench`: one table of porchlight's speed and memory against its floors, measured side by
// side in interleaved rounds (medians with [min–max]):
//   - our YAML layer's parse + print of every real package's files, warm and cold, against
//     JSON.parse + JSON.stringify of the same data (the physical class) and the `yaml` package;
//   - in-process render vs the parse+print floor (our layer's read + write of the same files) on
//     generated packages of 100 / 1k / 10k resources and every builtin-renderable real package;
//   - the whole CLI process, cold (CPU user+sys, wall time, peak RSS) vs `kpt fn render --allow-exec`,
//     both on the same packages with every step replaced by `exec: cat` (identical work), every real
//     package; the outputs compared byte for byte (skipped with a message when kpt is not installed);
//   - the app's warm render (in process) against a kpt process on the same package;
//   - API calls per draft push against ../shared/tools/fake-github running the built app unmodified.
// Full run: writes BENCHMARKS.md and bench/results.json. `--smallest` (CI): the smallest case of each
// part, a few seconds, writes nothing. `--only in-process,cli,api` and `--rounds N` narrow a run;
// `--api-cases 1x10,1000x10` (packages x files) picks API scenarios (then nothing is written).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fakeGitHubMissing, measureApiCalls } from "./api-calls.js";
import { cpuMeasure, kptMissing, measureCli } from "./cli.js";
import { measureInProcess } from "./in-process.js";
import { generatedPackage, oneResourcePackage, realPackages, yamlBytes } from "./packages.js";
import { spread } from "./stats.js";
import { measureThroughput } from "./yaml-throughput.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sharedDir = path.resolve(repoRoot, "../shared");

function parseArgs(argv) {
  const args = { smallest: false, only: undefined, rounds: undefined, write: undefined, apiCases: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--smallest") args.smallest = true;
    else if (a === "--only") args.only = new Set(argv[++i].split(","));
    else if (a === "--rounds") args.rounds = Number(argv[++i]);
    else if (a === "--no-write") args.write = false;
    else if (a === "--write") args.write = true;
    else if (a === "--api-cases") args.apiCases = new Set(argv[++i].split(","));
    else throw new Error(`bench: unknown argument ${a}`);
  }
  if (args.write === undefined)
    args.write =
      !args.smallest && args.only === undefined && args.rounds === undefined && args.apiCases === undefined;
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
const allReals = (realPackages(sharedDir, true) ?? []).map((p) => ({
  ...p,
  resources: countResources(p.files),
}));
const largestReal = [...allReals].sort((a, b) => countBytes(b) - countBytes(a))[0];
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
const results = { command: "", inProcess: [], cli: [], apiCalls: [], notes, sources: {} };

// With --only ... --write, the parts not measured keep the previous run's figures (marked as such,
// with the command and load they were made with), so BENCHMARKS.md never loses a section.
const previous =
  args.write && existsSync(path.join(repoRoot, "bench/results.json"))
    ? JSON.parse(readFileSync(path.join(repoRoot, "bench/results.json"), "utf8"))
    : undefined;
const PARTS = { yaml: "yaml", "in-process": "inProcess", cli: "cli", api: "apiCalls" };
const TITLES = {
  yaml: "YAML parse + print",
  "in-process": "in-process render",
  cli: "CLI",
  api: "API calls per draft push",
};
/** Whether a part is not measured in this run but has figures from the previous one to keep. */
function kept(part) {
  if (wants(part) || previous === undefined) return false;
  const figures = previous[PARTS[part]];
  return Array.isArray(figures) ? figures.length > 0 : figures !== undefined;
}
/** The previous run's figures of a part, noting where they come from. */
function keep(part) {
  const keptBefore = (previous.notes ?? []).some(
    (n) => n.startsWith(TITLES[part]) && n.includes("previous run"),
  );
  const source =
    previous.sources?.[PARTS[part]] ??
    (keptBefore
      ? { command: "an earlier npm run bench", load: [] }
      : { command: previous.command, load: (previous.machine?.loadSamples ?? []).map((l) => l.load1) });
  results.sources[PARTS[part]] = source;
  const load = source.load.length > 0 ? `, 1-minute load ${source.load.join(", ")}` : "";
  notes.push(
    `${TITLES[part]}: the previous run's figures, not measured again in this run (made with \`${source.command}\`${load})`,
  );
  return previous[PARTS[part]];
}
const thisRun = () => ({ command: results.command, load: loadSamples.map((l) => l.load1) });

if ((wants("yaml") && real !== undefined) || kept("yaml")) {
  const rounds = args.rounds ?? (args.smallest ? 2 : 7);
  if (wants("yaml")) console.error(`bench: YAML layer parse + print, ${rounds} rounds`);
  results.yaml = wants("yaml") ? await measureThroughput(rounds) : keep("yaml");
  const y = results.yaml;
  for (const mode of ["warm", "cold"]) {
    const goal = mode === "warm" ? 50 : 15;
    rows.push({
      measure: `YAML parse + print, MB/s ${mode}`,
      case: `every real package (${y.ours.MB.toFixed(1)} MB of YAML)`,
      porchlight: spread(y.ours[mode], 1),
      baseline: `JSON ${spread(y.json[mode], 1)}; yaml package ${spread(y.yaml[mode], 1)}`,
      ratio: (y.ours[mode].median / y.json[mode].median).toFixed(2),
      target: verdict(y.ours[mode].median >= goal, `≥ ${goal} MB/s`),
    });
  }
}

if (wants("in-process") || kept("in-process")) {
  const yamlLayer = await import(pathToFileURL(path.join(repoRoot, "dist/src/yaml/index.js")).href);
  const packages = [...sizes.map(gen), ...(args.smallest ? reals.slice(0, 1) : reals)];
  const rounds = args.rounds ?? (args.smallest ? 3 : 5);
  if (wants("in-process"))
    console.error(`bench: in-process render vs floor, ${packages.length} packages x ${rounds} rounds`);
  const runtime = createDefaultRuntime({ allowExec: false });
  results.inProcess = wants("in-process")
    ? await measureInProcess({ packages, rounds, renderPackage, runtime, yaml: yamlLayer })
    : keep("in-process");
  for (const r of results.inProcess) {
    const generated = r.name.startsWith("gen-");
    rows.push({
      measure: "in-process render / floor (ms)",
      case: generated ? `${r.resources} resources` : r.name,
      porchlight: spread(r.render, 2),
      baseline: spread(r.floor, 2),
      ratio: spread(r.ratio, 2),
      target: generated && r.resources >= 1000 ? verdict(r.ratio.median <= 1.5, "≤ 1.5") : "",
    });
  }
}

if (wants("in-process")) sampleLoad("after in-process");

if (wants("cli") || kept("cli")) {
  if (wants("cli")) {
    const missing = kptMissing();
    if (missing) notes.push(missing);
    const packages = args.smallest
      ? [{ ...oneResourcePackage(), resources: 1 }]
      : [{ ...oneResourcePackage(), resources: 1 }, gen(1000), gen(10000), ...allReals];
    const rounds = args.rounds ?? 3;
    console.error(`bench: CLI vs kpt, ${packages.length} packages x ${rounds} rounds`);
    results.cli = measureCli({ packages, rounds, porchlightBin: path.join(repoRoot, "bin/porchlight.js") });
  } else results.cli = keep("cli");
  for (const r of results.cli) {
    const label = r.name.startsWith("gen-") ? `${r.resources} resources` : r.name;
    if (r.error) {
      rows.push({
        measure: "CLI CPU (user+sys), kpt / porchlight (ms)",
        case: label,
        porchlight: "—",
        baseline: "—",
        ratio: "—",
        target: `not measured: ${r.error}`,
      });
      continue;
    }
    rows.push({
      measure: "CLI CPU (user+sys), kpt / porchlight (ms)",
      case: `${label} (${cliKind(r)})`,
      porchlight: spread(r.porchlight.cpuMs, 0),
      baseline: r.kpt ? spread(r.kpt.cpuMs, 0) : "kpt absent",
      ratio: r.cpuSpeedup ? spread(r.cpuSpeedup, 2) : "—",
      target: r.cpuSpeedup ? cliTarget(r) : "",
    });
    rows.push({
      measure: "CLI wall time, kpt / porchlight (ms)",
      case: label,
      porchlight: spread(r.porchlight.ms, 0),
      baseline: r.kpt ? spread(r.kpt.ms, 0) : "kpt absent",
      ratio: r.speedup ? spread(r.speedup, 2) : "—",
      target: "",
    });
    if (r.name.startsWith("gen-") || r.name === "one-resource" || r.name === largestReal?.name) {
      rows.push({
        measure: "CLI peak RSS (MiB)",
        case: label,
        porchlight: spread(r.porchlight.rssMiB, 0),
        baseline: r.kpt ? spread(r.kpt.rssMiB, 0) : "kpt absent",
        ratio: "",
        target: r.name === "gen-10000" ? verdict(r.porchlight.rssMiB.median < 250, "< 250 MiB") : "",
      });
    }
  }
  for (const r of results.inProcess) {
    const k = results.cli.find((c) => c.name === r.name)?.kpt;
    if (!k || r.name.startsWith("gen-")) continue;
    rows.push({
      measure: "app warm render vs a kpt process (ms)",
      case: r.name,
      porchlight: spread(r.render, 2),
      baseline: spread(k.ms, 0),
      ratio: (k.ms.median / r.render.median).toFixed(1),
      target: verdict(k.ms.median / r.render.median >= 20, "≥ 20"),
    });
  }
}

/** Bytes of YAML and whether a pipeline runs, as the targets distinguish packages. */
function cliKind(r) {
  const p = [...allReals, ...[1000, 10000].map(gen)].find((x) => x.name === r.name);
  const kb = p ? Math.round(yamlBytes(p.files) / 1024) : undefined;
  const pipeline = p ? p.hasPipeline !== false : true;
  return `${kb === undefined ? "" : `${kb} KB, `}${pipeline ? "pipeline" : "no pipeline"}`;
}

/** Issue 17's CLI target for one case: by CPU, kpt / porchlight with identical work. */
function cliTarget(r) {
  const x = r.cpuSpeedup.median;
  if (r.name === "gen-10000") return verdict(x >= 12, "≥ 12");
  if (r.name.startsWith("gen-")) return verdict(x >= 1, "≥ 1");
  const p = allReals.find((q) => q.name === r.name);
  if (r.name !== "one-resource" && p?.hasPipeline) return verdict(x >= 1, "≥ 1 (pipeline)");
  const big = p ? yamlBytes(p.files) >= 100 * 1024 : false;
  return big ? verdict(x >= 0.67, "≥ 0.67 (≥ 100 KB)") : verdict(x >= 0.5, "≥ 0.5 (< 100 KB)");
}

if (wants("cli")) sampleLoad("after CLI");

if (wants("api") || kept("api")) {
  const missing = wants("api") ? fakeGitHubMissing(sharedDir) : undefined;
  if (missing) notes.push(missing);
  else {
    const scenarios = args.smallest
      ? [{ name: "1 package, 10 files", packages: 1, files: 10 }]
      : [
          { name: "1 package, 10 files", packages: 1, files: 10 },
          { name: "1 package, 100 files", packages: 1, files: 100 },
          { name: "1 package, 1000 files", packages: 1, files: 1000 },
          { name: "1000 packages, 10 files each", packages: 1000, files: 10 },
        ].filter((s) => !args.apiCases || args.apiCases.has(`${s.packages}x${s.files}`));
    const rounds = args.rounds ?? (args.smallest ? 1 : 2);
    const measured = wants("api")
      ? measureApiCalls({ sharedDir, repoRoot, scenarios, rounds })
      : Promise.resolve(keep("api"));
    if (wants("api"))
      console.error(`bench: API calls per draft push, ${scenarios.length} scenarios x ${rounds} rounds`);
    results.apiCalls = await measured.catch((err) => {
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
for (const [part, key] of Object.entries(PARTS)) if (wants(part)) results.sources[key] = thisRun();

/**
 * The byte-identity lines: strictly identical packages, identical but for deliberate differences
 * (./differences.js: the reasons and how many files each explains), and the unexplained files by name.
 */
function identityLines(compared) {
  const same = compared.filter((r) => r.differences.length === 0);
  // Figures kept from a run made before the classification list file names only.
  if (compared.some((r) => r.differences.some((d) => typeof d === "string")))
    return [
      `byte-identical with kpt (every step exec: cat): ${same.length} of ${compared.length} packages`,
      "deliberate differences not classified: these CLI figures predate it (run the cli part again)",
    ];
  const unexplained = (r) => r.differences.filter((d) => d.reasons === undefined).map((d) => d.file);
  const explained = compared.filter((r) => unexplained(r).length === 0);
  const reasons = new Map();
  for (const r of compared)
    for (const d of r.differences)
      for (const why of d.reasons ?? []) reasons.set(why, (reasons.get(why) ?? 0) + 1);
  const differing = compared.filter((r) => unexplained(r).length > 0);
  return [
    `byte-identical with kpt (every step exec: cat): ${same.length} of ${compared.length} packages`,
    `byte-identical with kpt except deliberate differences: ${explained.length} of ${compared.length} packages${
      reasons.size > 0
        ? ` (${[...reasons].map(([why, n]) => `${why}: ${n} file${n === 1 ? "" : "s"}`).join("; ")})`
        : ""
    }`,
    differing.length === 0
      ? "unexplained differences from kpt: none"
      : `unexplained differences from kpt: ${differing.map((r) => `${r.name} (${unexplained(r).join(", ")})`).join("; ")}`,
  ];
}

/** The YAML-layer targets in one line each: holds or not, with the figures they are judged on. */
function targetSummary() {
  const out = [];
  const y = results.yaml;
  if (y)
    out.push(
      `YAML parse + print ≥ 50 MB/s warm, ≥ 15 MB/s cold: ${y.ours.warm.median >= 50 && y.ours.cold.median >= 15 ? "holds" : "MISSED"} (warm ${spread(y.ours.warm, 1)}, cold ${spread(y.ours.cold, 1)} MB/s; JSON.parse + JSON.stringify ${spread(y.json.warm, 1)} warm)`,
    );
  const gens = [1000, 10000].map((n) => results.inProcess.find((r) => r.name === `gen-${n}`)).filter(Boolean);
  if (gens.length > 0)
    out.push(
      `in-process render ≤ 1.5× the parse+print floor at 1k and 10k resources: ${gens.every((r) => r.ratio.median <= 1.5) ? "holds" : "MISSED"} (${gens.map((r) => `${r.resources}: ${spread(r.ratio, 2)}×`).join("; ")})`,
    );
  const measured = results.cli.filter((r) => r.cpuSpeedup && !r.error);
  const failed = results.cli.filter((r) => r.error);
  if (failed.length > 0)
    out.push(
      `CLI cases not measured (a run failed): ${failed.map((r) => `${r.name} (${r.error})`).join("; ")}`,
    );
  if (measured.length > 0) {
    const held = measured.filter((r) => cliTarget(r).endsWith("holds"));
    out.push(
      `CLI, kpt / porchlight by CPU with identical work: holds on ${held.length} of ${measured.length} cases (${measured.filter((r) => !held.includes(r)).length} MISSED; see the table)`,
    );
    out.push(...identityLines(measured.filter((r) => r.differences)));
  }
  const apps = rows.filter((r) => r.measure.startsWith("app warm render"));
  if (apps.length > 0) {
    const held = apps.filter((r) => r.target.endsWith("holds"));
    out.push(
      `app warm render ≥ 20× faster than a kpt process: holds on ${held.length} of ${apps.length} real packages`,
    );
  }
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

const jsonSize = results.yaml?.json?.jsonMB
  ? `${results.yaml.json.jsonMB.toFixed(1)} MB against ${results.yaml.json.MB.toFixed(1)} MB of YAML`
  : "about 0.6 of the YAML's bytes";
if (args.write) {
  writeFileSync(path.join(repoRoot, "bench/results.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(
    path.join(repoRoot, "BENCHMARKS.md"),
    `# Benchmarks

Made with \`${command}\` on ${results.machine.cpus} cores (shared; 1-minute load average ${loadSamples.map((l) => `${l.load1} ${l.when}`).join(", ")}), Node ${results.machine.node}. A machine-readable copy is in \`bench/results.json\`.

Each cell is the median [min–max] over interleaved rounds; ratios are computed per round from measurements taken side by side, then summarised.

The machine is shared by several engineers at once: CPU time (user+sys) is the figure to read, wall times move with the load.

- **YAML parse + print**: our YAML layer (src/yaml) reading and writing every resource file of ../shared/real-packages, MB/s of source text; warm = one process, three passes per round after three unmeasured ones (V8 has optimised the code by then); cold = the first pass of a fresh process. Baselines: \`JSON.parse\` + \`JSON.stringify\` of the same data as JSON text (the physical class; also in MB of the YAML source per second, so the columns compare the same data — the JSON text is ${jsonSize}) and the \`yaml\` package's Document API.
- **in-process render / floor**: \`renderPackage\` against reading every resource file with our YAML layer and writing it again (the floor). Generated packages: Deployments in files of 50 under set-namespace + set-labels + apply-setters.
- **CLI CPU and wall time**: the whole \`porchlight render --allow-exec <dir>\` process against \`kpt fn render --allow-exec <dir>\`, cold, both on the same package with every pipeline step replaced by \`exec: cat\` (identical work), each on a fresh copy; CPU is user+sys of the process and its children, measured by ${cpuMeasure()}; wall time runs from the fork to the exit; ratio = kpt / porchlight (> 1: porchlight is cheaper). Every real package of ../shared/real-packages ("largest" = most bytes); the last round's two outputs are compared byte for byte. A Kptfile differs by design: porchlight writes the rendered status (\`status.conditions\`, \`renderStatus\`) as kpt does since v1.0.0-beta.67 (the version of the conformance corpus, byte-exact there); the kpt installed here, \`kpt version\` 1.0.0-beta.56, writes none.
- **app warm render vs a kpt process**: the in-process render (warm, builtins, as the app's render workers run it) of a builtin-renderable real package against the wall time of one kpt process on it (exec: cat).
- **CLI peak RSS**: maximum resident set of the process (wait4's ru_maxrss), not heap growth.
- **API calls per draft push**: every request the built app (\`probot run ./dist/src/index.js\`, unmodified) makes to ../shared/tools/fake-github after a draft push changing one file of one package, until the app is idle (git over HTTP included, the installation token aside). **App time** runs from the delivery to the app's last request; **app CPU time** is the CPU the app process (render workers included) used meanwhile: its own cost, without GitHub's serving time or the one-second pacing of its writes. The fake's \`createCommitOnBranch\` rewrites every tree of the repository (one \`git mktree\` per directory: seconds at 1,000 packages), where GitHub rewrites only the trees on the changed path, so the end-to-end time of a push into a large repository measures the fake more than the app.

## Targets (YAML layer)

${results.targets.map((t) => `- ${t}`).join("\n")}

## Table

${table}
${notes.map((n) => `\nNote: ${n}`).join("")}
`,
  );
  console.error("bench: wrote BENCHMARKS.md and bench/results.json");
}
