// Paired timing of the fast YAML reader (src/yaml/fast): two builds of src/yaml (a copy of an older
// dist/src/yaml, and this worktree's dist/src/yaml) read the same document chunks of every resource
// file of ../shared/real-packages in one process, alternating, medians of MB/s of YAML text.
//   "fast": fastReadDocument on every chunk (a bail costs only what the reader did before it);
//   "read": readYamlStream on every file (the fast reader, the full parser where it bails).
// With --cold, one fresh process per build and round reads every file once (readYamlStream).
// Usage: npm run build && node bench/fast-reader-paired.js OLD_YAML_DIR [rounds] [--cold]
//   (OLD_YAML_DIR: a copy of an older build's dist/src/yaml, e.g. cp -r dist/src/yaml /tmp/old/)
import { execFileSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { summary } from "./stats.js";
import { realFiles } from "./yaml-throughput.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function load(dir) {
  const index = await import(pathToFileURL(path.join(dir, "index.js")).href);
  const fast = await import(pathToFileURL(path.join(dir, "fast", "index.js")).href);
  return { index, fast };
}

function chunksOf(index, texts) {
  const out = [];
  for (const t of texts) {
    try {
      for (const c of index.kyamlChunks(t)) if (!c.header) out.push(c);
    } catch {
      // a file kyaml cannot split is no chunk
    }
  }
  return out;
}

const mb = (texts) => texts.reduce((n, t) => n + t.length, 0) / 1e6;

function timeFast(lib, chunks, size) {
  const start = performance.now();
  let n = 0;
  for (const c of chunks) if (lib.fast.fastReadDocument(c.text, c.line) !== undefined) n++;
  return { mbps: size / ((performance.now() - start) / 1000), taken: n };
}

function timeRead(lib, texts, size) {
  const start = performance.now();
  for (const t of texts) {
    try {
      lib.index.readYamlStream(t);
    } catch {
      // bad YAML costs the same either way
    }
  }
  return size / ((performance.now() - start) / 1000);
}

async function cold(dir) {
  const lib = await load(dir);
  const texts = realFiles();
  process.stdout.write(String(timeRead(lib, texts, mb(texts))));
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--child") return cold(args[1]);
  const oldDir = path.resolve(args[0]);
  const newDir = path.join(repoRoot, "dist", "src", "yaml");
  const rounds = Number(args[1] ?? 15);
  const builds = { old: oldDir, new: newDir };
  if (args.includes("--cold")) {
    const samples = { old: [], new: [] };
    for (let r = 0; r < rounds; r++)
      for (const [name, dir] of r % 2 ? Object.entries(builds).reverse() : Object.entries(builds))
        samples[name].push(
          Number(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dir]).toString()),
        );
    for (const name of Object.keys(builds)) {
      const s = summary(samples[name]);
      console.log(`cold read ${name}: ${s.median.toFixed(1)} MB/s [${s.min.toFixed(1)}–${s.max.toFixed(1)}]`);
    }
    return;
  }
  const texts = realFiles();
  const size = mb(texts);
  const libs = { old: await load(oldDir), new: await load(newDir) };
  const chunks = chunksOf(libs.new.index, texts);
  const chunkSize = mb(chunks.map((c) => c.text));
  const fast = { old: [], new: [] };
  const read = { old: [], new: [] };
  const taken = {};
  for (let r = 0; r < rounds + 2; r++) {
    const order = r % 2 ? ["new", "old"] : ["old", "new"];
    for (const name of order) {
      const f = timeFast(libs[name], chunks, chunkSize);
      taken[name] = f.taken;
      const rd = timeRead(libs[name], texts, size);
      if (r >= 2) {
        fast[name].push(f.mbps);
        read[name].push(rd);
      }
    }
  }
  console.log(`${texts.length} files, ${chunks.length} chunks, ${size.toFixed(2)} MB; ${rounds} rounds`);
  for (const name of ["old", "new"]) {
    const f = summary(fast[name]);
    const rd = summary(read[name]);
    console.log(
      `${name}: fastReadDocument ${f.median.toFixed(1)} MB/s [${f.min.toFixed(1)}–${f.max.toFixed(1)}], ` +
        `readYamlStream ${rd.median.toFixed(1)} MB/s [${rd.min.toFixed(1)}–${rd.max.toFixed(1)}], ` +
        `${taken[name]}/${chunks.length} chunks taken`,
    );
  }
}

await main();
