// Paired timing of two builds of our YAML writer in one process: every document of
// ../shared/real-packages parsed once, then printed by build A and build B alternately (`rounds`
// passes each), medians of MB/s (MB of the printed text). Also parse + print (readYamlStream +
// printYamlStream) per build, the figure. The outputs of both builds must be identical.
// Usage: npm run build && node bench/emit-paired.js <old dist dir> [new dist dir = dist] [rounds = 15]
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { realFiles } from "./yaml-throughput.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [oldDir, newDir = path.join(repoRoot, "dist"), roundsArg = "15"] = process.argv.slice(2);
if (!oldDir) throw new Error("usage: node bench/emit-paired.js <old dist dir> [new dist dir] [rounds]");
const rounds = Number(roundsArg);

const load = async (dir) => import(pathToFileURL(path.resolve(dir, "src/yaml/index.js")).href);
const builds = { old: await load(oldDir), new: await load(newDir) };
const texts = realFiles();
const docs = texts.flatMap((t) => builds.old.readYamlStream(t));
const sourceMB = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;

const printAll = (b) => {
  let out = "";
  let n = 0;
  for (const d of docs) {
    out = b.printDocument(d.node, d.seqIndent);
    n += out.length;
  }
  return n;
};
const roundTrip = (b) => {
  let n = 0;
  for (const t of texts) n += b.printYamlStream(b.readYamlStream(t)).length;
  return n;
};

for (const d of docs)
  if (builds.old.printDocument(d.node, d.seqIndent) !== builds.new.printDocument(d.node, d.seqIndent))
    throw new Error("the two builds print a document differently");
const printedMB = printAll(builds.old) / 1e6;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const time = (fn) => {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
};
const res = { old: { print: [], rt: [] }, new: { print: [], rt: [] } };
for (let r = 0; r < rounds; r++) {
  for (const k of r % 2 === 0 ? ["old", "new"] : ["new", "old"]) {
    res[k].print.push(printedMB / time(() => printAll(builds[k])));
    res[k].rt.push(sourceMB / time(() => roundTrip(builds[k])));
  }
}
const out = { documents: docs.length, printedMB: Number(printedMB.toFixed(2)), rounds };
for (const k of ["old", "new"])
  out[k] = {
    printMBps: Number(median(res[k].print.slice(1)).toFixed(1)),
    parsePrintMBps: Number(median(res[k].rt.slice(1)).toFixed(1)),
  };
console.log(JSON.stringify(out, null, 2));
