// Throughput of our YAML layer (src/yaml) against the `yaml` package and JSON over every resource file
// of ../shared/real-packages: parse + print, MB/s of YAML source text. "cold" is the first pass in a
// fresh process (one child per measurement), "warm" the median of later passes in one process. The
// JSON baseline parses and prints the same data as JSON text (about 0.6 of the YAML's bytes: no
// indentation, no comments) and is reported in the same unit, MB of the YAML source per second, so
// the columns compare the same data.
// Usage: npm run build && node bench/yaml-throughput.js [rounds]   (prints a JSON summary)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const realRoot = path.join(repoRoot, "..", "shared", "real-packages");

/** Every *.yaml / *.yml / Kptfile under the real packages, as text. */
export function realFiles(root = realRoot) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== ".git") walk(p);
      } else if (/\.ya?ml$/.test(name) || name === "Kptfile") out.push(readFileSync(p, "utf8"));
    }
  };
  walk(root);
  return out;
}

async function layers() {
  const ours = await import(pathToFileURL(path.join(repoRoot, "dist/src/yaml/index.js")).href);
  const yaml = await import("yaml");
  return {
    ours: (texts) => {
      let n = 0;
      for (const t of texts) n += ours.printYamlStream(ours.readYamlStream(t)).length;
      return n;
    },
    yaml: (texts) => {
      let n = 0;
      for (const t of texts)
        for (const d of yaml.parseAllDocuments(t)) n += d.toString({ lineWidth: 0 }).length;
      return n;
    },
    // The physical class: the same data as JSON, parsed and printed.
    json: (jsonTexts) => {
      let n = 0;
      for (const t of jsonTexts) n += JSON.stringify(JSON.parse(t)).length;
      return n;
    },
  };
}

/** JSON texts of the same data (one per file), and their total size. */
async function jsonTexts(texts) {
  const yaml = await import("yaml");
  return texts.map((t) =>
    JSON.stringify(yaml.parseAllDocuments(t).map((d) => d.toJS({ maxAliasCount: -1 }))),
  );
}

function mb(texts) {
  return texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
}

/** One pass in this process: { layer: MB/s }. */
async function pass(which) {
  const texts = realFiles();
  const fns = await layers();
  const input = which === "json" ? await jsonTexts(texts) : texts;
  const size = mb(texts);
  const start = performance.now();
  fns[which](input);
  return size / ((performance.now() - start) / 1000);
}

/** Passes of each layer before the warm ones are measured (V8 optimises the hot code meanwhile). */
const WARM_UP = 3;
/** Warm passes of each layer per round (interleaved with the other layers' passes). */
const PER_ROUND = 3;

/**
 * Warm and cold MB/s of each layer over every real package's resource files: `{ours, yaml, json}`,
 * each `{warm, cold, MB}` (summaries of MB/s: warm over `rounds` x 3 passes after 3 unmeasured
 * ones, so even two rounds summarise six steady-state passes; cold over three fresh processes).
 */
export async function measureThroughput(rounds = 7) {
  const { summary } = await import("./stats.js");
  const texts = realFiles();
  const fns = await layers();
  const json = await jsonTexts(texts);
  const sizes = { ours: mb(texts), yaml: mb(texts), json: mb(texts) };
  const warm = { ours: [], yaml: [], json: [] };
  const cold = { ours: [], yaml: [], json: [] };
  for (const which of ["ours", "yaml", "json"])
    for (let i = 0; i < WARM_UP; i++) fns[which](which === "json" ? json : texts);
  for (let r = 0; r < Math.max(rounds, 3); r++) {
    for (const which of ["ours", "yaml", "json"]) {
      const input = which === "json" ? json : texts;
      for (let i = 0; r < rounds && i < PER_ROUND; i++) {
        const start = performance.now();
        fns[which](input);
        warm[which].push(sizes[which] / ((performance.now() - start) / 1000));
      }
      if (r < 3) {
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--cold", which]);
        cold[which].push(Number(out.toString()));
      }
    }
  }
  const result = {};
  for (const which of ["ours", "yaml", "json"])
    result[which] = { warm: summary(warm[which]), cold: summary(cold[which]), MB: sizes[which] };
  result.json.jsonMB = mb(json);
  return result;
}

async function main() {
  if (process.argv[2] === "--cold") {
    process.stdout.write(JSON.stringify(await pass(process.argv[3])));
    return;
  }
  const result = await measureThroughput(Number(process.argv[2] ?? 7));
  const out = {};
  for (const [which, r] of Object.entries(result))
    out[which] = {
      warmMBps: Number(r.warm.median.toFixed(1)),
      coldMBps: Number(r.cold.median.toFixed(1)),
      MB: Number(r.MB.toFixed(2)),
    };
  console.log(JSON.stringify(out, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
