// The exec runtime's ResourceList wire at 10,000 Deployments (bench/packages.js generatedPackage):
// write the ResourceList and read a function's answer back, the Document path (`run`: items as
// `yaml` Documents, converted to nodes to write and back to read) against the node path
// (`runNodes`: items as our YAML layer's document nodes). Two answers: `cat` (stdout is stdin) and
// `edit` (one item's value changed, every other item's text as written). Each measurement runs in a
// fresh child process; figures are the median of 5 children: wall time of write + read (ms) and the
// process's peak RSS / heap sampled around it (MiB).
// Usage: npm run build && node bench/exec-wire.js [count]   (prints a table)
import { execFileSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generatedPackage } from "./packages.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const load = (p) => import(pathToFileURL(path.join(repoRoot, "dist/src", p)).href);

async function child(mode, answer, count) {
  const { Kind, mapGet, readYamlStream, scalar, YNode } = await load("yaml/index.js");
  const { nodeToDocument } = await load("yaml/to-document.js");
  const wire = await load("runtimes/exec/wire.js");
  const wireNodes = await load("runtimes/exec/wire-nodes.js");
  const decoder = new TextDecoder();
  const nodes = [];
  for (const [file, bytes] of generatedPackage(count).files) {
    if (file === "Kptfile") continue;
    for (const d of readYamlStream(decoder.decode(bytes))) nodes.push(d.node);
  }
  // the engine's id on each item, as it sets it before a step
  nodes.forEach((n, i) => {
    const annotations = new YNode(Kind.Mapping, "!!map", "", [scalar("config.k8s.io/id"), scalar(String(i))]);
    mapGet(n.content[0], "metadata").content.push(scalar("annotations"), annotations);
  });
  const items = mode === "docs" ? nodes.map(nodeToDocument) : nodes;
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  globalThis.gc?.();
  sample();
  const base = process.memoryUsage();
  const started = performance.now();
  const request =
    mode === "docs"
      ? wire.encodeResourceList({ items, results: [] })
      : wireNodes.encodeNodeResourceList({ items, results: [] });
  sample();
  const stdout =
    answer === "cat" ? request.text : request.text.replace("  name: app-17\n", "  name: app-17b\n");
  const out =
    mode === "docs"
      ? wire.decodeResourceList(stdout, request)
      : wireNodes.decodeNodeResourceList(stdout, request);
  sample();
  const ms = performance.now() - started;
  const kept = out.items.filter((item, i) => item === items[i]).length;
  const mib = (b) => Math.round((b / 2 ** 20) * 10) / 10;
  return { ms: Math.round(ms), rss: mib(peakRss), heap: mib(peakHeap - base.heapUsed), kept };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[2] === "--child") {
  const [, , , mode, answer, count] = process.argv;
  process.stdout.write(JSON.stringify(await child(mode, answer, Number(count))));
} else {
  const count = Number(process.argv[2] ?? 10_000);
  const self = fileURLToPath(import.meta.url);
  console.log(`exec wire, ${count} Deployments: write + read, median of 5 fresh processes`);
  console.log("answer  path   ms     peak RSS MiB  heap growth MiB  items kept");
  for (const answer of ["cat", "edit"]) {
    for (const mode of ["docs", "nodes"]) {
      const runs = [];
      for (let i = 0; i < 5; i++) {
        const out = execFileSync(process.execPath, [
          "--expose-gc",
          self,
          "--child",
          mode,
          answer,
          String(count),
        ]);
        runs.push(JSON.parse(String(out)));
      }
      const m = (k) => median(runs.map((r) => r[k]));
      console.log(
        `${answer.padEnd(8)}${mode.padEnd(7)}${String(m("ms")).padEnd(7)}${String(m("rss")).padEnd(14)}${String(m("heap")).padEnd(17)}${runs[0].kept}`,
      );
    }
  }
}
